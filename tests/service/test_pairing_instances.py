"""Pairing across two ``casino serve`` instances on one database, as two
machines behind a load balancer would pair (service/pairing.py): 40 players
asking at once through both, with both restarted half-way, each end up in
exactly one game of the seat count they asked for, and nobody who could be
paired is left waiting."""

from __future__ import annotations

import os
import threading
import time
from collections import defaultdict

import pytest

from tests.conftest import OPERATOR_TOKEN
from tests.service.serving import Serving
from tests.service.test_two_instances import call

#: The pools asked for, and how many players ask in each: 8 + 4 + 2 + 2 games.
POOLS = [({"variant": "cassino", "seats": 2}, 16), ({"variant": "cassino", "seats": 3}, 12),
         ({"variant": "royal", "seats": 4, "rated": True}, 8),
         ({"variant": "cassino", "seats": 2, "clock": {"per_move_seconds": 60}}, 4)]
#: How many of each pool ask before the restart: none makes whole tables only, so some wait through it.
BEFORE_RESTART = [7, 5, 5, 3]


@pytest.fixture
def environ(tmp_path, database_url):
    environ = {k: v for k, v in os.environ.items() if k != "PROMETHEUS_MULTIPROC_DIR"}
    environ.update(DATABASE_URL=database_url, CASINO_OPERATOR_TOKEN=OPERATOR_TOKEN, CASINO_WORKERS="1",
                   CASINO_DATA_DIR=str(tmp_path / "data"), CASINO_REGISTRATIONS_PER_ADDRESS="100")
    return environ


def ask_at_once(servers, asks):
    """Each (token, body) asks at once, through the servers in turn: the pairing ids."""
    barrier, ids = threading.Barrier(len(asks)), [None] * len(asks)

    def send(n, token, body):
        barrier.wait()
        status, answer = call(servers[n % len(servers)], "POST", "/v1/pairing", body, token=token)
        assert status == 202, answer
        ids[n] = answer["id"]

    threads = [threading.Thread(target=send, args=(n, *ask)) for n, ask in enumerate(asks)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return ids


def test_forty_players_across_two_instances_each_end_up_in_exactly_one_game(tmp_path, environ):
    servers = [Serving(tmp_path, environ, "a"), Serving(tmp_path, environ, "b")]
    try:
        players = [call(servers[0], "POST", "/v1/players", {"name": f"P{n}"})[1] for n in range(40)]
        asks = [[] for _ in POOLS]
        for n, player in enumerate(players):
            pool = next(i for i, bound in enumerate(_bounds()) if n < bound)
            asks[pool].append((player, POOLS[pool][0]))
        first = [ask for pool, before in zip(asks, BEFORE_RESTART) for ask in pool[:before]]
        rest = [ask for pool, before in zip(asks, BEFORE_RESTART) for ask in pool[before:]]
        pairings = dict(zip(ask_at_once(servers, [(p["token"], body) for p, body in first]), first))
        time.sleep(1)
        waiting = [pid for pid, (p, _) in pairings.items()
                   if call(servers[0], "GET", f"/v1/pairing/{pid}", token=p["token"])[1]["status"] == "waiting"]
        assert len(waiting) >= len(POOLS)  # the odd ones out of each pool wait through the restart
        for server in servers:
            assert server.stop() == 0
        servers = [Serving(tmp_path, environ, "a2"), Serving(tmp_path, environ, "b2")]
        pairings |= dict(zip(ask_at_once(servers, [(p["token"], body) for p, body in rest]), rest))

        shown = {}
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            shown = {pid: call(servers[n % 2], "GET", f"/v1/pairing/{pid}", token=p["token"])[1]
                     for n, (pid, (p, _)) in enumerate(pairings.items())}
            if all(s["status"] == "paired" for s in shown.values()):
                break
            time.sleep(0.5)
        assert [(s["variant"], s["seats"], s["rated"], s["clock"]) for s in shown.values()
                if s["status"] != "paired"] == []  # nobody left waiting

        tables = defaultdict(list)
        for pid, s in shown.items():
            player, body = pairings[pid]
            tables[s["game_id"]].append((s["seat"], player, body))
        assert len(tables) == sum(count // body["seats"] for body, count in POOLS)
        for game_id, seated in tables.items():
            body = seated[0][2]
            assert all(b == body for _, _, b in seated)  # everyone at a table asked alike
            assert sorted(seat for seat, _, _ in seated) == list(range(body["seats"]))
            view = call(servers[0], "GET", f"/v1/games/{game_id}")[1]
            assert (view["variant"], view["rated"], len(view["seats"])) == (body["variant"], bool(body.get("rated")),
                                                                            body["seats"])
            assert [s["name"] for s in view["seats"]] == [p["name"] for _, p, _ in sorted(seated,
                                                                                         key=lambda x: x[0])]
        for player in players:  # exactly one game each, nobody paired twice
            status, mine = call(servers[1], "GET", "/v1/players/me/games", token=player["token"])
            assert status == 200 and len(mine["games"]) == 1, (player["name"], mine)
    finally:
        for server in servers:
            if server.process.poll() is None:
                server.stop()


def _bounds():
    total, bounds = 0, []
    for _, count in POOLS:
        total += count
        bounds.append(total)
    return bounds

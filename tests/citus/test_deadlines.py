"""Deadlines on a Citus cluster: claimed on each shard, on the node that
holds it (``service.postgres.deadlines``: a ``FOR UPDATE`` over every shard
is refused), and each time-out decided once however many keepers race."""

from __future__ import annotations

import threading
import time
import uuid
from collections import Counter

import psycopg

from service.web.app import close_app, create_app
from service.web.current import services
from tests.api.conftest import Api, first_actions
from tests.citus.cluster import DATABASE
from tests.conftest import TEST_SETTINGS


def clocked_game(api: Api) -> str:
    """A game whose seat 0 has 1 s left for its move: its id."""
    response = api.post("/v1/games", json={"seats": [{"name": "Ann"}, {"name": "Bob"}], "first_dealer": 0,
                                           "clock": {"per_move_seconds": 1}})
    assert response.status_code == 201, response.get_json()
    answer = response.get_json()
    first_actions(api, f"/v1/games/{answer['id']}", [s["token"] for s in answer["seats"]])
    return answer["id"]


def workers_holding(cluster, games: list[str]) -> set[str]:
    """The nodes whose shards hold the deadlines of ``games``."""
    with psycopg.connect(cluster.url) as conn:
        return {node for (node,) in conn.execute(
            "SELECT DISTINCT nodename FROM pg_dist_shard_placement WHERE shardid = ANY(ARRAY("
            " SELECT get_shard_id_for_distribution_column('deadlines', g) FROM unnest(%s::uuid[]) AS g))",
            (games,))}


def test_due_deadlines_of_games_on_both_workers_are_each_decided_once_by_two_racing_keepers(citus_cluster):
    # Two services, each with its keeper (ticked here): one on the coordinator, one on the first worker.
    apps = [create_app({**TEST_SETTINGS, "DATABASE_URL": url, "KEEP_DEADLINES": False})
            for url in (citus_cluster.url, citus_cluster.nodes[1].url(DATABASE))]
    try:
        api = Api(apps[0], apps[0].test_client())
        games: list[str] = []
        while len(games) < 6 or len(workers_holding(citus_cluster, games)) < 2:  # six alone: 1 in 32 on one worker
            assert len(games) < 40, "forty games, and all on one worker"
            games.append(clocked_game(api))
        claimed: list[uuid.UUID] = []
        keepers = [services(app).keeper for app in apps]
        for keeper in keepers:
            claims = keeper._claims
            claim = claims.claim
            claims.claim = lambda *args, claim=claim: claimed.extend(found := claim(*args)) or found
        time.sleep(1.1)  # every seat 0's second lapses

        start = threading.Barrier(2)

        def tick(keeper) -> None:
            start.wait()
            while keeper.tick():
                pass

        racers = [threading.Thread(target=tick, args=(keeper,)) for keeper in keepers]
        for racer in racers:
            racer.start()
        for racer in racers:
            racer.join()

        ours = Counter(str(game) for game in claimed if str(game) in games)
        assert ours == Counter(games)  # each claimed once, by one keeper or the other
        for game in games:
            view = api.get(f"/v1/games/{game}").get_json()
            assert (view["status"], view["result"]) == ("finished", "timed_out")
            types = [e["type"] for e in api.get(f"/v1/games/{game}/events").get_json()["events"]]
            assert types.count("TimedOut") == 1
        with psycopg.connect(citus_cluster.url) as conn:
            assert conn.execute("SELECT count(*) FROM deadlines WHERE game_id = ANY(%s::uuid[])",
                                (games,)).fetchone() == (0,)
    finally:
        for app in apps:
            close_app(app)

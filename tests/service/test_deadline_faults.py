"""Deadlines kept with nobody calling the API, on real ``casino serve``
processes sharing one database: a game whose seat never acts times out
within two seconds of its deadline while one instance is killed (every
process of it, at once) and restarted around the deadline, a restarted
service acts on deadlines that passed while it was down, and with two
instances each time-out is appended once (docs/design.md, "Deadlines")."""

from __future__ import annotations

import json
import os
import signal
import time
from datetime import datetime

import psutil
import pytest

from tests.conftest import OPERATOR_TOKEN
from tests.service.test_cli import Serving
from tests.service.test_two_instances import call

#: The contract's bound on a time-out's lag.
LAG = 2.0


@pytest.fixture
def environ(tmp_path, database_url):
    environ = {k: v for k, v in os.environ.items() if k != "PROMETHEUS_MULTIPROC_DIR"}
    environ.update(DATABASE_URL=database_url, CASINO_OPERATOR_TOKEN=OPERATOR_TOKEN, CASINO_WORKERS="2",
                   CASINO_DATA_DIR=str(tmp_path / "data"))
    return environ


@pytest.fixture
def servers():
    started: list[Serving] = []
    yield started
    for server in started:
        if server.process.poll() is None:
            assert server.stop() == 0


def kill(server: Serving) -> None:
    """SIGKILL every process of the instance at once: no worker finishes what it holds."""
    tree = [server.process.pid, *(p.pid for p in psutil.Process(server.process.pid).children(recursive=True))]
    for pid in tree:
        try:
            os.kill(pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
    server.process.wait(10)


def clocked_game(server: Serving, seconds: int = 2) -> tuple[str, datetime]:
    status, created = call(server, "POST", "/v1/games", {"seats": [{"name": "Ann"}, {"name": "Bob"}],
                                                         "first_dealer": 0, "clock": {"per_move_seconds": seconds}})
    assert status == 201, created
    url, tokens = f"/v1/games/{created['id']}", [s["token"] for s in created["seats"]]
    # Each seat's first action has a time of its own: Ann deals and Bob plays, then Ann has her clock's.
    assert call(server, "POST", f"{url}/deal", {}, tokens[0])[0] == 200
    move = call(server, "GET", f"{url}/moves", token=tokens[1])[1]["moves"][0]
    status, played = call(server, "POST", f"{url}/play", move, tokens[1])
    assert status == 200, played
    return created["id"], datetime.fromisoformat(played["game"]["clock"]["deadline"])


def time_outs(server: Serving, game: str) -> list[dict]:
    status, page = call(server, "GET", f"/v1/games/{game}/events?limit=100")
    assert status == 200, page
    return [e for e in page["events"] if e["type"] == "TimedOut"]


def wait_for_time_out(server: Serving, game: str, until: float) -> list[dict]:
    while time.monotonic() < until:
        found = time_outs(server, game)
        if found:
            return found
        time.sleep(0.05)
    return time_outs(server, game)


def test_a_time_out_comes_within_two_seconds_while_an_instance_is_killed_and_restarted(tmp_path, environ,
                                                                                       servers):
    a = Serving(tmp_path, environ, "a")
    servers.append(a)
    servers.append(b := Serving(tmp_path, environ, "b"))
    game, deadline = clocked_game(a)
    time.sleep(max(0.0, deadline.timestamp() - time.time() - 0.5))
    kill(a)  # half a second before the deadline
    servers.append(Serving(tmp_path, environ, "a-again"))  # restarted around the deadline
    found = wait_for_time_out(b, game, time.monotonic() + 10)
    assert len(found) == 1
    lag = datetime.fromisoformat(found[0]["recorded_at"]).timestamp() - deadline.timestamp()
    assert 0 < lag <= LAG, lag
    status, view = call(b, "GET", f"/v1/games/{game}")
    assert (view["result"], view["winners"]) == ("timed_out", [1])


def test_a_restarted_service_acts_on_the_deadlines_that_passed_while_it_was_down(tmp_path, environ, servers):
    a = Serving(tmp_path, environ, "a")
    game, deadline = clocked_game(a)
    kill(a)
    time.sleep(max(0.0, deadline.timestamp() - time.time() + 0.5))  # down across the deadline
    again = Serving(tmp_path, environ, "a-again")
    servers.append(again)
    ready = time.time()
    found = wait_for_time_out(again, game, time.monotonic() + 10)
    assert len(found) == 1
    assert datetime.fromisoformat(found[0]["recorded_at"]).timestamp() - ready <= LAG
    # The log says the deadline was claimed late, and by how much.
    late = [line for line in map(json.loads, again.stderr.read_text().splitlines())
            if line.get("event") == "deadline_late" and line["game"] == game]
    assert len(late) == 1 and datetime.fromisoformat(late[0]["deadline"]) == deadline
    claimed = datetime.fromisoformat(found[0]["recorded_at"])
    assert abs(late[0]["late_seconds"] - (claimed - deadline).total_seconds()) < 0.01


def test_two_instances_append_each_time_out_once(tmp_path, environ, servers):
    a = Serving(tmp_path, environ, "a")
    servers.append(a)
    servers.append(b := Serving(tmp_path, environ, "b"))
    games = [clocked_game(a if i % 2 else b)[0] for i in range(12)]
    until = time.monotonic() + 15
    for game in games:
        assert len(wait_for_time_out(a, game, until)) == 1, game
    time.sleep(1.0)  # any second append would have come by now
    assert all(len(time_outs(b, game)) == 1 for game in games)

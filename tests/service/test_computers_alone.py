"""Computer seats act with nobody calling, on real ``casino serve``
processes: a game of four computers, created and then left alone, plays
its first hand to its end though the service is killed (every process of
it, at once) in the middle of the hand and started again. What the
computers do is claimed as a time-out is (docs/design.md, "Computer
players"): the restarted service finds the game awaiting a computer where
the killed one left it, and no command is appended twice."""

from __future__ import annotations

import time

import psycopg

from tests.conftest import OPERATOR_TOKEN
from tests.service.serving import Serving
from tests.service.test_deadline_faults import environ, kill, servers  # noqa: F401 - fixtures
from tests.service.test_two_instances import call

#: Seconds a hand of four computers may take, each command claimed after the one before.
HAND_SECONDS = 60.0


def _stored(database_url: str, game: str) -> list[tuple[int, str, str]]:
    """The game's events as stored (version, type, actor), read from the database itself."""
    with psycopg.connect(database_url) as conn:
        return conn.execute("SELECT version, type, metadata ->> 'actor' FROM events WHERE game_id = %s"
                            " ORDER BY version", (game,)).fetchall()


def _wait(server: Serving, game: str, until, seconds: float) -> dict:
    """The game's view once ``until(view)`` holds, asked for again and again, for ``seconds`` at most."""
    give_up = time.monotonic() + seconds
    while True:
        status, view = call(server, "GET", f"/v1/games/{game}")
        assert status == 200, view
        if until(view):
            return view
        assert time.monotonic() < give_up, f"not so in {seconds} s: {view['status']} at {view['version']}"
        time.sleep(0.05)


def test_four_computers_play_a_hand_to_its_end_across_a_restart_with_nobody_calling(tmp_path, environ, servers,
                                                                                    database_url):
    first = Serving(tmp_path, environ, "first")
    status, created = call(first, "POST", "/v1/games", {
        "seats": [{"name": f"Computer {n}", "computer": True} for n in range(4)], "first_dealer": 0,
        "options": {"target": None, "count_out": False}})  # over after one hand
    assert status == 201, created
    game = created["id"]
    # The computers deal and play on their own; the service dies once the hand is under way.
    _wait(first, game, lambda view: view["status"] == "in_progress" and view["version"] > 6, HAND_SECONDS)
    kill(first)
    before = _stored(database_url, game)
    assert not any(kind == "HandEnded" for _, kind, _ in before), "the hand ended before the restart"

    again = Serving(tmp_path, environ, "again")
    servers.append(again)
    view = _wait(again, game, lambda view: view["status"] == "finished", HAND_SECONDS)
    assert view["hand_number"] == 1 and view["result"] in ("single_hand", "draw")
    assert (view["winner"] is None) == (view["result"] == "draw")  # four computers' points may tie

    after = _stored(database_url, game)
    assert after[:len(before)] == before and len(after) > len(before)  # played on from where it was left
    assert [kind for _, kind, _ in after].count("HandEnded") == 1
    assert [version for version, _, _ in after] == list(range(1, len(after) + 1))
    assert {actor for _, _, actor in after} <= {"public", "service", *(f"computer:{n}" for n in range(4))}
    status, verified = call(again, "GET", f"/v1/games/{game}/verify", token=OPERATOR_TOKEN)
    assert status == 200 and verified["ok"], verified

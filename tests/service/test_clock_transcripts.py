"""A game that ended by a time-out, exported and replayed into another
database: the same events, the same clock at every version, and it
verifies (the clocks are folded from the events' own times)."""

from __future__ import annotations

import time
import uuid
from datetime import datetime, timedelta

import migrations
from service.auth import OPERATOR
from service.cache import StateCache
from service.games import GameService
from service.ops.cli import main
from service.postgres.database import open_pool
from service.postgres.ratings import PostgresRatings
from service.postgres.store import PostgresEventStore
from service.views import game_view
from service.web.current import services
from tests.api.conftest import first_actions
from tests.service.test_operator_commands import content, stored


def test_a_timed_out_game_replays_with_its_clocks_as_they_stood(api, app, operator, database_url, scratch_url,
                                                                 tmp_path, monkeypatch):
    created = api.post("/v1/games", json={"seats": [{"name": "Ann"}, {"name": "Bob"}], "first_dealer": 1,
                                          "clock": {"initial_seconds": 3, "increment_seconds": 0}}).get_json()
    game_id, tokens = created["id"], [s["token"] for s in created["seats"]]
    first_actions(api, f"/v1/games/{game_id}", tokens, dealer=1)  # seat 1 deals, seat 0 plays: no time spent
    time.sleep(3.1)  # seat 1, to play, has 3 seconds in all
    assert services(app).keeper.tick() >= 1  # a shared database may hold other tests' due games
    path = tmp_path / "game.json"
    monkeypatch.setenv("DATABASE_URL", database_url)
    monkeypatch.setenv("CASINO_OPERATOR_TOKEN", operator)
    assert main(["export", game_id, "--output", str(path)]) == 0
    migrations.upgrade(scratch_url)
    monkeypatch.setenv("DATABASE_URL", scratch_url)
    assert main(["replay", str(path)]) == 0
    original, replayed = stored(database_url, game_id), stored(scratch_url, game_id)
    assert content(replayed) == content(original)
    assert [e.type for e in replayed][-3:] == ["kernel.TimedOut", "SeedRevealed", "GameFinished"]  # as stored
    with open_pool(scratch_url) as pool:
        state = GameService(PostgresEventStore(pool), StateCache()).load(uuid.UUID(game_id))
        view = game_view(state, OPERATOR, PostgresRatings(pool).of)
    assert view == api.get(f"/v1/games/{game_id}", token=operator).get_json()
    assert view["result"] == "timed_out" and view["clock"]["seats"][1]["remaining_ms"] == 0
    assert main(["verify", game_id]) == 0


def replayed(api, operator, body, database_url, scratch_url, tmp_path, monkeypatch):
    """Create a game with ``body``, export it, replay it into the scratch
    database: its state there, its kept deadline and its seats' tokens."""
    from service.postgres.deadlines import PostgresDeadlines

    game_id = api.post("/v1/games", json=body).get_json()["id"]
    path = tmp_path / f"{game_id}.json"
    monkeypatch.setenv("DATABASE_URL", database_url)
    monkeypatch.setenv("CASINO_OPERATOR_TOKEN", operator)
    assert main(["export", game_id, "--output", str(path)]) == 0
    migrations.upgrade(scratch_url)
    monkeypatch.setenv("DATABASE_URL", scratch_url)
    assert main(["replay", str(path)]) == 0
    with open_pool(scratch_url) as pool:
        state = GameService(PostgresEventStore(pool), StateCache()).load(uuid.UUID(game_id))
        view = game_view(state, OPERATOR, PostgresRatings(pool).of)
        due = PostgresDeadlines(pool).due_at(uuid.UUID(game_id))
        return view, due, PostgresEventStore(pool).seat_token_hashes(game_id)


def test_a_game_on_the_clock_replays_with_its_deadline_kept(api, operator, database_url, scratch_url, tmp_path,
                                                            monkeypatch):
    view, kept, _ = replayed(api, operator, {"seats": 2, "first_dealer": 1, "clock": {"per_move_seconds": 600}},
                             database_url, scratch_url, tmp_path, monkeypatch)
    assert view["clock"]["deadline"] is not None
    assert timedelta(0) <= kept - datetime.fromisoformat(view["clock"]["deadline"]) < timedelta(milliseconds=1)


def test_a_game_with_an_open_seat_replays_with_the_seat_open_and_tokenless(api, operator, database_url,
                                                                           scratch_url, tmp_path, monkeypatch):
    view, kept, tokens = replayed(api, operator, {"seats": [{"name": "Ann"}, {"open": True}, {"name": "Cy"}]},
                                  database_url, scratch_url, tmp_path, monkeypatch)
    assert [s["open"] for s in view["seats"]] == [False, True, False]
    assert sorted(tokens) == [0, 2] and kept is None

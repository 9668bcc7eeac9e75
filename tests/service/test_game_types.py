"""The service shows and projects a game through the game-type registry, so
a game it has no code for (Mass Cool Casino) is shown by that game's rules."""

from __future__ import annotations

import datetime
import uuid

from domain import masscool
from domain.cards import full_deck
from tests.domain.test_games import play_through

from service.auth import OPERATOR, PUBLIC, seat
from service.events import StoredEvent
from service.projection import expected_row, row_changes
from service.views import game_view, log_revealed, redact


def dealt_game():
    events = masscool.decide(None, masscool.CreateGame(("Ann", "Bob"), 0))
    state = masscool.fold(events)
    events += masscool.decide(state, masscool.Deal(full_deck()))
    return events, masscool.fold(events)


def test_a_mass_cool_casino_game_is_shown_by_its_own_views():
    events, state = dealt_game()
    def unrated(view):  # guests' seats: the service adds no rating to them
        return {**view, "seats": [{**s, "rating": None} for s in view["seats"]]}

    def no_ratings(players, variant):
        raise AssertionError("no player holds a seat: no rating is read")

    assert game_view(state, seat(1), no_ratings) == unrated(masscool.game_view(state, seat=1))
    assert game_view(state, PUBLIC, no_ratings) == unrated(masscool.game_view(state))
    assert game_view(state, OPERATOR, no_ratings) == unrated(masscool.game_view(state, operator=True))
    assert not log_revealed(state)
    drawn = masscool.to_json(next(e for e in events if type(e).__name__ == "HandsDrawn"))
    assert redact(drawn, seat(0))["data"]["hands"] == [drawn["data"]["hands"][0], None]
    assert redact(drawn, OPERATOR) == drawn


def stored_form(events) -> list[StoredEvent]:
    now = datetime.datetime.now(datetime.UTC)
    return [StoredEvent(i + 1, uuid.uuid4(), i + 1, j["type"], j["schema_version"], j["data"], {}, now, "", 2)
            for i, j in enumerate(map(masscool.to_json, events))]


def test_the_read_model_row_comes_from_the_games_summary():
    events, state = dealt_game()
    assert row_changes(state) == {"status": "betting", "version": state.version, "variant": "mass-cool-casino",
                                  "player_names": ["Ann", "Bob"]}
    row = expected_row(stored_form(events), state)
    assert row["winner"] is None and row["finished_at"] is None and row["status"] == "betting"


def test_a_finished_games_row_names_its_winners():
    played = play_through("mass-cool-casino", ("Ann", "Bob", "Cy"))
    events = [masscool.from_json(s) for s in played.stored]
    outcome = played.state.outcome
    winner = {"winners": list(outcome.winners), "result": outcome.reason,
              "seats": list(outcome.winners), "reason": outcome.reason}
    assert row_changes(played.state, played.state)["winner"] == winner
    row = expected_row(stored_form(events), played.state)
    assert row["winner"] == winner and row["status"] == "finished" and row["finished_at"] is not None

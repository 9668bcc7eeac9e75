"""Rematches over HTTP (API.md, "Ratings, pairing and rematches"): a seat
of a finished game offers, each other accepts, and one new game is made
with the same players and terms, the first deal moved on."""

from __future__ import annotations

import time
import uuid

import pytest

from service.auth import seat
from service.commands import AnswerRematch
from service.web.current import services
from tests.api.test_ratings import at_once, player, rated_game

pytestmark = pytest.mark.both_wirings


def finished_game(api, players, **extra) -> str:
    url = rated_game(api, players, clock={"initial_seconds": 300, "increment_seconds": 2}, **extra)
    assert api.post(f"{url}/deal", json={}, token=players[0][1]).status_code == 200
    assert api.post(f"{url}/resign", token=players[1][1]).status_code == 200
    return url


def rematch(api, url, token):
    return api.post(f"{url}/rematch", token=token)


def test_an_offer_and_an_acceptance_make_one_game_with_the_same_players_and_terms(api, wiring):
    ann, bob = player(api, "Ann"), player(api, "Bob")
    url = finished_game(api, [ann, bob], options={"target": 11})
    offered = rematch(api, url, bob[1])
    assert offered.status_code == 200, offered.get_json()
    assert offered.get_json()["game"]["rematch"] == {"offered_by": 1, "accepted": [1], "game_id": None}
    again = rematch(api, url, bob[1])  # the same seat again: nothing more
    assert again.status_code == 200 and again.get_json()["events"] == []
    accepted = rematch(api, url, ann[1]).get_json()
    shown = accepted["game"]["rematch"]
    assert shown["accepted"] == [1, 0] and shown["game_id"] is not None
    assert api.get(url).get_json()["rematch"] == shown
    old, new = api.get(url).get_json(), api.get(f"/v1/games/{shown['game_id']}").get_json()
    assert [(s["name"], s["open"]) for s in new["seats"]] == [("Ann", False), ("Bob", False)]
    assert (new["variant"], new["rated"], new["options"], new["clock"]["initial_seconds"]) == (
        old["variant"], True, old["options"], 300)
    assert new["dealer"] == 1 and old["status"] == "finished"
    types = [e["type"] for e in api.get(f"{url}/events").get_json()["events"]]
    assert types.count("RematchAnswered") == 2
    refused = rematch(api, url, ann[1])
    assert refused.status_code == 422 and refused.get_json()["rule"] == "rematch_exists"
    assert api.post(f"{url}/undo", token=ann[1]).get_json()["rule"] == "game_over"  # nothing past the end


def test_two_seats_accepting_at_once_make_one_game(api, wiring):
    from tests.api.conftest import Api

    players = [player(api, name) for name in ("Ann", "Bob", "Cy")]
    url = rated_game(api, players, variant="cassino", options={"target": 11})
    api.post(f"{url}/deal", json={}, token=players[0][1])
    api.post(f"{url}/resign", token=players[1][1])
    rematch(api, url, players[0][1])
    apis = [Api(api.app, api.app.test_client()) for _ in range(2)]
    answers = at_once(lambda: rematch(apis[0], url, players[1][1]), lambda: rematch(apis[1], url, players[2][1]))
    assert [a.status_code for a in answers] == [200, 200], [a.get_json() for a in answers]
    shown = api.get(url).get_json()["rematch"]
    assert sorted(shown["accepted"]) == [0, 1, 2] and shown["game_id"] is not None
    events = api.get(f"{url}/events").get_json()["events"]
    made = [e["data"]["game_id"] for e in events if e["type"] == "RematchAnswered" and e["data"]["game_id"]]
    assert made == [shown["game_id"]]
    assert [s["name"] for s in api.get(f"/v1/games/{made[0]}").get_json()["seats"]] == ["Ann", "Bob", "Cy"]


def test_an_unfinished_game_a_guests_game_and_a_non_seat_are_refused(api, wiring):
    ann, bob = player(api, "Ann"), player(api, "Bob")
    url = rated_game(api, [ann, bob])
    refused = rematch(api, url, ann[1])
    assert refused.status_code == 422 and refused.get_json()["rule"] == "game_not_over"
    assert "over" in refused.get_json()["detail"]
    assert rematch(api, url, None).status_code == 401
    outsider = player(api, "Cy")
    assert rematch(api, url, outsider[1]).status_code in (403, 422)
    game = api.create()
    api.post(f"{game.url}/resign", token=game.tokens[0])
    refused = rematch(api, game.url, game.tokens[1])
    assert refused.status_code == 422 and refused.get_json()["rule"] == "rematch_players_only"
    assert api.get(game.url).get_json()["rematch"] is None


def test_the_rematch_shows_no_hidden_card(api, wiring):
    ann, bob = player(api, "Ann"), player(api, "Bob")
    url = finished_game(api, [ann, bob])
    answered = rematch(api, url, ann[1]).get_json()
    (event,) = answered["events"]
    assert event["type"] == "RematchAnswered" and set(event["data"]) == {"seat", "game_id"}
    rematch(api, url, bob[1])
    new = api.get(url).get_json()["rematch"]["game_id"]
    public = [e for e in api.get(f"{url}/events").get_json()["events"] if e["type"] == "RematchAnswered"]
    assert [e["data"] for e in public] == [{"seat": 0, "game_id": None}, {"seat": 1, "game_id": new}]
    assert "hands" not in api.get(f"/v1/games/{new}").get_json()


def test_each_player_is_told_on_the_player_stream_that_the_rematch_has_begun(app_for, wiring):
    from tests.api.conftest import Api
    from tests.api.test_player_stream import STREAM_SETTINGS, Listener

    app = app_for(**STREAM_SETTINGS)
    api = Api(app, app.test_client())
    ann, bob = player(api, "Ann"), player(api, "Bob")
    url = finished_game(api, [ann, bob])
    listeners = [Listener(app.test_client(), who[1], "?timeout=2") for who in (ann, bob)]
    rematch(api, url, ann[1])
    rematch(api, url, bob[1])
    for listener in listeners:
        listener.join()
    new = api.get(url).get_json()["rematch"]["game_id"]
    for listener in listeners:
        started = [data for event, data in listener.received if event == "game_started"]
        assert started == [{"game": new, "version": started[0]["version"], "rematch_of": url.rsplit("/", 1)[1]}]


def test_a_rematch_whose_process_died_after_the_last_answer_is_made_by_another_with_nobody_calling(
        app_for, database_url):
    """The last answer appended, and its process gone before it made the new
    game: another process's time keeper makes it, from the deadline the
    answer's append left on the finished game (service.rematches)."""
    from tests.api.conftest import Api

    dying, other = app_for(), app_for()
    api = Api(other, other.test_client())
    ann, bob = player(api, "Ann"), player(api, "Bob")
    url = finished_game(api, [ann, bob])
    assert rematch(api, url, bob[1]).status_code == 200
    completed = services(dying).games.execute(AnswerRematch(
        game_id=uuid.UUID(url.rsplit("/", 1)[1]), caller=seat(0, uuid.UUID(ann[0])), new_game=uuid.uuid4()))
    new = f"/v1/games/{completed.state.rematch.game_id}"
    assert api.get(new).status_code == 404

    keeper, until = services(other).keeper, time.monotonic() + 10
    while api.get(new).status_code == 404 and time.monotonic() < until:
        keeper.tick()
        time.sleep(0.05)

    made = api.get(new).get_json()
    assert [(s["name"], s["rating"]["games"]) for s in made["seats"]] == [("Ann", 1), ("Bob", 1)]
    assert made["rated"] is True and made["dealer"] == 1
    assert api.get(url).get_json()["rematch"]["game_id"] == new.rsplit("/", 1)[1]

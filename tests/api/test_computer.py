"""Computer seats: created with the game, played by the service through the
same commands as a person, and named as such in the log."""

from __future__ import annotations

import pytest

from tests.api.conftest import Game


# On both wirings: the HTTP API on PostgreSQL as well as in memory.
pytestmark = pytest.mark.both_wirings


def create(api, seats, options=None, first_dealer=0) -> Game:
    response = api.post("/v1/games", json={"seats": seats, "options": options or {}, "first_dealer": first_dealer})
    assert response.status_code == 201, response.get_json()
    body = response.get_json()
    return Game(body["id"], [s["token"] for s in body["seats"]], body)


ANN_AND_COMPUTER = [{"name": "Ann"}, {"name": "Computer", "computer": True}]


# -- in a game ------------------------------------------------------------

def test_a_computer_seat_has_no_token_and_deals_at_once_when_it_is_the_dealer(api, operator):
    game = create(api, ANN_AND_COMPUTER, first_dealer=1)
    seats = game.created["seats"]
    assert [s["computer"] for s in seats] == [False, True]
    assert seats[0]["token"] and seats[1]["token"] is None
    view = api.view(game, token=game.tokens[0])
    assert view["status"] == "in_progress" and view["hand_number"] == 1
    events = api.events(game)
    assert events[0]["metadata"]["computer_seats"] == [1]
    dealt = [e for e in events if e["type"] == "HandDealt"]
    assert dealt[0]["metadata"]["actor"] == "computer:1"


def test_the_computer_answers_a_persons_play_with_its_own(api, operator):
    game = create(api, ANN_AND_COMPUTER, first_dealer=0)
    assert api.view(game)["status"] == "waiting"  # Ann deals: the computer waits
    api.deal(game, token=game.tokens[0])
    view = api.view(game, token=game.tokens[0])
    assert view["turn"] == 0 and view["seats"][1]["hand_count"] == 3  # the computer has played first
    move = api.get(f"{game.url}/moves", token=game.tokens[0]).get_json()["moves"][0]
    assert api.post(f"{game.url}/play", json=move, token=game.tokens[0]).status_code == 200
    after = api.view(game, token=game.tokens[0])
    assert after["turn"] == 0 and after["seats"][1]["hand_count"] == 2
    plays = [e for e in api.events(game) if e["type"] in ("CardTrailed", "CardsCaptured", "BuildMade")]
    actors = [e["metadata"]["actor"] for e in plays]
    assert actors == ["computer:1", "seat:0", "computer:1"]


def test_a_person_and_the_computer_finish_a_game(api, operator):
    game = create(api, ANN_AND_COMPUTER, options={"target": 1}, first_dealer=0)
    for _ in range(200):
        view = api.view(game, token=game.tokens[0])
        if view["status"] == "finished":
            break
        if view["status"] in ("waiting", "hand_over"):
            answer = api.post(f"{game.url}/deal", json={}, token=game.tokens[0])
        else:
            assert view["turn"] == 0
            move = api.get(f"{game.url}/moves", token=game.tokens[0]).get_json()["moves"][-1]
            answer = api.post(f"{game.url}/play", json=move, token=game.tokens[0])
        assert answer.status_code == 200, answer.get_json()
    assert view["status"] == "finished"
    verified = api.get(f"{game.url}/verify", token=operator).get_json()
    assert verified["ok"], verified


def test_the_computer_agrees_to_take_a_play_back(api, operator):
    game = create(api, [{"name": "Ann"}, {"name": "Bob"}, {"name": "Computer", "computer": True}],
                  first_dealer=2)
    assert api.view(game)["turn"] == 0
    move = api.get(f"{game.url}/moves", token=game.tokens[0]).get_json()["moves"][0]
    api.post(f"{game.url}/play", json=move, token=game.tokens[0])
    assert api.post(f"{game.url}/undo", json={}, token=game.tokens[0]).status_code == 200
    answered = [e for e in api.events(game) if e["type"] == "UndoAnswered"]
    assert [(e["data"]["seat"], e["metadata"]["actor"]) for e in answered] == [(2, "computer:2")]
    assert api.view(game)["undo_request"] == {"seat": 0, "accepted": [2]}


def test_every_seat_a_computer_is_refused(api):
    response = api.post("/v1/games", json={"seats": [{"name": "A", "computer": True},
                                                     {"name": "B", "computer": True}]})
    assert response.status_code == 400
    assert "person" in response.get_json()["errors"][0]["message"]

"""Computer seats: created with the game, played by the service through the
same commands as a person, and named as such in the log."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from tests.api.conftest import COMPUTER_TURNS_ON_CITUS, Game


# On both wirings: the HTTP API on PostgreSQL as well as in memory.
pytestmark = [pytest.mark.both_wirings, pytest.mark.not_on_citus(COMPUTER_TURNS_ON_CITUS)]


def create(api, seats, options=None, first_dealer=0) -> Game:
    response = api.post("/v1/games", json={"seats": seats, "options": options or {}, "first_dealer": first_dealer})
    assert response.status_code == 201, response.get_json()
    body = response.get_json()
    return Game(body["id"], [s["token"] for s in body["seats"]], body)


ANN_AND_COMPUTER = [{"name": "Ann"}, {"name": "Computer", "computer": True}]


def awaits(seat: int) -> Callable[[dict], bool]:
    """Whether a view shows the game waiting for ``seat`` (or over)."""
    return lambda view: view["status"] == "finished" or seat in (view.get("awaiting") or {}).get("seats", [])


# -- in a game ------------------------------------------------------------

def test_a_computer_seat_has_no_token_and_deals_at_once_when_it_is_the_dealer(api, operator):
    game = create(api, ANN_AND_COMPUTER, first_dealer=1)
    seats = game.created["seats"]
    assert [s["computer"] for s in seats] == [False, True]
    assert seats[0]["token"] and seats[1]["token"] is None
    assert game.created["game"]["status"] == "waiting"  # the game as created: the computer deals after it
    view = api.wait_view(game, lambda v: v["status"] == "in_progress", token=game.tokens[0])
    assert view["hand_number"] == 1
    events = api.events(game)
    assert events[0]["metadata"]["computer_seats"] == [1]
    dealt = [e for e in events if e["type"] == "HandDealt"]
    assert dealt[0]["metadata"]["actor"] == "computer:1"


def test_the_computer_answers_a_persons_play_with_its_own(api, operator):
    game = create(api, ANN_AND_COMPUTER, first_dealer=0)
    assert api.view(game)["status"] == "waiting"  # Ann deals: the computer waits
    dealt = api.deal(game, token=game.tokens[0])
    assert dealt.get_json()["game"]["turn"] == 1  # the answer is the deal's: the computer plays after it
    view = api.wait_view(game, awaits(0), token=game.tokens[0])
    assert view["turn"] == 0 and view["seats"][1]["hand_count"] == 3  # the computer has played first
    move = api.get(f"{game.url}/moves", token=game.tokens[0]).get_json()["moves"][0]
    played = api.post(f"{game.url}/play", json=move, token=game.tokens[0])
    assert played.status_code == 200 and played.get_json()["game"]["turn"] == 1
    after = api.wait_view(game, awaits(0), token=game.tokens[0])
    assert after["turn"] == 0 and after["seats"][1]["hand_count"] == 2
    plays = [e for e in api.events(game) if e["type"] in ("CardTrailed", "CardsCaptured", "BuildMade")]
    actors = [e["metadata"]["actor"] for e in plays]
    assert actors == ["computer:1", "seat:0", "computer:1"]


def test_a_person_and_the_computer_finish_a_game(api, operator):
    game = create(api, ANN_AND_COMPUTER, options={"target": 1}, first_dealer=0)
    # The computer may count out at any moment, Ann's turn or not (as soon
    # as its side has made sure of the target): then Ann finds no move, or
    # her command is refused as the game is over.
    for _ in range(200):
        view = api.wait_view(game, awaits(0), token=game.tokens[0])
        if view["status"] == "finished":
            break
        if view["status"] in ("waiting", "hand_over"):
            answer = api.post(f"{game.url}/deal", json={}, token=game.tokens[0])
        else:
            assert view["turn"] == 0
            moves = api.get(f"{game.url}/moves", token=game.tokens[0]).get_json()["moves"]
            if not moves:
                continue
            answer = api.post(f"{game.url}/play", json=moves[-1], token=game.tokens[0])
        over = answer.status_code == 422 and api.view(game)["status"] == "finished"
        assert answer.status_code == 200 or over, answer.get_json()
    assert view["status"] == "finished"
    verified = api.get(f"{game.url}/verify", token=operator).get_json()
    assert verified["ok"], verified


def test_the_computer_agrees_to_take_a_play_back(api, operator):
    game = create(api, [{"name": "Ann"}, {"name": "Bob"}, {"name": "Computer", "computer": True}],
                  first_dealer=2)
    assert api.wait_view(game, awaits(0))["turn"] == 0
    move = api.get(f"{game.url}/moves", token=game.tokens[0]).get_json()["moves"][0]
    api.post(f"{game.url}/play", json=move, token=game.tokens[0])
    assert api.post(f"{game.url}/undo", json={}, token=game.tokens[0]).status_code == 200
    view = api.wait_view(game, lambda v: v["undo_request"] is not None and v["undo_request"]["accepted"])
    assert view["undo_request"] == {"seat": 0, "accepted": [2]}
    answered = [e for e in api.events(game) if e["type"] == "UndoAnswered"]
    assert [(e["data"]["seat"], e["metadata"]["actor"]) for e in answered] == [(2, "computer:2")]


def test_a_game_of_computers_alone_plays_to_its_end_with_nobody_calling(api, operator):
    """Nobody acts in a game of computers after its creation: it plays on,
    each computer's command after the one before, to its end."""
    game = create(api, [{"name": f"Computer {n}", "computer": True} for n in range(2)], options={"target": 1})
    assert game.created["game"]["status"] == "waiting"
    view = api.wait_view(game, lambda v: v["status"] == "finished", timeout=30)
    assert view["winner"] is not None
    actors = {e["metadata"]["actor"] for e in api.events(game)}
    assert actors <= {"public", "computer:0", "computer:1", "service"}
    verified = api.get(f"{game.url}/verify", token=operator).get_json()
    assert verified["ok"], verified

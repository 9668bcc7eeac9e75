"""Who won, in every listing alike: the operator's list (``GET /v1/games``)
and a player's (``GET /v1/players/me/games``) name a finished game's winning
seats (``winners``) and how it ended (``result``) in the same fields in every
game type, as the game's view does; the fields the operator's list gave
before (Cassino's ``team``, Mass Cool Casino's ``seats``, and ``reason``)
stay beside them, deprecated. Every answer is checked against the spec."""

from __future__ import annotations

import secrets
import time

import pytest

from service.web.current import services
from tests.api.masscool import HttpTable, deck_codes
from tests.api.test_join import join, open_game, player

from .conftest import DEADLINES_ON_CITUS, ONE_HAND, first_actions

pytestmark = pytest.mark.both_wirings


@pytest.fixture
def name() -> str:
    return f"Won-{secrets.token_hex(4)}"


def listed(api, operator, name: str, game_id: str) -> dict:
    """The operator's listing of the game, found by the seat name the test gave it."""
    answer = api.get(f"/v1/games?player={name}", token=operator)
    assert answer.status_code == 200, answer.get_json()
    [game] = [g for g in answer.get_json()["games"] if g["id"] == game_id]
    return game


def assert_listed_as_viewed(api, operator, name: str, url: str) -> dict:
    """The game's listed outcome says what its view says, in the same words; returns it."""
    view = api.get(url).get_json()
    assert view["status"] == "finished"
    outcome = listed(api, operator, name, url.rsplit("/", 1)[-1])["outcome"]
    assert (outcome["winners"], outcome["result"]) == (view["winners"], view["result"])
    assert outcome["reason"] == outcome["result"]  # deprecated: the same, as before
    return outcome


def test_a_cassino_game_played_out_is_listed_with_its_winning_seats(api, operator, name):
    game = api.create(first_name=name, options=ONE_HAND)
    api.play(game, seed=3)
    outcome = assert_listed_as_viewed(api, operator, name, game.url)
    view = api.view(game)
    assert outcome["result"] in ("single_hand", "draw") and outcome["team"] == view["winner"]
    assert outcome["winners"] == ([] if view["winner"] is None else [view["winner"]])


def test_a_partnership_game_lists_both_seats_of_the_winning_side(api, operator, name):
    game = api.create(first_name=name, variant="partnership", players=4)
    assert api.post(f"{game.url}/resign", token=game.tokens[1]).status_code == 200
    outcome = assert_listed_as_viewed(api, operator, name, game.url)
    assert outcome == {"winners": [0, 2], "result": "resigned", "team": 0, "reason": "resigned"}


def test_a_mass_cool_casino_game_played_out_is_listed_in_the_same_fields(api, operator, name):
    over = HttpTable(api, 2, deck_codes(2, 0, 25, stock="KD QD"), options={"money": 25}, first_name=name)
    over.one_card_each()
    outcome = assert_listed_as_viewed(api, operator, name, over.url)
    assert outcome["result"] == "deck_out" and outcome["winners"] and outcome["seats"] == outcome["winners"]


@pytest.mark.parametrize("variant", ["cassino", "mass-cool-casino"])
def test_a_resigned_game_is_listed_with_the_other_seats_as_winners(api, operator, name, variant):
    game = api.create(first_name=name, variant=variant, players=3 if variant == "mass-cool-casino" else 2)
    assert api.post(f"{game.url}/resign", token=game.tokens[0]).status_code == 200
    outcome = assert_listed_as_viewed(api, operator, name, game.url)
    assert outcome["result"] == "resigned" and outcome["winners"] == ([1, 2] if variant != "cassino" else [1])


@pytest.mark.parametrize("variant", ["cassino", "mass-cool-casino"])
def test_an_aborted_game_is_listed_with_no_winners(api, operator, name, variant):
    game = api.create(first_name=name, variant=variant)
    assert api.post(f"{game.url}/abort", json={}, token=game.tokens[1]).status_code == 200
    outcome = assert_listed_as_viewed(api, operator, name, game.url)
    assert (outcome["winners"], outcome["result"]) == ([], "aborted")


@pytest.mark.not_on_citus(DEADLINES_ON_CITUS)
def test_a_timed_out_game_is_listed_with_the_other_side_as_winner(api, app, operator, name):
    created = api.post("/v1/games", json={"seats": [{"name": name}, {"name": "Bob"}], "first_dealer": 0,
                                          "clock": {"per_move_seconds": 1}})
    assert created.status_code == 201, created.get_json()
    url = f"/v1/games/{created.get_json()['id']}"
    first_actions(api, url, [s["token"] for s in created.get_json()["seats"]])  # then seat 0 has 1 s
    time.sleep(1.1)
    assert services(app).keeper.tick() >= 1  # a shared database may hold other tests' due games
    outcome = assert_listed_as_viewed(api, operator, name, url)
    assert (outcome["winners"], outcome["result"], outcome["team"]) == ([1], "timed_out", 1)


@pytest.mark.parametrize("variant", ["cassino", "mass-cool-casino"])
def test_a_players_list_names_the_outcome_as_the_view_does(api, variant):
    ann = player(api)
    game = open_game(api, variant, seats=("Host", None))
    assert join(api, game, ann["token"]).status_code == 200
    [playing] = api.get("/v1/players/me/games", token=ann["token"]).get_json()["games"]
    assert playing["outcome"] is None

    assert api.post(f"{game.url}/resign", token=ann["token"]).status_code == 200
    [over] = api.get("/v1/players/me/games", token=ann["token"]).get_json()["games"]
    view = api.view(game)
    assert over["outcome"] == {"winners": view["winners"], "result": view["result"]} == {
        "winners": [0], "result": "resigned"}

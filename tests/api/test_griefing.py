"""The lobby against griefing (issue 33): a creator may take players only;
one client address registers players, joins games as a guest and calls
games off as a guest only so often (``service.rates``), 429 beyond."""

from __future__ import annotations

import pytest

from service.rates import Allowance

from .test_join import join, open_game


@pytest.fixture
def app(app_for):
    return app_for(REGISTRATIONS_PER_ADDRESS=3, GUEST_JOINS_PER_ADDRESS=2, GUEST_ABORTS_PER_ADDRESS=1)


ELSEWHERE = {"environ_base": {"REMOTE_ADDR": "192.0.2.7"}}


def too_many(answer) -> int:
    """The seconds a refused client is told to wait."""
    problem = answer.get_json()
    assert answer.status_code == 429 and problem["code"] == "too_many_requests", problem
    assert "Your address may" in problem["detail"]
    return int(answer.headers["Retry-After"])


def test_a_game_created_for_players_only_refuses_guests_and_takes_players(api):
    game = open_game(api, guests=False)
    guest = join(api, game, body={"name": "Mallory"})
    assert guest.status_code == 401 and "Only players may join" in guest.get_json()["detail"]
    ann = api.post("/v1/players", json={"name": "Ann"}).get_json()
    assert join(api, game, ann["token"]).status_code == 200
    assert [s["name"] for s in api.view(game)["seats"]] == ["Host", "Ann", None]
    assert join(api, open_game(api), body={"name": "Bob"}).status_code == 200  # by default guests are welcome


def test_one_address_registers_so_many_players_and_another_address_is_not_held_back(api):
    for n in range(3):
        assert api.post("/v1/players", json={"name": f"P{n}"}).status_code == 201
    assert 0 < too_many(api.post("/v1/players", json={"name": "P3"})) <= 600
    assert api.post("/v1/players", json={"name": "P3"}, **ELSEWHERE).status_code == 201


def test_one_address_fills_so_many_seats_as_a_guest_and_a_player_is_not_held_back(api):
    game = open_game(api, seats=("Host", None, None, None))
    assert [join(api, game, body={"name": f"G{n}"}).status_code for n in range(2)] == [200, 200]
    too_many(join(api, game, body={"name": "G2"}))
    ann = api.post("/v1/players", json={"name": "Ann"}).get_json()
    assert join(api, game, ann["token"]).status_code == 200
    assert [s["name"] for s in api.view(game)["seats"]] == ["Host", "G0", "G1", "Ann"]


def test_one_address_calls_so_many_games_off_as_a_guest(api):
    first, second = open_game(api, seats=("Host", None)), open_game(api, seats=("Host", None))
    guests = [join(api, game, body={"name": "Gus"}).get_json()["token"] for game in (first, second)]
    assert api.post(f"{first.url}/abort", token=guests[0]).status_code == 200
    too_many(api.post(f"{second.url}/abort", token=guests[1]))
    assert api.view(second)["status"] != "finished"
    ann = api.post("/v1/players", json={"name": "Ann"}).get_json()
    third = open_game(api, seats=("Host", None))
    join(api, third, ann["token"])
    assert api.post(f"{third.url}/abort", token=ann["token"]).status_code == 200  # a player's is not limited


def test_an_allowance_is_so_many_in_any_window():
    now = [0.0]
    allowance = Allowance(2, 60, keys=2, clock=lambda: now[0])
    assert [allowance.take("a"), allowance.take("a")] == [0, 0]
    now[0] = 10
    assert allowance.take("a") == 50  # room again once the first is a minute old
    now[0] = 60  # both of the first minute's are a minute old
    assert [allowance.take("a"), allowance.take("a"), allowance.take("a")] == [0, 0, 60]
    assert allowance.take("b") == 0 and allowance.take("c") == 0  # "a" is forgotten past two addresses
    assert allowance.take("a") == 0

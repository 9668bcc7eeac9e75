"""Creating a game with open seats (docs/rules.md, "Open seats, joining and
leaving"): the answer, the view and the refusal to deal, over HTTP, in both
game types."""

from __future__ import annotations

import pytest

from tests.conftest import OPERATOR_TOKEN


@pytest.mark.parametrize("variant", ["cassino", "mass-cool-casino"])
def test_open_seats_have_no_token_show_open_and_keep_the_game_waiting(api, variant):
    created = api.post("/v1/games", json={"variant": variant, "seats": [{"name": "Ann"}, {"open": True}],
                                          "first_dealer": 0})
    assert created.status_code == 201, created.get_json()
    answer = created.get_json()
    assert [(s["name"], s["open"], s["token"] is None) for s in answer["seats"]] == [("Ann", False, False),
                                                                                    (None, True, True)]
    url = f"/v1/games/{answer['id']}"
    view = api.get(url).get_json()
    assert view["status"] == "waiting" and view["awaiting"] == {"command": "join", "seats": [1]}
    assert [(s["name"], s["open"]) for s in view["seats"]] == [("Ann", False), (None, True)]
    assert view["clock"] is None
    for token, body in ((answer["seats"][0]["token"], {}), (OPERATOR_TOKEN, {})):
        refused = api.post(f"{url}/deal", json=body, token=token)
        assert refused.status_code == 422 and refused.get_json()["rule"] == "seats_open", refused.get_json()
    assert api.get(url).get_json()["version"] == view["version"]  # nothing was appended


@pytest.mark.parametrize("seat", [{"open": False}, {"open": True, "name": "Ann"}, {"open": True, "computer": True},
                                  {"open": "yes"}])
def test_an_open_seat_is_exactly_open_true(api, seat):
    response = api.post("/v1/games", json={"seats": [{"name": "Ann"}, seat]})
    assert response.status_code == 400 and response.get_json()["code"] == "malformed"

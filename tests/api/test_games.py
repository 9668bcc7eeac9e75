"""Creating games and seeing them, as each kind of caller."""

import pytest

from .conftest import ORDERED_DECK


# On both wirings: the HTTP API on PostgreSQL as well as in memory.
pytestmark = pytest.mark.both_wirings


def test_creating_a_game_answers_201_with_its_location_version_and_one_token_per_seat(api):
    game = api.create(players=3)
    created = game.created
    assert created["version"] == 2 and created["game"]["status"] == "waiting"  # created, shuffle committed
    assert [s["seat"] for s in created["seats"]] == [0, 1, 2]
    assert len(set(game.tokens)) == 3 and all(len(t) >= 32 for t in game.tokens)
    response = api.get(game.url)
    assert response.headers["ETag"] == '"2"'


def test_location_points_at_the_game(api):
    response = api.post("/v1/games", json={"seats": 2})
    assert response.status_code == 201
    assert response.headers["Location"].endswith(f"/v1/games/{response.get_json()['id']}")
    assert api.get(response.headers["Location"]).status_code == 200


def test_seats_may_be_given_as_a_count_and_the_first_dealer_is_drawn(api):
    response = api.post("/v1/games", json={"seats": 4, "variant": "partnership"})
    game = response.get_json()["game"]
    assert [s["team"] for s in game["seats"]] == [0, 1, 0, 1]
    assert 0 <= game["dealer"] < 4


def test_a_seat_sees_its_own_hand_the_public_none_and_the_operator_all(api, operator):
    game = api.create(first_dealer=1)
    api.deal(game, ORDERED_DECK)
    seat0 = api.view(game, game.tokens[0])
    assert seat0["hand"] == ["AS", "2S", "7S", "8S"] and seat0["you"] == 0
    assert "hands" not in seat0 and "stock" not in seat0
    public = api.view(game)
    assert "hand" not in public and "hands" not in public
    assert [it["card"] for it in public["table"]] == ["3S", "4S", "9S", "10S"]
    everything = api.view(game, operator)
    assert everything["hands"][1] == ["5S", "6S", "JS", "QS"]
    assert everything["stock"][0] == "KS" and len(everything["stock"]) == 40


def test_the_variants_list_every_preset_with_resolved_options(api):
    variants = {v["name"]: v for v in api.get("/v1/variants").get_json()["variants"]}
    assert variants["partnership"]["options"]["teams"] is True
    assert variants["cassino"]["players"] == [2, 3, 4]
    assert variants["cassino"]["options"]["owner_duty"] == "no_trail"


def test_an_unknown_game_is_404(api):
    response = api.get("/v1/games/00000000-0000-0000-0000-000000000000")
    assert response.status_code == 404 and response.get_json()["code"] == "not_found"


def test_a_token_of_another_game_is_refused(api):
    one, other = api.create(), api.create()
    response = api.get(one.url, token=other.tokens[0])
    assert response.status_code == 401 and response.get_json()["code"] == "unauthenticated"


def test_legal_moves_are_listed_for_the_seat_to_play_and_each_is_accepted(api):
    game = api.create(first_dealer=1)
    api.deal(game, ORDERED_DECK)
    listed = api.get(f"{game.url}/moves", token=game.tokens[0]).get_json()
    assert listed["moves"] and listed["truncated"] is False
    assert api.get(f"{game.url}/moves", token=game.tokens[1]).get_json()["moves"] == []
    capture = next(m for m in listed["moves"] if m["action"] == "capture")
    assert api.post(f"{game.url}/play", json=capture, token=game.tokens[0]).status_code == 200


def test_moves_need_a_seat_token(api, operator):
    game = api.create()
    assert api.get(f"{game.url}/moves").status_code == 401
    assert api.get(f"{game.url}/moves", token=operator).status_code == 403


def test_names_with_quotes_backslashes_and_braces_are_kept_as_given(api, operator):
    """Every write binds its arguments in the client (see service.postgres.store):
    names that quoting gets wrong come back changed, or break the write."""
    names = ["O'Brien \"Bo\"", "a\\b {c,d} é 😀"]
    created = api.post("/v1/games", json={"seats": [{"name": n} for n in names], "first_dealer": 0})
    assert created.status_code == 201
    game_id = created.get_json()["id"]
    assert [s["name"] for s in api.get(f"/v1/games/{game_id}").get_json()["seats"]] == names
    listed = api.get("/v1/games?player=" + "O'Brien \"Bo\"", token=operator).get_json()
    assert game_id in [g["id"] for g in listed["games"]]

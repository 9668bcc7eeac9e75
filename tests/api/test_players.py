"""Players: registering, player tokens and what they may do, idempotent
registrations. (Joining games, and a player's games, are in test_join.py.)"""

from __future__ import annotations

import uuid

import pytest

from service.auth import PLAYER_TOKEN_PREFIX, hash_token
from service.memory import wiring as memory_wiring
from service.web.app import close_app, create_app
from service.web.current import services
from tests.api.conftest import Api
from tests.conftest import OPERATOR_TOKEN, TEST_SETTINGS


def register(api, name="Ann", headers=None) -> dict:
    answer = api.post("/v1/players", json={"name": name}, headers=headers)
    assert answer.status_code == 201, answer.get_json()
    return answer.get_json()


def test_a_player_is_registered_with_a_token_shown_once_and_kept_only_as_its_hash(api, app):
    ann = register(api)

    assert ann["name"] == "Ann" and uuid.UUID(ann["id"])
    assert ann["token"].startswith(PLAYER_TOKEN_PREFIX)
    players = services(app).adapters.players
    assert players.player_for_token(hash_token(ann["token"])) == uuid.UUID(ann["id"])
    assert players.token_hash_of(uuid.UUID(ann["id"])) == hash_token(ann["token"])
    assert register(api)["token"] != ann["token"]  # another player of the same name


@pytest.mark.parametrize("body", [{}, {"name": ""}, {"name": "x" * 41}, {"name": 7}, {"name": "Ann", "seat": 1}])
def test_a_registration_without_a_good_name_is_malformed_and_registers_no_one(api, body):
    answer = api.post("/v1/players", json=body)
    assert answer.status_code == 400 and answer.get_json()["code"] == "malformed"


def test_a_player_token_names_the_player_and_lists_their_games(api):
    ann = register(api)

    mine = api.get("/v1/players/me/games", token=ann["token"])

    assert mine.status_code == 200 and mine.get_json() == {"games": [], "next": None}


@pytest.mark.parametrize("who, status, code", [
    (None, 401, "unauthenticated"),
    (OPERATOR_TOKEN, 403, "forbidden"),
    (PLAYER_TOKEN_PREFIX + "A" * 43, 401, "unauthenticated"),
    ("not-a-players-token-at-all-but-a-seats-000", 401, "unauthenticated"),
])
def test_only_a_player_lists_a_players_games(api, who, status, code):
    answer = api.get("/v1/players/me/games", token=who)
    assert answer.status_code == status and answer.get_json()["code"] == code


def test_a_seat_token_names_no_player(api):
    game = api.create()
    answer = api.get("/v1/players/me/games", token=game.tokens[0])
    assert answer.status_code == 401


def test_a_player_with_no_seat_in_a_game_sees_what_the_public_sees_and_acts_for_no_seat(api):
    ann, game = register(api), api.create()
    api.deal(game)

    assert api.view(game, token=ann["token"]) == api.view(game)
    for command, body in [("play", {"card": "AS", "action": "trail"}), ("deal", {}), ("count-out", {})]:
        refused = api.post(f"{game.url}/{command}", json=body, token=ann["token"])
        assert refused.status_code == 403 and refused.get_json()["code"] == "forbidden", command
    moves = api.get(f"{game.url}/moves", token=ann["token"])
    assert moves.status_code == 403


def test_a_registration_retried_under_its_key_gets_the_same_player_and_token(api):
    key = {"Idempotency-Key": str(uuid.uuid4())}
    first = register(api, headers=key)

    assert register(api, headers=key) == first
    assert api.get("/v1/players/me/games", token=first["token"]).status_code == 200
    other = api.post("/v1/players", json={"name": "Bob"}, headers=key)
    assert other.status_code == 422 and other.get_json()["code"] == "idempotency_key_reused"
    assert register(api, headers={"Idempotency-Key": str(uuid.uuid4())})["id"] != first["id"]


def test_a_registration_key_that_could_be_guessed_is_refused(api):
    answer = api.post("/v1/players", json={"name": "Ann"}, headers={"Idempotency-Key": "register-ann-0000000001"})
    assert answer.status_code == 422 and answer.get_json()["code"] == "idempotency_key_not_random"
    answer = api.post("/v1/players", json={"name": "Ann"}, headers={"Idempotency-Key": "a key"})
    assert answer.status_code == 400 and answer.get_json()["code"] == "malformed"


def test_a_registration_retried_after_the_operator_token_was_replaced_gets_no_token_that_does_not_work(
        api, app, app_for, wiring):
    key = {"Idempotency-Key": str(uuid.uuid4())}
    register(api, headers=key)
    if wiring == "postgres":
        other = app_for(OPERATOR_TOKEN="a replacement")  # another worker on the same database
        again = Api(other, other.test_client()).post("/v1/players", json={"name": "Ann"}, headers=key)
    else:
        tables = services(app).adapters.players.tables  # another app on the same tables
        other = create_app({**TEST_SETTINGS, "OPERATOR_TOKEN": "a replacement"},
                           wiring=lambda config, checkpoint_key: memory_wiring.adapters(config, checkpoint_key, tables))
        try:
            again = Api(other, other.test_client()).post("/v1/players", json={"name": "Ann"}, headers=key)
        finally:
            close_app(other)
    assert again.status_code == 409 and again.get_json()["code"] == "idempotency_key_stale"

"""Idempotency-Key: a retry gets the first answer and appends nothing."""

import uuid

import psycopg

from service.cache import StateCache
from service.games import TOKEN_TRUST_SECONDS, GameService
from service.tokens import hash_token

from .conftest import ORDERED_DECK


def test_a_retry_with_the_same_key_and_body_gets_the_first_answer(api, operator):
    game = api.create(first_dealer=1)
    api.deal(game, ORDERED_DECK)
    move = {"card": "AS", "action": "trail"}
    before = len(api.events(game, operator))
    first = api.post(f"{game.url}/play", json=move, token=game.tokens[0], headers={"Idempotency-Key": "k-1"})
    again = api.post(f"{game.url}/play", json=move, token=game.tokens[0], headers={"Idempotency-Key": "k-1"})
    assert first.status_code == again.status_code == 200
    assert first.get_json() == again.get_json()
    assert len(api.events(game, operator)) == before + 1


def test_the_same_key_with_another_body_is_refused(api, operator):
    game = api.create(first_dealer=1)
    api.deal(game, ORDERED_DECK)
    api.post(f"{game.url}/play", json={"card": "AS", "action": "trail"}, token=game.tokens[0],
             headers={"Idempotency-Key": "k-2"})
    before = len(api.events(game, operator))
    other = api.post(f"{game.url}/play", json={"card": "2S", "action": "trail"}, token=game.tokens[1],
                     headers={"Idempotency-Key": "k-2"})
    assert other.status_code == 422 and other.get_json()["code"] == "idempotency_key_reused"
    assert len(api.events(game, operator)) == before


def test_a_key_is_per_game(api):
    one, two = api.create(first_dealer=1), api.create(first_dealer=1)
    for game in (one, two):
        answer = api.deal(game, ORDERED_DECK)
        assert answer.status_code == 200
    for game in (one, two):
        answer = api.post(f"{game.url}/play", json={"card": "AS", "action": "trail"}, token=game.tokens[0],
                          headers={"Idempotency-Key": "same"})
        assert answer.status_code == 200


def test_creating_a_game_twice_with_one_key_makes_one_game_and_new_tokens(api, database_url):
    body = {"seats": [{"name": "Ann"}, {"name": "Bob"}]}
    first = api.post("/v1/games", json=body, headers={"Idempotency-Key": "create-1"})
    old_tokens = [s["token"] for s in first.get_json()["seats"]]
    url = first.headers["Location"]
    assert api.get(url, token=old_tokens[0]).status_code == 200  # in use, and remembered
    again = api.post("/v1/games", json=body, headers={"Idempotency-Key": "create-1"})
    assert first.status_code == again.status_code == 201
    new_tokens = [s["token"] for s in again.get_json()["seats"]]
    # The same game as first answered, but for the tokens, shown once each.
    strip = lambda answer: {**answer, "seats": [{**s, "token": None} for s in answer["seats"]]}  # noqa: E731
    assert strip(again.get_json()) == strip(first.get_json())
    assert set(new_tokens).isdisjoint(old_tokens)
    for old, new in zip(old_tokens, new_tokens, strict=True):
        assert api.get(url, token=old).status_code == 401
        assert api.get(url, token=new).status_code == 200
    with psycopg.connect(database_url) as conn:
        filed = conn.execute("SELECT response::text FROM idempotency WHERE key = 'create-1'").fetchone()[0]
    assert not any(token in filed for token in old_tokens + new_tokens)
    other = api.post("/v1/games", json={"seats": 3}, headers={"Idempotency-Key": "create-1"})
    assert other.status_code == 422 and other.get_json()["code"] == "idempotency_key_reused"


def test_a_retry_after_the_game_moved_on_gets_the_first_answer_as_the_caller_saw_it(api, operator):
    game = api.create(first_dealer=1)
    key = {"Idempotency-Key": "deal-1"}
    first = api.post(f"{game.url}/deal", json={"deck": ORDERED_DECK}, token=operator, headers=key)
    api.post(f"{game.url}/play", json={"card": "AS", "action": "trail"}, token=game.tokens[0])
    before = len(api.events(game, operator))
    again = api.post(f"{game.url}/deal", json={"deck": ORDERED_DECK}, token=operator, headers=key)
    assert first.status_code == again.status_code == 200
    # The deal's events and the view at its version, not the game as it is now.
    assert again.get_json() == first.get_json() and again.get_json()["version"] < before
    assert len(api.events(game, operator)) == before


def test_a_retry_that_the_rules_would_accept_again_still_appends_nothing(api, operator):
    game = api.create(first_dealer=1)
    key = {"Idempotency-Key": "seed-1"}
    first = api.post(f"{game.url}/client-seed", json={"seed": "abc"}, token=game.tokens[0], headers=key)
    before = len(api.events(game, operator))
    again = api.post(f"{game.url}/client-seed", json={"seed": "abc"}, token=game.tokens[0], headers=key)
    assert first.status_code == again.status_code == 200
    assert again.get_json() == first.get_json()
    assert len(api.events(game, operator)) == before


def test_another_worker_stops_trusting_a_replaced_token_within_a_minute(api, store):
    game = api.create(first_dealer=1)
    game_id = uuid.UUID(game.id)
    now = [0.0]
    worker = GameService(store, StateCache(), clock=lambda: now[0])  # another process's service
    old = hash_token(game.tokens[0])
    assert worker.seat_for_token(game_id, old) == 0  # seen in use there
    store.replace_seat_tokens(game_id, {0: hash_token("a-new-token"), 1: hash_token("another")})
    now[0] = 1.0
    assert worker.seat_for_token(game_id, old) == 0  # still trusted, briefly
    now[0] = TOKEN_TRUST_SECONDS + 1
    assert worker.seat_for_token(game_id, old) is None
    assert worker.seat_for_token(game_id, hash_token("a-new-token")) == 0


def test_a_retry_that_orders_the_bodys_keys_differently_is_still_a_retry(api):
    first = api.post("/v1/games", json={"seats": 2, "options": {"target": 11, "count_out": False}},
                     headers={"Idempotency-Key": "create-reordered"})
    again = api.post("/v1/games", json={"options": {"count_out": False, "target": 11}, "seats": 2},
                     headers={"Idempotency-Key": "create-reordered"})
    assert first.status_code == again.status_code == 201
    assert again.get_json()["id"] == first.get_json()["id"]
    other = api.post("/v1/games", json={"options": {"count_out": False, "target": 12}, "seats": 2},
                     headers={"Idempotency-Key": "create-reordered"})
    assert other.status_code == 422 and other.get_json()["code"] == "idempotency_key_reused"

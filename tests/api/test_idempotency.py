"""Idempotency-Key: a retry gets the first answer and appends nothing."""

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


def test_creating_a_game_twice_with_one_key_makes_one_game(api):
    body = {"seats": [{"name": "Ann"}, {"name": "Bob"}]}
    first = api.post("/v1/games", json=body, headers={"Idempotency-Key": "create-1"})
    again = api.post("/v1/games", json=body, headers={"Idempotency-Key": "create-1"})
    assert first.status_code == again.status_code == 201
    assert first.get_json() == again.get_json()
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

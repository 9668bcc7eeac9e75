"""Idempotency-Key: a retry gets the first answer and appends nothing.

Keys are the caller's own; a game's creation key is its creator's secret,
and a retry under it gets the same tokens, which are never replaced.
"""

import secrets
import uuid
from concurrent.futures import ThreadPoolExecutor

import psycopg
import pytest

from service.web.app import close_app, create_app
from service.auth import TOKEN_TRUST_SECONDS, Authenticator, hash_token

from tests.conftest import TEST_SETTINGS

from .conftest import ORDERED_DECK, Api


# On both wirings: the HTTP API on PostgreSQL as well as in memory.
pytestmark = pytest.mark.both_wirings


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
    api.post(f"{game.url}/client-seed", json={"seed": "one"}, token=game.tokens[0],
             headers={"Idempotency-Key": "k-2"})
    before = len(api.events(game, operator))
    other = api.post(f"{game.url}/client-seed", json={"seed": "two"}, token=game.tokens[0],
                     headers={"Idempotency-Key": "k-2"})
    assert other.status_code == 422 and other.get_json()["code"] == "idempotency_key_reused"
    assert len(api.events(game, operator)) == before


def test_a_key_is_the_callers_own_another_seat_using_it_is_not_refused(api, operator):
    game = api.create(first_dealer=1)
    api.deal(game, ORDERED_DECK)
    key = {"Idempotency-Key": "my-move"}
    first = api.post(f"{game.url}/play", json={"card": "AS", "action": "trail"}, token=game.tokens[0], headers=key)
    second = api.post(f"{game.url}/play", json={"card": "5S", "action": "trail"}, token=game.tokens[1], headers=key)
    assert first.status_code == second.status_code == 200
    assert second.get_json()["version"] == first.get_json()["version"] + 1
    # The operator's key is its own too: the same key deals nothing twice, and refuses nothing of the seats'.
    assert api.post(f"{game.url}/undo", token=operator, headers=key).status_code == 200


def test_a_key_is_per_game(api):
    one, two = api.create(first_dealer=1), api.create(first_dealer=1)
    for game in (one, two):
        answer = api.deal(game, ORDERED_DECK)
        assert answer.status_code == 200
    for game in (one, two):
        answer = api.post(f"{game.url}/play", json={"card": "AS", "action": "trail"}, token=game.tokens[0],
                          headers={"Idempotency-Key": "same"})
        assert answer.status_code == 200


def test_creating_a_game_twice_with_one_key_makes_one_game_with_the_same_working_tokens(api, database_url):
    body = {"seats": [{"name": "Ann"}, {"name": "Bob"}]}
    key = {"Idempotency-Key": secrets.token_urlsafe(16)}
    first = api.post("/v1/games", json=body, headers=key)
    tokens = [s["token"] for s in first.get_json()["seats"]]
    url = first.headers["Location"]
    assert api.get(url, token=tokens[0]).status_code == 200  # in use, and remembered
    again = api.post("/v1/games", json=body, headers=key)
    assert first.status_code == again.status_code == 201
    assert again.get_json() == first.get_json()
    for token in tokens:
        assert api.get(url, token=token).status_code == 200
    with psycopg.connect(database_url) as conn:
        filed = conn.execute("SELECT key || response::text FROM idempotency").fetchall()
        stored = conn.execute("SELECT token_hash FROM seat_tokens").fetchall()
    # Neither the key nor a token is kept in clear.
    assert not any(secret in row for (row,) in filed + stored for secret in [*tokens, key["Idempotency-Key"]])
    other = api.post("/v1/games", json={"seats": 3}, headers=key)
    assert other.status_code == 422 and other.get_json()["code"] == "idempotency_key_reused"


def test_concurrent_retries_of_a_creation_all_get_the_same_working_tokens(app):
    body = {"seats": 2}
    key = {"Idempotency-Key": str(uuid.uuid4())}

    def create(_):
        answer = app.test_client().post("/v1/games", json=body, headers=key)
        return answer.status_code, answer.get_json()

    with ThreadPoolExecutor(8) as pool:
        answers = list(pool.map(create, range(8)))
    assert {status for status, _ in answers} == {201}
    assert all(answer == answers[0][1] for _, answer in answers)
    client = app.test_client()
    for seat in answers[0][1]["seats"]:
        mine = client.get(f"/v1/games/{answers[0][1]['id']}", headers={"Authorization": f"Bearer {seat['token']}"})
        assert mine.status_code == 200 and mine.get_json()["you"] == seat["seat"]


def test_a_creation_retried_however_the_game_moved_since_gets_its_first_answer(api, operator):
    """Issue 33's probe: once a guest had joined an open seat, the retry was told the secret was replaced."""
    body = {"variant": "cassino", "first_dealer": 0, "seats": [{"name": "Ann"}, {"name": "Cy"}, {"open": True}]}
    key = {"Idempotency-Key": str(uuid.uuid4())}
    first = api.post("/v1/games", json=body, headers=key)
    answer = first.get_json()
    url = f"/v1/games/{answer['id']}"

    def retried() -> dict:
        again = api.post("/v1/games", json=body, headers=key)
        assert again.status_code == 201 and again.headers["Location"] == first.headers["Location"]
        return again.get_json()

    assert api.post(f"{url}/join", json={"name": "Bob"}).status_code == 200  # a guest takes the open seat
    assert retried() == answer
    ann, cy = answer["seats"][0]["token"], answer["seats"][1]["token"]
    assert api.post(f"{url}/leave", token=cy).status_code == 200  # a seat the creation gave is left
    assert retried() == answer
    assert api.post(f"{url}/join", json={"name": "Dan"}).status_code == 200
    assert api.post(f"{url}/deal", json={}, token=ann).status_code == 200
    assert retried() == answer  # the game as it was created, its tokens the same
    mine = api.get(url, token=ann).get_json()
    assert mine["you"] == 0 and mine["version"] > answer["version"]
    assert api.get(url, token=cy).status_code == 401  # Cy's token no longer acts for a seat


def test_a_creation_retried_after_the_operator_token_was_replaced_gets_no_tokens_that_do_not_work(
        api, database_url):
    body, key = {"seats": 2}, {"Idempotency-Key": str(uuid.uuid4())}
    assert api.post("/v1/games", json=body, headers=key).status_code == 201
    app = create_app({**TEST_SETTINGS, "DATABASE_URL": database_url, "OPERATOR_TOKEN": "a replacement"})
    try:
        again = Api(app, app.test_client()).post("/v1/games", json=body, headers=key)
    finally:
        close_app(app)
    assert again.status_code == 409 and again.get_json()["code"] == "idempotency_key_stale"


@pytest.mark.parametrize("key,status", [
    ("create-1", 400), ("x" * 21, 400), ("a key with spaces in it!", 400), ("k" * 201, 400),
    # Of the form the spec gives, with the marks of a made-up key:
    ("aaaaaaaaaaaaaaaaaaaaaa", 422), ("create-game-0000000042", 422), ("abcdefghijklmnopqrstuvwxyz", 422),
    ("00000000-0000-0000-0000-000000000001", 422),  # not a random (version 4) UUID
    ("40000000-0000-4000-8000-000000000001", 422),  # version 4 in form, not in content
    ("12345678-1234-4234-8234-123456789012", 422),
])
def test_a_creation_key_that_could_be_guessed_is_refused(api, key, status):
    answer = api.post("/v1/games", json={"seats": 2}, headers={"Idempotency-Key": key})
    assert answer.status_code == status and answer.get_json()["errors"][0]["field"] == "Idempotency-Key"
    assert answer.get_json()["code"] == ("malformed" if status == 400 else "idempotency_key_not_random")


@pytest.mark.parametrize("key", [str(uuid.uuid4()), uuid.uuid4().hex, secrets.token_urlsafe(16),
                                 secrets.token_urlsafe(32)], ids=["uuid", "hex", "urlsafe-16", "urlsafe-32"])
def test_a_random_creation_key_of_each_form_is_taken(api, key):
    assert api.post("/v1/games", json={"seats": 2}, headers={"Idempotency-Key": key}).status_code == 201


def test_a_stranger_with_another_key_gets_a_game_of_its_own_and_learns_of_no_key(api):
    body = {"seats": 2}
    mine = api.post("/v1/games", json=body, headers={"Idempotency-Key": secrets.token_urlsafe(16)})
    theirs = api.post("/v1/games", json=body, headers={"Idempotency-Key": secrets.token_urlsafe(16)})
    assert mine.status_code == theirs.status_code == 201
    assert theirs.get_json()["id"] != mine.get_json()["id"]
    assert {s["token"] for s in theirs.get_json()["seats"]}.isdisjoint(s["token"] for s in mine.get_json()["seats"])


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


def test_another_worker_stops_trusting_a_withdrawn_token_within_a_minute(api, store, database_url):
    game = api.create(first_dealer=1)
    game_id = uuid.UUID(game.id)
    now = [0.0]
    worker = Authenticator(None, store, clock=lambda: now[0])  # another process's
    old = hash_token(game.tokens[0])
    assert worker.seat_for_token(game_id, old) == 0  # seen in use there
    with psycopg.connect(database_url, autocommit=True) as conn:  # replaced by hand in the database
        conn.execute("UPDATE seat_tokens SET token_hash = %s WHERE game_id = %s AND seat = 0",
                     (hash_token("a-new-token"), game_id))
    now[0] = 1.0
    assert worker.seat_for_token(game_id, old) == 0  # still trusted, briefly
    now[0] = TOKEN_TRUST_SECONDS + 1
    assert worker.seat_for_token(game_id, old) is None
    assert worker.seat_for_token(game_id, hash_token("a-new-token")) == 0


REORDERED = secrets.token_urlsafe(16)


def test_a_retry_that_orders_the_bodys_keys_differently_is_still_a_retry(api):
    first = api.post("/v1/games", json={"seats": 2, "options": {"target": 11, "count_out": False}},
                     headers={"Idempotency-Key": REORDERED})
    again = api.post("/v1/games", json={"options": {"count_out": False, "target": 11}, "seats": 2},
                     headers={"Idempotency-Key": REORDERED})
    assert first.status_code == again.status_code == 201
    assert again.get_json()["id"] == first.get_json()["id"]
    other = api.post("/v1/games", json={"options": {"count_out": False, "target": 12}, "seats": 2},
                     headers={"Idempotency-Key": REORDERED})
    assert other.status_code == 422 and other.get_json()["code"] == "idempotency_key_reused"


def test_one_creation_key_sent_by_two_players_makes_one_game_and_shows_it_to_its_creator_alone(api):
    """A creation key is its holder's secret, one scope for every creator: the game takes the id made from
    the key, so another player sending the same key is refused (the body names another player), is told
    nothing of the game, and makes none."""
    ann, bob = (api.post("/v1/players", json={"name": name}).get_json() for name in ("Ann", "Bob"))
    body, key = {"seats": [{"me": True}, {"open": True}]}, {"Idempotency-Key": secrets.token_urlsafe(16)}
    mine = api.post("/v1/games", json=body, headers=key, token=ann["token"])
    theirs = api.post("/v1/games", json=body, headers=key, token=bob["token"])
    assert mine.status_code == 201
    assert theirs.status_code == 422 and theirs.get_json()["code"] == "idempotency_key_reused"
    assert mine.get_json()["id"] not in theirs.get_data(as_text=True)
    assert api.get("/v1/players/me/games", token=bob["token"]).get_json()["games"] == []
    again = api.post("/v1/games", json=body, headers=key, token=ann["token"])
    assert again.status_code == 201 and again.get_json() == mine.get_json()

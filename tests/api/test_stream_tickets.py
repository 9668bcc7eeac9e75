"""Stream tickets at the edge: each opens one stream, and dies with the token it was issued under."""

import psycopg

from service.auth import hash_token
from service.web.app import close_app, create_app
from tests.conftest import TEST_SETTINGS

from .conftest import ORDERED_DECK, Api


def open_with(api, issued):
    return api.get(issued["stream"] + "&timeout=0.01")


def test_a_ticket_opens_one_stream_only(api):
    game = api.create(first_dealer=1)
    api.deal(game, ORDERED_DECK)
    issued = api.post(f"{game.url}/stream-tickets", token=game.tokens[0]).get_json()
    assert open_with(api, issued).status_code == 200
    again = open_with(api, issued)
    assert again.status_code == 401 and "used" in again.get_json()["detail"]


def test_a_seats_ticket_stops_working_when_its_token_is_replaced(api, database_url):
    game = api.create(first_dealer=1)
    issued = api.post(f"{game.url}/stream-tickets", token=game.tokens[0]).get_json()
    with psycopg.connect(database_url, autocommit=True) as conn:
        conn.execute("UPDATE seat_tokens SET token_hash = %s WHERE game_id = %s AND seat = 0",
                     (hash_token("a replacement"), game.id))
    assert open_with(api, issued).status_code == 401


def test_a_forged_ticket_is_a_401_whatever_it_names(api):
    game = api.create(first_dealer=1)
    for forged in ("9999999999.seat:x.n.m", "9999999999.seat:.n.m", "1.2.3.4.5"):
        answer = api.get(f"{game.url}/events/stream?ticket={forged}&timeout=0.01")
        assert answer.status_code == 401 and answer.get_json()["code"] == "unauthenticated"


def test_the_operators_ticket_stops_working_when_the_operator_token_is_replaced(database_url):
    """The service restarted with another operator token (and the same checkpoint key)."""
    settings = {**TEST_SETTINGS, "DATABASE_URL": database_url, "CHECKPOINT_KEY": "kept across the change"}
    before, after = create_app({**settings, "OPERATOR_TOKEN": "the-old-token"}), \
        create_app({**settings, "OPERATOR_TOKEN": "the-new-token"})
    try:
        old, new = Api(before, before.test_client()), Api(after, after.test_client())
        game = old.create(first_dealer=1)
        issued = [old.post(f"{game.url}/stream-tickets", token="the-old-token").get_json() for _ in range(2)]
        assert open_with(old, issued[0]).status_code == 200
        answer = open_with(new, issued[1])
        assert answer.status_code == 401 and answer.get_json()["code"] == "unauthenticated"
    finally:
        close_app(before)
        close_app(after)

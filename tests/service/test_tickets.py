"""Stream tickets: signed, short-lived, for one game's stream, never the
token, void with the token, and used once."""

import time
import uuid

from service import tickets
from service.caller import OPERATOR, PUBLIC, seat
from service.database import get_pool
from service.tokens import hash_token

KEY = tickets.key_from("operator-token")
GAME = uuid.uuid4()
NOW = 1_760_000_000.0
SEAT_TOKEN = hash_token("the seat's token")


def current(caller):
    """The token hash each caller has now: one for every seat, none for the others."""
    return SEAT_TOKEN if caller.is_seat else ""


def issue(caller, now=NOW):
    return tickets.issue(KEY, GAME, caller, now, current(caller))


def test_a_ticket_stands_for_the_caller_it_was_issued_to():
    for caller in (seat(2), OPERATOR, PUBLIC):
        ticket, expires = issue(caller)
        assert expires == NOW + tickets.LIFETIME
        assert tickets.redeem(KEY, GAME, ticket, NOW + 1, current) == caller


def test_a_ticket_expires():
    ticket, expires = issue(seat(0))
    assert tickets.redeem(KEY, GAME, ticket, expires - 1, current) == seat(0)
    assert tickets.redeem(KEY, GAME, ticket, expires, current) is None


def test_a_seats_ticket_dies_with_the_token_it_was_issued_under():
    ticket, _ = issue(seat(0))
    assert tickets.redeem(KEY, GAME, ticket, NOW, lambda caller: hash_token("a new token")) is None
    assert tickets.redeem(KEY, GAME, ticket, NOW, lambda caller: None) is None  # the seat has no token


def test_a_ticket_is_used_once_in_whichever_worker(app):
    pool = get_pool(app)
    ticket, _ = issue(seat(1), time.time())
    assert tickets.use_once(pool, ticket)
    assert not tickets.use_once(pool, ticket)
    other, _ = issue(seat(1), time.time())
    assert tickets.use_once(pool, other)


def test_a_ticket_the_databases_clock_says_expired_is_not_used(app):
    ticket, _ = issue(seat(1), time.time() - tickets.LIFETIME - 5)
    assert not tickets.use_once(get_pool(app), ticket)


def test_a_ticket_is_for_one_game_one_key_and_cannot_be_edited():
    ticket, _ = issue(seat(0))
    expires, actor, nonce, mac = ticket.split(".")
    assert tickets.redeem(KEY, uuid.uuid4(), ticket, NOW, current) is None
    assert tickets.redeem(tickets.key_from("another operator token"), GAME, ticket, NOW, current) is None
    for forged in (f"{expires}.operator.{nonce}.{mac}", f"{int(expires) + 3600}.{actor}.{nonce}.{mac}",
                   "", "a.b.c", "x.seat:0.n.m", "x" * 500):
        assert tickets.redeem(KEY, GAME, forged, NOW, current) is None


def test_tickets_differ_and_do_not_contain_the_key():
    first, _ = issue(seat(0))
    second, _ = issue(seat(0))
    assert first != second
    assert "operator-token" not in first and KEY.hex() not in first

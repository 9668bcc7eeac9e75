"""Stream tickets: signed, short-lived, for one game's stream, never the token."""

import uuid

from service import tickets
from service.caller import OPERATOR, PUBLIC, seat

KEY = tickets.key_from("operator-token")
GAME = uuid.uuid4()
NOW = 1_760_000_000.0


def test_a_ticket_stands_for_the_caller_it_was_issued_to():
    for caller in (seat(2), OPERATOR, PUBLIC):
        ticket, expires = tickets.issue(KEY, GAME, caller, NOW)
        assert expires == NOW + tickets.LIFETIME
        assert tickets.redeem(KEY, GAME, ticket, NOW + 1) == caller


def test_a_ticket_expires():
    ticket, expires = tickets.issue(KEY, GAME, seat(0), NOW)
    assert tickets.redeem(KEY, GAME, ticket, expires - 1) == seat(0)
    assert tickets.redeem(KEY, GAME, ticket, expires) is None


def test_a_ticket_is_for_one_game_one_key_and_cannot_be_edited():
    ticket, _ = tickets.issue(KEY, GAME, seat(0), NOW)
    expires, actor, nonce, mac = ticket.split(".")
    assert tickets.redeem(KEY, uuid.uuid4(), ticket, NOW) is None
    assert tickets.redeem(tickets.key_from("another operator token"), GAME, ticket, NOW) is None
    for forged in (f"{expires}.operator.{nonce}.{mac}", f"{int(expires) + 3600}.{actor}.{nonce}.{mac}",
                   "", "a.b.c", "x" * 500):
        assert tickets.redeem(KEY, GAME, forged, NOW) is None


def test_tickets_differ_and_do_not_contain_the_key():
    first, _ = tickets.issue(KEY, GAME, seat(0), NOW)
    second, _ = tickets.issue(KEY, GAME, seat(0), NOW)
    assert first != second
    assert "operator-token" not in first and KEY.hex() not in first

"""Stream tickets: signed, short-lived, for one game's stream, never the
token, void with the token, and used once."""

import uuid

from itsdangerous import base64_decode, base64_encode

from service.auth import (OPERATOR, PUBLIC, TICKET_LIFETIME, hash_token, issue_ticket, redeem_ticket, seat,
                          ticket_key_from)

KEY = ticket_key_from("operator-token")
GAME = uuid.uuid4()
NOW = 1_760_000_000.0
SEAT_TOKEN = hash_token("the seat's token")
OPERATOR_TOKEN = hash_token("operator-token")


def current(caller):
    """The token hash each caller has now: one for every seat and the operator, none for the public."""
    return SEAT_TOKEN if caller.is_seat else OPERATOR_TOKEN if caller.is_operator else ""


def issue(caller, now=NOW):
    return issue_ticket(KEY, GAME, caller, now, current(caller))


def test_a_ticket_stands_for_the_caller_it_was_issued_to():
    for caller in (seat(2), OPERATOR, PUBLIC):
        ticket, expires = issue(caller)
        assert expires == NOW + TICKET_LIFETIME
        assert redeem_ticket(KEY, GAME, ticket, NOW + 1, current) == caller


def test_a_ticket_expires():
    ticket, expires = issue(seat(0))
    assert redeem_ticket(KEY, GAME, ticket, expires - 1, current) == seat(0)
    assert redeem_ticket(KEY, GAME, ticket, expires, current) is None


def test_a_seats_ticket_dies_with_the_token_it_was_issued_under():
    ticket, _ = issue(seat(0))
    assert redeem_ticket(KEY, GAME, ticket, NOW, lambda caller: hash_token("a new token")) is None
    assert redeem_ticket(KEY, GAME, ticket, NOW, lambda caller: None) is None  # the seat has no token


def test_the_operators_ticket_dies_with_the_operator_token_even_under_the_same_key():
    ticket, _ = issue(OPERATOR)
    assert redeem_ticket(KEY, GAME, ticket, NOW, current) == OPERATOR
    assert redeem_ticket(KEY, GAME, ticket, NOW, lambda caller: hash_token("the next operator token")) is None
    assert redeem_ticket(KEY, GAME, ticket, NOW, lambda caller: None) is None  # no operator token at all


def test_a_ticket_is_for_one_game_one_key_and_cannot_be_edited():
    ticket, _ = issue(seat(0))
    actor, nonce, issued, mac = ticket.split(".")
    later = base64_encode(int(NOW + 3600).to_bytes(4, "big")).decode()
    assert redeem_ticket(KEY, uuid.uuid4(), ticket, NOW, current) is None
    assert redeem_ticket(ticket_key_from("another operator token"), GAME, ticket, NOW, current) is None
    for forged in (f"operator.{nonce}.{issued}.{mac}", f"{actor}.{nonce}.{later}.{mac}",
                   "", "a.b.c", "seat:0.n.x.m", "x" * 500):
        assert redeem_ticket(KEY, GAME, forged, NOW, current) is None


def test_tickets_differ_and_do_not_contain_the_key():
    first, _ = issue(seat(0))
    second, _ = issue(seat(0))
    assert first != second
    assert "operator-token" not in first and KEY.hex() not in first


def test_a_forged_ticket_naming_no_caller_is_refused_not_a_crash():
    for forged in ("seat:x.n.aGnkgA.m", "seat:.n.aGnkgA.m", "seat:1:2.n.aGnkgA.m", "root.n.aGnkgA.m"):
        assert redeem_ticket(KEY, GAME, forged, NOW, current) is None


def test_a_ticket_has_one_spelling_so_a_spent_one_cannot_be_used_again_respelled():
    ticket, _ = issue(seat(1))
    head, _, mac = ticket.rpartition(".")
    # The MAC's last letter has bits its 32 bytes do not use: these spellings decode to the same bytes.
    respelled = [head + "." + mac[:-1] + letter for letter in
                 "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"
                 if letter != mac[-1] and base64_decode(mac[:-1] + letter) == base64_decode(mac)]
    assert respelled
    assert redeem_ticket(KEY, GAME, ticket, NOW + 1, current) == seat(1)
    for other in respelled:
        assert redeem_ticket(KEY, GAME, other, NOW + 1, current) is None

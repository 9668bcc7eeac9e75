"""Stream tickets' single use, kept by both wirings (see conftest's ``contract``)."""

from __future__ import annotations

import time
import uuid

from service.auth import TICKET_LIFETIME, issue_ticket, seat, ticket_key_from, ticket_use

KEY = ticket_key_from("operator-token")


def use(contract, ticket: str) -> bool:
    return contract.ticket_uses.use_once(*ticket_use(ticket))


def test_a_ticket_is_used_once_and_another_ticket_is_not_held_up(contract):
    game = uuid.uuid4()
    ticket, _ = issue_ticket(KEY, game, seat(1), time.time())
    other, _ = issue_ticket(KEY, game, seat(1), time.time())

    assert use(contract, ticket)
    assert not use(contract, ticket)
    assert use(contract, other)


def test_a_ticket_the_clock_says_has_expired_is_not_used(contract):
    ticket, expires = issue_ticket(KEY, uuid.uuid4(), seat(1), time.time() - TICKET_LIFETIME - 5)

    assert expires < time.time()
    assert not use(contract, ticket)

"""The games that await a computer (``service.turns``), on each store: an
append writes whether one is awaited, a claim leases the awaited games to
one claimer at a time until its lease lapses, and a row the game does not
bear out is forgotten only as it was read."""

from __future__ import annotations

import uuid
from datetime import UTC, datetime, timedelta

from service.events import Append, NewEvent
from service.turns import ComputerToMove

META = {"actor": "seat:0"}
NOW = datetime(2030, 1, 2, 3, 4, 5, tzinfo=UTC)
LEASE = timedelta(seconds=1)


def _awaiting(contract, since: datetime) -> uuid.UUID:
    game = uuid.uuid4()
    contract.store.append(Append(game, 0, [NewEvent("GameCreated", 1, {})], META, writes=[ComputerToMove(since)]))
    return game


def _claimed_of(contract, games, now: datetime) -> list[uuid.UUID]:
    """What a claim at ``now`` takes of ``games`` (the store may hold other tests' rows)."""
    return [game for game in contract.computer_turns.claim(now, 1000, LEASE) if game in games]


def test_an_awaited_game_is_claimed_by_one_claimer_until_its_lease_lapses(contract):
    earlier, later = _awaiting(contract, NOW - timedelta(seconds=5)), _awaiting(contract, NOW)
    games = {earlier, later}

    assert _claimed_of(contract, games, NOW) == [earlier, later]  # longest waiting first, due at once
    assert _claimed_of(contract, games, NOW + LEASE / 2) == []  # leased
    assert _claimed_of(contract, games, NOW + LEASE) == [earlier, later]  # the lease lapsed


def test_an_append_that_awaits_no_computer_drops_the_row_and_one_that_does_frees_it(contract):
    game = _awaiting(contract, NOW)
    assert _claimed_of(contract, {game}, NOW) == [game]
    [first] = contract.store.load(game)
    [second] = contract.store.append(Append(game, 1, [NewEvent("Played", 1, {})], META, previous_hash=first.hash,
                                            writes=[ComputerToMove(NOW + LEASE / 4)]))
    assert contract.computer_turns.due_at(game) == NOW + LEASE / 4
    assert _claimed_of(contract, {game}, NOW + LEASE / 2) == [game]  # written again: no lease holds it

    contract.store.append(Append(game, 2, [NewEvent("Played", 1, {})], META, previous_hash=second.hash,
                                 writes=[ComputerToMove(None)]))
    assert contract.computer_turns.due_at(game) is None
    assert _claimed_of(contract, {game}, NOW + 2 * LEASE) == []


def test_a_row_is_forgotten_only_as_it_was_read(contract):
    game = _awaiting(contract, NOW)
    contract.computer_turns.forget(game, NOW - timedelta(seconds=1))  # written again since
    assert contract.computer_turns.due_at(game) == NOW
    contract.computer_turns.forget(game, NOW)
    assert contract.computer_turns.due_at(game) is None

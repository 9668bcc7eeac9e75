"""Each kind of write an append carries (``service.writes``), on each store.

For every kind in ``KINDS`` there is an example here: a write of that kind,
and what the store holds of it afterwards, read through the ports the
service reads it by. Each is written with an append and read back; an
append refused (its expected version stale) writes none of it. A kind added
without its example, or without its mapping in a store, fails here.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

import pytest

from domain.rating import Rating
from service import checkpoints
from service.auth import hash_token
from service.checkpoints import Checkpoint
from service.deadlines import Deadline
from service.events import Append, ConcurrencyError, NewEvent, RatingsMoved
from service.memory import store as memory_store
from service.pairing import Ask, Waiting
from service.postgres import store as postgres_store
from service.turns import ComputerToMove
from service.writes import (KINDS, GameRow, IdempotencyRecord, Paired, PlayerNotice, RatingChanged, SeatLeft,
                            SeatTaken, SeatToken, SeatTokenWithdrawn, Snapshot, Write)
from tests.contract.conftest import Harness

META = {"actor": "seat:0"}
KEY = b"k" * 32
ANN, BOB = uuid.UUID(int=1), uuid.UUID(int=2)
DUE = datetime(2030, 1, 2, 3, 4, 5, tzinfo=UTC)


@dataclass(frozen=True)
class Example:
    """``writes``: the kind's writes for the game's third append (the
    first made its row, seat 0's token, Ann in seat 0 and a deadline);
    ``held``: what the store holds of them, read back; ``after``: what
    ``held`` gives once they are written (before: whatever the first left)."""

    writes: list[Write]
    held: Callable[[Harness, uuid.UUID], Any]
    after: Callable[[uuid.UUID, list], Any]


def _checkpoint(contract: Harness, game: uuid.UUID) -> Checkpoint | None:
    return contract.store.load_head(game)[1]


#: Ann waiting to be paired (service.pairing), the pairing the example of ``Paired`` ends.
WAITING = Waiting(uuid.UUID(int=11), ANN, "Ann", Ask("cassino", 2, None, False), 1500.0, DUE)


def _pairing_of_ann(contract: Harness, game: uuid.UUID) -> tuple[str, uuid.UUID | None, int | None]:
    if contract.pairings.find(WAITING.id) is None:
        contract.pairings.ask(WAITING)  # Ann waits, before the appends
    found = contract.pairings.find(WAITING.id)
    assert found is not None
    return found.status, found.game_id, found.seat


EXAMPLES: dict[type, Example] = {
    # The store signs the head itself (service.appends): the example writes nothing more.
    Checkpoint: Example([], _checkpoint, lambda game, stored: checkpoints.sign(KEY, game, 3, stored[-1].hash)),
    IdempotencyRecord: Example(
        [IdempotencyRecord("key-1", "h", {"versions": [3, 3]}, "seat:0")],
        lambda contract, game: contract.store.find_idempotent(game, "seat:0", "key-1"),
        lambda game, stored: ("h", {"versions": [3, 3]})),
    GameRow: Example(
        [GameRow({"version": 3, "status": "finished", "winner": {"winners": [0]}})],
        lambda contract, game: {c: (contract.games_row(game) or {}).get(c) for c in ("version", "status", "winner")},
        lambda game, stored: {"version": 3, "status": "finished", "winner": {"winners": [0]}}),
    Deadline: Example([Deadline(None)], lambda contract, game: contract.deadlines.due_at(game),
                      lambda game, stored: None),
    ComputerToMove: Example([ComputerToMove(DUE)], lambda contract, game: contract.computer_turns.due_at(game),
                            lambda game, stored: DUE),
    SeatToken: Example([SeatToken(1, hash_token("b"))], lambda contract, game: contract.store.seat_token_hashes(game),
                       lambda game, stored: {0: hash_token("a"), 1: hash_token("b")}),
    SeatTokenWithdrawn: Example([SeatTokenWithdrawn(0)],
                                lambda contract, game: contract.store.seat_token_hashes(game),
                                lambda game, stored: {}),
    SeatTaken: Example([SeatTaken(BOB, 1)], lambda contract, game: contract.players.seat_of(BOB, game),
                       lambda game, stored: 1),
    SeatLeft: Example([SeatLeft(ANN)], lambda contract, game: contract.players.seat_of(ANN, game),
                      lambda game, stored: None),
    Snapshot: Example([Snapshot(3, "code-1", b"\x00state")],
                      lambda contract, game: contract.store.load_snapshot(game, "code-1"),
                      lambda game, stored: Snapshot(3, "code-1", b"\x00state")),
    RatingChanged: Example([RatingChanged(ANN, "royal", 0, 1612.5, 480.25, 1)],
                           lambda contract, game: contract.ratings.of([str(ANN)], "royal"),
                           lambda game, stored: {str(ANN): Rating(1612.5, 480.25, 1)}),
    Paired: Example([Paired(WAITING.id, ANN, WAITING.ask.to_dict(), 0)], _pairing_of_ann,
                    lambda game, stored: ("paired", game, 0)),
    # What a player is told leaves nothing in the tables: heard by other
    # processes' streams on PostgreSQL (tests/service/test_store.py,
    # tests/api/test_player_stream.py), by none in memory.
    PlayerNotice: Example([PlayerNotice(ANN, [{"event": "your_turn", "version": 3}])],
                          lambda contract, game: None, lambda game, stored: None),
}


def test_every_kind_of_write_has_an_example_and_a_mapping_in_each_store():
    assert set(EXAMPLES) == set(KINDS)
    assert set(postgres_store._MAPPED) == set(KINDS)
    assert set(memory_store._WRITES) == set(KINDS)


@pytest.mark.parametrize("kind", KINDS, ids=lambda kind: kind.__name__)
def test_each_kind_of_write_is_written_with_its_append_and_not_with_one_refused(contract, kind):
    example, store, game = EXAMPLES[kind], contract.signing(KEY), uuid.uuid4()
    [created] = store.append(Append(game, 0, [NewEvent("GameCreated", 1, {})], META, writes=[
        GameRow({"variant": "cassino", "status": "waiting", "player_names": ["Ann", None], "version": 1}),
        SeatToken(0, hash_token("a")), SeatTaken(ANN, 0), Deadline(DUE)]))
    [dealt] = store.append(Append(game, 1, [NewEvent("Dealt", 1, {})], META, previous_hash=created.hash))
    before = example.held(contract, game)

    with pytest.raises(ConcurrencyError):
        store.append(Append(game, 1, [NewEvent("Again", 1, {})], META, previous_hash=created.hash,
                            writes=example.writes))
    assert example.held(contract, game) == before

    stored = store.append(Append(game, 2, [NewEvent("Next", 1, {})], META, previous_hash=dealt.hash,
                                 writes=example.writes))
    assert example.held(contract, game) == example.after(game, stored)
    if kind is not PlayerNotice:
        assert example.after(game, stored) != before  # the example shows a change


def test_an_append_decided_on_a_rating_another_moved_first_is_refused_as_ratings_moved(contract):
    """Two games rating one player from the same rating (the player's 3rd
    game in the variant, say) both write the line (player, variant, 3):
    the second append writes nothing, and says why (service.ratings)."""
    first, second, player = uuid.uuid4(), uuid.uuid4(), uuid.uuid4()
    change = RatingChanged(player, "cassino", 0, 1600.0, 400.0, 3)
    contract.store.append(Append(first, 0, [NewEvent("GameCreated", 1, {})], META, writes=[change]))
    with pytest.raises(RatingsMoved):
        contract.store.append(Append(second, 0, [NewEvent("GameCreated", 1, {})], META,
                                     writes=[RatingChanged(player, "cassino", 1, 1400.0, 400.0, 3)]))
    assert contract.store.load(second) == []
    assert contract.ratings.of([str(player)], "cassino") == {str(player): Rating(1600.0, 400.0, 3)}


def test_an_append_writes_one_of_each_kind_it_has_one_of():
    with pytest.raises(ValueError, match="GameRow"):
        Append(uuid.uuid4(), 0, [NewEvent("A", 1, {})], META, writes=[GameRow({}), GameRow({})])
    with pytest.raises(ValueError, match="kinds of write"):
        Append(uuid.uuid4(), 0, [NewEvent("A", 1, {})], META, writes=["DROP TABLE events"])  # type: ignore[list-item]

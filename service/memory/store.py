"""An event store in memory, with the PostgreSQL store's contract.

``MemoryEventStore`` writes what ``service.postgres.store.PostgresEventStore``
writes (events, idempotency records, seat token hashes, the games
read-model row, snapshots, checkpoints) into ``Tables``, so the service
can be tested, and run, without a database. Both keep the contract of
``service.events.EventStore``, and share what an append does before it is
written (``service.appends``); tests/contract checks that they keep it the
same way.

Positions are made as PostgreSQL's are (``service.postgres.positions``),
with the number of the append standing for the transaction's id: an
append's events are consecutive, and the next append's start far past
them, so whatever passes on the memory wiring does not count on positions
without gaps. What differs, and why it does not matter to a caller:
``read_all`` needs no wait for running transactions, since an append holds
the lock until all of it is visible (both stores keep the contract of the
settled horizon, tests/contract).
"""

from __future__ import annotations

import bisect
from collections.abc import Callable, Sequence
from datetime import datetime
from typing import Any
from uuid import UUID

from domain.rating import Rating

from service.appends import AppendingStore, Chained
from service.auth import hash_token
from service.chain import CURRENT
from service.checkpoints import Checkpoint
from service.deadlines import Deadline
from service.events import ConcurrencyError, Cursor, Head, Horizon, RatingsMoved, StoredEvent
from service.turns import ComputerToMove
from service.memory.tables import IDEMPOTENCY_LIFETIME, DeadlineRow, Filed, HeldSeat, PairingResult, Tables
from service.postgres.positions import position
from service.writes import (GAME_COLUMNS, NOW, GameRow, IdempotencyRecord, Paired, PlayerNotice, RatingChanged,
                            SeatLeft, SeatTaken, SeatToken, SeatTokenWithdrawn, Snapshot)


class MemoryEventStore(AppendingStore):
    """Every game's events and side records in ``tables`` (new ones by
    default). With ``checkpoint_key``, every append signs the game's new
    head, as the PostgreSQL store does."""

    def __init__(self, tables: Tables | None = None, checkpoint_key: bytes | None = None):
        self.tables = tables or Tables()
        super().__init__(checkpoint_key, self.tables.now)

    def _write(self, append: Chained) -> list[StoredEvent]:
        asked, t = append.append, self.tables
        game = UUID(str(asked.game_id))
        with t.lock:
            if len(t.events.get(game, ())) != asked.expected_version:
                raise ConcurrencyError(game, asked.expected_version)
            writes = append.writes
            for kind, group in writes:
                if any(_REFUSES[kind](t, game, write, append) for write in group if kind in _REFUSES):
                    raise _REFUSED_AS.get(kind, ConcurrencyError)(game, asked.expected_version)
            t.appends += 1
            stored = [StoredEvent(position(t.appends, n), game, asked.expected_version + n, row["type"],
                                  row["schema_version"], row["data"], row["metadata"],
                                  datetime.fromisoformat(row["at"]), row["hash"], CURRENT)
                      for n, row in enumerate(append.rows, start=1)]
            t.log.extend(stored)
            t.events.setdefault(game, []).extend(stored)
            for kind, group in writes:
                for write in group:
                    _WRITES[kind](t, game, write, append)
        return stored

    def load(self, game_id: UUID | str, after_version: int = 0,
             until_version: int | None = None) -> list[StoredEvent]:
        """The game's events after ``after_version`` (up to ``until_version``), in version order."""
        with self.tables.lock:
            events = self.tables.events.get(UUID(str(game_id)), [])
            return list(events[max(after_version, 0):until_version])

    def load_head(self, game_id: UUID | str, after_version: int = 0) -> tuple[list[StoredEvent], Checkpoint | None]:
        """``load``, and the game's checkpoint, as of one moment."""
        with self.tables.lock:
            events = self.load(game_id, after_version)
            return events, self.tables.checkpoints.get(UUID(str(game_id))) if events else None

    def load_heads(self, game_ids: Sequence[UUID], code_version: str | None) -> dict[UUID, Head]:
        """Of each game with events, its snapshot, the events from it on, and its checkpoint, as of one moment."""
        heads = {}
        with self.tables.lock:
            for game in game_ids:
                snapshot = self.load_snapshot(game, code_version) if code_version is not None else None
                events = self.load(game, snapshot.version - 1 if snapshot is not None else 0)
                if events:
                    heads[game] = Head(snapshot, events, self.tables.checkpoints.get(game))
        return heads

    def read_all(self, after: Cursor | int = 0, limit: int = 100) -> list[StoredEvent]:
        """Up to ``limit`` events of every game after ``after``, in global
        order (one origin, 0: a cursor's others name nothing here)."""
        if limit < 1:
            raise ValueError("limit must be at least 1")
        after_position = after.of(0) if isinstance(after, Cursor) else after
        with self.tables.lock:
            start = bisect.bisect_right(self.tables.log, after_position, key=_position)
            return self.tables.log[start:start + limit]

    def horizon(self) -> Horizon:
        """Every event here is settled and seen: both are past the last position."""
        with self.tables.lock:
            past = (self.tables.log[-1].position if self.tables.log else 0) + 1
        return Horizon(past, past)

    def game_ids(self) -> list[UUID]:
        """Every game that has events, in id order."""
        with self.tables.lock:
            return sorted(self.tables.events)

    def find_idempotent(self, game_id: UUID | str, actor: str, key: str) -> tuple[str, Any] | None:
        """``(request_hash, response)`` recorded for the caller's key and not expired, or None."""
        with self.tables.lock:
            filed = self.tables.filed.get((UUID(str(game_id)), actor, hash_token(key)))
            if filed is None or filed.expires_at <= self.tables.now():
                return None
            return filed.request_hash, filed.response

    def seat_token_hashes(self, game_id: UUID | str) -> dict[int, str]:
        """Each seat's token hash (sha256 hex), by seat."""
        with self.tables.lock:
            return dict(self.tables.tokens.get(UUID(str(game_id)), {}))

    def load_snapshot(self, game_id: UUID | str, code_version: str) -> Snapshot | None:
        """The game's snapshot if ``code_version`` wrote it; older code's state is ignored."""
        with self.tables.lock:
            snapshot = self.tables.snapshots.get(UUID(str(game_id)))
        return snapshot if snapshot is not None and snapshot.code_version == code_version else None


# -- each kind of write (service.writes) in the tables ------------------------
# Each takes the tables, the game, the write and the append it is part of.


def _file(t: Tables, game: UUID, record: IdempotencyRecord, append: Chained) -> None:
    t.filed[(record.scope or game, record.actor, hash_token(record.key))] = Filed(
        record.request_hash, dict(record.response), append.at + IDEMPOTENCY_LIFETIME)


def _row(t: Tables, game: UUID, row: GameRow, append: Chained) -> None:
    """Insert a new game's row (columns not given are null, ``listed``
    false), or update the given columns (``lobby`` only if the game was created listed)."""
    at = append.at
    values = {"updated_at": at, **{c: at if v is NOW else v for c, v in row.columns.items()}}
    if append.append.expected_version == 0:
        t.rows[game] = {**dict.fromkeys(GAME_COLUMNS), "listed": False, "created_at": at, **values}
    elif game in t.rows:
        kept = t.rows[game]
        if "lobby" in values and not kept["listed"]:
            values["lobby"] = None
        kept.update(values)


def _deadline(t: Tables, game: UUID, deadline: Deadline, append: Chained) -> None:
    if deadline.at is None:
        t.deadlines.pop(game, None)
    else:
        t.deadlines[game] = DeadlineRow(deadline.at)


def _computer_to_move(t: Tables, game: UUID, turn: ComputerToMove, append: Chained) -> None:
    if turn.at is None:
        t.computer_turns.pop(game, None)
    else:
        t.computer_turns[game] = DeadlineRow(turn.at)


def _seat_taken(t: Tables, game: UUID, taken: SeatTaken, append: Chained) -> None:
    created = t.rows[game]["created_at"] if game in t.rows else append.at
    t.player_seats[(taken.player, game)] = HeldSeat(taken.seat, created)


def _rating_changed(t: Tables, game: UUID, changed: RatingChanged, append: Chained) -> None:
    t.ratings[(changed.player, changed.variant)] = Rating(changed.rating, changed.deviation, changed.games)
    t.rating_changes[(changed.player, changed.variant, changed.games)] = game


def _paired(t: Tables, game: UUID, paired: Paired, append: Chained) -> None:
    t.pairings.pop(paired.pairing, None)
    t.pairing_results[paired.pairing] = PairingResult(paired.player, dict(paired.ask), game, paired.seat, append.at)


_WRITES: dict[type, Callable[[Tables, UUID, Any, Chained], object]] = {
    Checkpoint: lambda t, game, signed, _: t.checkpoints.__setitem__(game, signed),
    IdempotencyRecord: _file,
    GameRow: _row,
    Deadline: _deadline,
    ComputerToMove: _computer_to_move,
    SeatToken: lambda t, game, token, _: t.tokens.setdefault(game, {}).__setitem__(token.seat, token.token_hash),
    SeatTokenWithdrawn: lambda t, game, gone, _: t.tokens.get(game, {}).pop(gone.seat, None),
    SeatTaken: _seat_taken,
    SeatLeft: lambda t, game, left, _: t.player_seats.pop((left.player, game), None),
    Snapshot: lambda t, game, snapshot, _: t.snapshots.__setitem__(game, snapshot),
    RatingChanged: _rating_changed,
    Paired: _paired,
    PlayerNotice: lambda t, game, notice, _: None,  # no other process hears of this store's appends
}


def _key_taken(t: Tables, game: UUID, record: IdempotencyRecord, append: Chained) -> bool:
    filed = t.filed.get((record.scope or game, record.actor, hash_token(record.key)))
    return filed is not None and filed.expires_at > append.at


def _seat_held(t: Tables, game: UUID, taken: SeatTaken, append: Chained) -> bool:
    held = {player: kept.seat for (player, other), kept in t.player_seats.items() if other == game}
    return taken.player in held or taken.seat in held.values()


# The writes that may break a unique key (what PostgreSQL's keys refuse):
# whether this one would, before anything is written.
_REFUSES: dict[type, Callable[[Tables, UUID, Any, Chained], bool]] = {
    IdempotencyRecord: _key_taken,
    SeatToken: lambda t, game, token, _: token.seat in t.tokens.get(game, {}),
    SeatTaken: _seat_held,
    RatingChanged: lambda t, game, changed, _: (changed.player, changed.variant, changed.games) in t.rating_changes,
    Paired: lambda t, game, paired, _: paired.pairing in t.pairing_results,
}
#: What a refusal of a kind other than a conflict of versions or keys is told as.
_REFUSED_AS: dict[type, type[ConcurrencyError]] = {RatingChanged: RatingsMoved}


def _position(event: StoredEvent) -> int:
    return event.position

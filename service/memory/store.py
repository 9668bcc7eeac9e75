"""An event store in memory, with the PostgreSQL store's contract.

``MemoryEventStore`` writes what ``service.postgres.store.PostgresEventStore``
writes (events, idempotency records, seat token hashes, the games
read-model row, snapshots, checkpoints) into ``Tables``, so the service
can be tested, and run, without a database. Both keep the contract of
``service.events.EventStore``, and share what an append does before it is
written (``service.appends``); tests/contract checks that they keep it the
same way.

What differs, and why it does not matter to a caller: positions here are
1, 2, 3, ... with no gaps (PostgreSQL's skip numbers), and ``read_all``
needs no wait for running transactions since an append holds the lock
until all of it is visible.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Any
from uuid import UUID

from service.appends import AppendingStore, Chained
from service.auth import hash_token
from service.chain import CURRENT
from service.checkpoints import Checkpoint
from service.events import (GAME_COLUMNS, NOW, ConcurrencyError, Head, Horizon, RatedGame, RatingsMoved, Snapshot,
                            StoredEvent)
from service.memory.tables import IDEMPOTENCY_LIFETIME, DeadlineRow, Filed, HeldSeat, Tables


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
            self._check(append, game)
            stored = [StoredEvent(len(t.log) + n, game, asked.expected_version + n, row["type"], row["schema_version"],
                                  row["data"], row["metadata"], datetime.fromisoformat(row["at"]), row["hash"], CURRENT)
                      for n, row in enumerate(append.rows, start=1)]
            t.log.extend(stored)
            t.events.setdefault(game, []).extend(stored)
            if asked.idempotency is not None:
                record = asked.idempotency
                t.filed[(record.scope or game, record.actor, hash_token(record.key))] = Filed(
                    record.request_hash, dict(record.response), append.at + IDEMPOTENCY_LIFETIME)
            if asked.game_row is not None:
                self._write_row(game, asked.game_row, append.at, new=asked.expected_version == 0)
            for seat, token_hash in (asked.seat_token_hashes or {}).items():
                if token_hash is None:
                    t.tokens.get(game, {}).pop(seat, None)
                else:
                    t.tokens.setdefault(game, {})[seat] = token_hash
            for player, held in (asked.player_seats or {}).items():
                if held is None:
                    t.player_seats.pop((player, game), None)
                else:
                    created = t.rows[game]["created_at"] if game in t.rows else append.at
                    t.player_seats[(player, game)] = HeldSeat(held, created)
            if asked.snapshot is not None:
                t.snapshots[game] = asked.snapshot
            if append.checkpoint is not None:
                t.checkpoints[game] = append.checkpoint
            if asked.ratings is not None:
                self._write_ratings(game, asked.ratings)
            if asked.deadline is not None:
                if asked.deadline.at is None:
                    t.deadlines.pop(game, None)
                else:
                    t.deadlines[game] = DeadlineRow(asked.deadline.at)
        return stored

    def _check(self, append: Chained, game: UUID) -> None:
        """Raise ConcurrencyError if the append would break a version or a
        unique key (what PostgreSQL's trigger and keys refuse)."""
        asked, t = append.append, self.tables
        expected = asked.expected_version
        if len(t.events.get(game, ())) != expected:
            raise ConcurrencyError(game, expected)
        record = asked.idempotency
        if record is not None:
            filed = t.filed.get((record.scope or game, record.actor, hash_token(record.key)))
            if filed is not None and filed.expires_at > append.at:
                raise ConcurrencyError(game, expected)
        new_tokens = {seat for seat, h in (asked.seat_token_hashes or {}).items() if h is not None}
        if new_tokens & set(t.tokens.get(game, {})):
            raise ConcurrencyError(game, expected)
        held = {player: kept.seat for (player, other), kept in t.player_seats.items() if other == game}
        if any(seat is not None and (player in held or seat in held.values())
               for player, seat in (asked.player_seats or {}).items()):
            raise ConcurrencyError(game, expected)
        rated = asked.ratings
        if rated is not None and any((UUID(c.player), rated.variant, c.after.games) in t.rating_changes
                                     for c in rated.changes):
            raise RatingsMoved(game, expected)

    def _write_ratings(self, game: UUID, rated: RatedGame) -> None:
        """Each player's new rating, and the line of its change (``service.ratings``)."""
        for change in rated.changes:
            player = UUID(change.player)
            self.tables.ratings[(player, rated.variant)] = change.after
            self.tables.rating_changes[(player, rated.variant, change.after.games)] = game

    def _write_row(self, game: UUID, changes: Mapping[str, Any], at: datetime, *, new: bool) -> None:
        """Insert a new game's row (columns not given are null, ``listed``
        false), or update the given columns (``lobby`` only if the game was created listed)."""
        values = {"updated_at": at, **{c: at if v is NOW else v for c, v in changes.items()}}
        if new:
            self.tables.rows[game] = {**dict.fromkeys(GAME_COLUMNS), "listed": False, "created_at": at, **values}
        elif game in self.tables.rows:
            row = self.tables.rows[game]
            if "lobby" in values and not row["listed"]:
                values["lobby"] = None
            row.update(values)

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

    def read_all(self, after_position: int = 0, limit: int = 100) -> list[StoredEvent]:
        """Up to ``limit`` events of every game after ``after_position``, in global order."""
        if limit < 1:
            raise ValueError("limit must be at least 1")
        with self.tables.lock:
            start = max(after_position, 0)
            return self.tables.log[start:start + limit]

    def horizon(self) -> Horizon:
        """Every event here is settled and seen: both are past the last position."""
        with self.tables.lock:
            past = len(self.tables.log) + 1
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

"""An event store in memory, with the PostgreSQL store's contract.

``MemoryEventStore`` keeps what ``service.postgres.store.PostgresEventStore``
writes (events, idempotency records, seat token hashes, the games
read-model row, snapshots, checkpoints) in dictionaries behind one lock, so
the service layer can be tested, and run, without a database. Both keep the
contract of ``service.events.EventStore``; tests/contract checks that they
keep it the same way.

What differs, and why it does not matter to a caller: positions here are
1, 2, 3, ... with no gaps (PostgreSQL's skip numbers), and ``read_all``
needs no wait for running transactions since an append holds the lock
until all of it is visible.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any
from uuid import UUID

from service import checkpoints
from service.auth import hash_token
from service.chain import CURRENT, ZERO_HASH, event_hash_2
from service.events import (GAME_COLUMNS, NOW, ConcurrencyError, IdempotencyRecord, NewEvent, Snapshot,
                            StoredEvent)

#: How long an idempotency key is kept (the PostgreSQL store's, migration 0005).
IDEMPOTENCY_LIFETIME = timedelta(days=1)


@dataclass(frozen=True)
class _Filed:
    request_hash: str
    response: Any
    expires_at: datetime


class MemoryEventStore:
    """Every game's events and side records in this process's memory.

    ``now`` is the clock that stamps events and expires idempotency keys
    (a test moves it forward). With ``checkpoint_key``, every append signs
    the game's new head, as the PostgreSQL store does.
    """

    def __init__(self, checkpoint_key: bytes | None = None,
                 now: Callable[[], datetime] = lambda: datetime.now(UTC)):
        self._checkpoint_key = checkpoint_key
        self._now = now
        self._lock = threading.RLock()  # load_head reads under it too
        self._log: list[StoredEvent] = []  # every event, position = index + 1
        self._games: dict[UUID, list[StoredEvent]] = {}
        self._filed: dict[tuple[UUID, str, str], _Filed] = {}
        self._tokens: dict[UUID, dict[int, str]] = {}
        self._rows: dict[UUID, dict[str, Any]] = {}
        self._snapshots: dict[UUID, Snapshot] = {}
        self._checkpoints: dict[UUID, checkpoints.Checkpoint] = {}

    @property
    def closed(self) -> bool:
        """Never: memory has no connection to lose."""
        return False

    def append(self, game_id: UUID | str, expected_version: int, events: Sequence[NewEvent],
               metadata: Mapping[str, Any], *, previous_hash: str | None = None,
               idempotency: IdempotencyRecord | None = None, game_row: Mapping[str, Any] | None = None,
               seat_token_hashes: Mapping[int, str] | None = None,
               snapshot: Snapshot | None = None) -> list[StoredEvent]:
        """As ``service.events.EventStore.append``: all of it or, with
        ``ConcurrencyError``, nothing."""
        if not events:
            raise ValueError("append needs at least one event")
        if (previous_hash is None) != (expected_version == 0):
            raise ValueError("previous_hash is the hash of version expected_version, and only then")
        if game_row is not None and set(game_row) - set(GAME_COLUMNS):
            raise ValueError(f"not columns of games: {sorted(set(game_row) - set(GAME_COLUMNS))}")
        game = UUID(str(game_id))
        with self._lock:
            at = self._now()
            self._check(game, expected_version, idempotency, seat_token_hashes, at)
            stored = self._events(game, expected_version, events, metadata, previous_hash or ZERO_HASH, at)
            self._log.extend(stored)
            self._games.setdefault(game, []).extend(stored)
            if idempotency is not None:
                scope = idempotency.scope or game
                self._filed[(scope, idempotency.actor, hash_token(idempotency.key))] = _Filed(
                    idempotency.request_hash, dict(idempotency.response), at + IDEMPOTENCY_LIFETIME)
            if game_row is not None:
                self._write_row(game, game_row, at, new=expected_version == 0)
            if seat_token_hashes:
                self._tokens.setdefault(game, {}).update(seat_token_hashes)
            if snapshot is not None:
                self._snapshots[game] = snapshot
            if self._checkpoint_key is not None:
                self._checkpoints[game] = checkpoints.sign(self._checkpoint_key, game, stored[-1].version,
                                                           stored[-1].hash)
        return stored

    def _check(self, game: UUID, expected_version: int, idempotency: IdempotencyRecord | None,
               seat_token_hashes: Mapping[int, str] | None, at: datetime) -> None:
        """Raise ConcurrencyError if the append would break a version or a unique key."""
        if len(self._games.get(game, ())) != expected_version:
            raise ConcurrencyError(game, expected_version)
        if idempotency is not None:
            filed = self._filed.get((idempotency.scope or game, idempotency.actor, hash_token(idempotency.key)))
            if filed is not None and filed.expires_at > at:
                raise ConcurrencyError(game, expected_version)
        if seat_token_hashes and set(seat_token_hashes) & set(self._tokens.get(game, {})):
            raise ConcurrencyError(game, expected_version)

    def _events(self, game: UUID, expected_version: int, events: Sequence[NewEvent], metadata: Mapping[str, Any],
                previous: str, at: datetime) -> list[StoredEvent]:
        """The events as stored: numbered, timed and chained to ``previous``."""
        stored = []
        for n, event in enumerate(events, start=1):
            version, when = expected_version + n, event.recorded_at or at
            meta = dict(metadata if event.metadata is None else event.metadata)
            previous = event_hash_2(game, version, event.type, event.schema_version, event.data, meta,
                                    when.isoformat(), previous)
            stored.append(StoredEvent(len(self._log) + n, game, version, event.type, event.schema_version,
                                      event.data, meta, when, previous, CURRENT))
        return stored

    def _write_row(self, game: UUID, changes: Mapping[str, Any], at: datetime, *, new: bool) -> None:
        values = {c: at if v is NOW else v for c, v in changes.items()}
        if new:
            self._rows[game] = {"created_at": at, "updated_at": at, **values}
        elif game in self._rows:
            self._rows[game].update({"updated_at": at, **values})

    def load(self, game_id: UUID | str, after_version: int = 0,
             until_version: int | None = None) -> list[StoredEvent]:
        """The game's events after ``after_version`` (up to ``until_version``), in version order."""
        with self._lock:
            events = self._games.get(UUID(str(game_id)), [])
            return list(events[max(after_version, 0):until_version])

    def read_all(self, after_position: int = 0, limit: int = 100) -> list[StoredEvent]:
        """Up to ``limit`` events of every game after ``after_position``, in global order."""
        if limit < 1:
            raise ValueError("limit must be at least 1")
        with self._lock:
            start = max(after_position, 0)
            return self._log[start:start + limit]

    def game_ids(self) -> list[UUID]:
        """Every game that has events, in id order."""
        with self._lock:
            return sorted(self._games)

    def game_version(self, game_id: UUID | str) -> int:
        """The version of the game's last event; 0 when it has none."""
        with self._lock:
            return len(self._games.get(UUID(str(game_id)), ()))

    def find_idempotent(self, game_id: UUID | str, actor: str, key: str) -> tuple[str, Any] | None:
        """``(request_hash, response)`` recorded for the caller's key and not expired, or None."""
        with self._lock:
            filed = self._filed.get((UUID(str(game_id)), actor, hash_token(key)))
            if filed is None or filed.expires_at <= self._now():
                return None
            return filed.request_hash, filed.response

    def seat_for_token(self, game_id: UUID | str, token_hash: str) -> int | None:
        """The seat whose token hashes to ``token_hash``, or None."""
        with self._lock:
            seats = self._tokens.get(UUID(str(game_id)), {})
            return next((seat for seat, h in seats.items() if h == token_hash), None)

    def seat_token_hashes(self, game_id: UUID | str) -> dict[int, str]:
        """Each seat's token hash (sha256 hex), by seat."""
        with self._lock:
            return dict(self._tokens.get(UUID(str(game_id)), {}))

    def load_snapshot(self, game_id: UUID | str, code_version: str) -> Snapshot | None:
        """The game's snapshot if ``code_version`` wrote it; older code's state is ignored."""
        with self._lock:
            snapshot = self._snapshots.get(UUID(str(game_id)))
        return snapshot if snapshot is not None and snapshot.code_version == code_version else None

    def load_head(self, game_id: UUID | str,
                  after_version: int = 0) -> tuple[list[StoredEvent], checkpoints.Checkpoint | None]:
        """``load``, and the game's checkpoint, as of one moment."""
        with self._lock:
            events = self.load(game_id, after_version)
            return events, self._checkpoints.get(UUID(str(game_id))) if events else None

    def game_row(self, game_id: UUID | str) -> dict[str, Any] | None:
        """The game's read-model row (the ``games`` table's columns), or None."""
        with self._lock:
            row = self._rows.get(UUID(str(game_id)))
            return dict(row) if row is not None else None

    def checkpoint(self, game_id: UUID | str) -> checkpoints.Checkpoint | None:
        """The game's signed head, when the store has a checkpoint key."""
        with self._lock:
            return self._checkpoints.get(UUID(str(game_id)))

"""What every event store does with an append before it writes it.

An append's events are stamped with one moment (the store's clock: the
hash covers it, so the database's clock cannot pick it later), numbered
from the expected version, each hashed and chained to the one before
(``service.chain``, chain ``CURRENT``), and the game's new head is signed
(``service.checkpoints``) when the store has a checkpoint key. That is the
same for every store, so it is done here once (``AppendingStore.append``),
and a store only writes the ``Chained`` append it is handed (``_write``):
the PostgreSQL store in one statement, the memory store in its tables.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from service import checkpoints
from service.chain import ZERO_HASH, event_hash_2
from service.checkpoints import Checkpoint
from service.events import Append, ConcurrencyError, StoredEvent
from service.writes import by_kind


@dataclass(frozen=True)
class Chained:
    """An append made ready to write: ``rows`` are its events, each a dict of
    ``type``, ``schema_version``, ``data``, ``metadata``, ``at`` (ISO 8601)
    and ``hash``, for versions ``append.expected_version + 1``, ...; ``at``
    is the append's moment, and ``checkpoint`` the game's new signed head."""

    append: Append
    at: datetime
    rows: list[dict[str, Any]]
    checkpoint: Checkpoint | None

    @property
    def last_version(self) -> int:
        return self.append.expected_version + len(self.rows)

    @property
    def writes(self) -> list[tuple[type, list[Any]]]:
        """What the append writes beside its events, its checkpoint among
        them, grouped by kind (``service.writes.by_kind``)."""
        signed = [self.checkpoint] if self.checkpoint is not None else []
        return by_kind([*self.append.writes, *signed])


def chained(append: Append, at: datetime, checkpoint_key: bytes | None) -> Chained:
    """``append``'s events at ``at``, hashed in a chain from its previous hash, and its signed head."""
    previous = append.previous_hash or ZERO_HASH
    rows = []
    for version, event in enumerate(append.events, start=append.expected_version + 1):
        when = (event.recorded_at or at).isoformat()
        metadata = dict(append.metadata if event.metadata is None else event.metadata)
        previous = event_hash_2(append.game_id, version, event.type, event.schema_version, event.data, metadata,
                                when, previous)
        rows.append({"type": event.type, "schema_version": event.schema_version, "data": event.data,
                     "metadata": metadata, "at": when, "hash": previous})
    checkpoint = None
    if checkpoint_key is not None:
        checkpoint = checkpoints.sign(checkpoint_key, append.game_id, append.expected_version + len(rows), previous)
    return Chained(append, at, rows, checkpoint)


def utc_now() -> datetime:
    return datetime.now(UTC)


class AppendingStore(ABC):
    """The part of an event store every store shares: ``append`` times,
    chains and signs, then hands the result to the store's ``_write``.

    ``checkpoint_key`` signs each game's new head (None: no checkpoints);
    ``clock`` is the time events are recorded at (a test may move it)."""

    def __init__(self, checkpoint_key: bytes | None = None, clock: Callable[[], datetime] = utc_now):
        self._checkpoint_key = checkpoint_key
        self._clock = clock

    def now(self) -> datetime:
        """The store's clock (``service.events.EventStore.now``)."""
        return self._clock()

    def append(self, append: Append) -> list[StoredEvent]:
        """As ``service.events.EventStore.append``: all of it or, with
        ``ConcurrencyError``, nothing; at the append's own moment, if it has one."""
        return self._write(chained(append, append.at or self._clock(), self._checkpoint_key))

    def append_each(self, appends: Sequence[Append]) -> list[list[StoredEvent] | ConcurrencyError]:
        """As ``service.events.EventStore.append_each``: each append, or the
        ``ConcurrencyError`` that kept it from being written."""
        if len({a.game_id for a in appends}) < len(appends):
            raise ValueError("append_each takes one append per game")
        return self._write_each([chained(a, a.at or self._clock(), self._checkpoint_key) for a in appends])

    @abstractmethod
    def _write(self, append: Chained) -> list[StoredEvent]:
        """Write the whole append, or raise ``ConcurrencyError`` having written nothing."""

    def _write_each(self, appends: Sequence[Chained]) -> list[list[StoredEvent] | ConcurrencyError]:
        """Write each append by itself; a store that can write them together does."""
        return [_written(self._write, append) for append in appends]


def _written(write: Callable[[Chained], list[StoredEvent]],
             append: Chained) -> list[StoredEvent] | ConcurrencyError:
    try:
        return write(append)
    except ConcurrencyError as conflict:
        return conflict

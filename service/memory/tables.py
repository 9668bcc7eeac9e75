"""The tables the memory adapters share, as PostgreSQL's adapters share a database.

One ``Tables`` holds every game's events and the records written with
them, behind one lock: an append holds it until all of it is written, so a
reader sees an append whole or not at all, as a PostgreSQL transaction
shows it. ``now`` is the clock of the whole "database" (events' times,
idempotency keys' and tickets' expiry); a test may move it.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any
from uuid import UUID

from domain.rating import Rating

from service.appends import utc_now
from service.checkpoints import Checkpoint
from service.events import StoredEvent
from service.writes import Snapshot

#: How long an idempotency key is kept (the PostgreSQL store's, migration 0005).
IDEMPOTENCY_LIFETIME = timedelta(days=1)


@dataclass(frozen=True)
class Filed:
    """An idempotency record: the request's hash, what it did, and when it is forgotten."""

    request_hash: str
    response: Any
    expires_at: datetime


@dataclass(frozen=True)
class DeadlineRow:
    """A game's deadline (``service.deadlines``), and until when a claimer holds it."""

    due_at: datetime
    claimed_until: datetime | None = None

    def leased(self, until: datetime) -> DeadlineRow:
        return DeadlineRow(self.due_at, until)

    def held(self, now: datetime) -> bool:
        """Whether a claimer holds the row at ``now``."""
        return self.claimed_until is not None and self.claimed_until > now


def next_due(rows: Iterable[DeadlineRow], now: datetime) -> datetime | None:
    """The earliest ``due_at`` of ``rows`` that no claimer holds at ``now``; None for none."""
    return min((row.due_at for row in rows if not row.held(now)), default=None)


@dataclass(frozen=True)
class KeptPlayer:
    """A row of ``players``: the player's name, its token's hash, when it registered."""

    name: str
    token_hash: str
    created_at: datetime


@dataclass(frozen=True)
class HeldSeat:
    """A row of ``player_seats``: the seat, and when its game was created."""

    seat: int
    created_at: datetime


@dataclass(frozen=True)
class WaitingRow:
    """A row of ``pairings``: a player waiting to be paired, and until when a pairer holds it."""

    player: UUID
    name: str
    pool: str
    ask: dict[str, Any]
    rating: float
    created_at: datetime
    claimed_until: datetime | None = None
    held: bool = False  # set aside by a claim that could not pair it


@dataclass(frozen=True)
class PairingResult:
    """A row of ``pairing_results``: how a pairing ended (no game: cancelled)."""

    player: UUID
    ask: dict[str, Any]
    game: UUID | None
    seat: int | None
    ended_at: datetime


@dataclass
class Tables:
    now: Callable[[], datetime] = utc_now
    lock: threading.RLock = field(default_factory=threading.RLock)
    log: list[StoredEvent] = field(default_factory=list)  # every event, in position order
    appends: int = 0  # how many appends were written: each one's number makes its positions
    events: dict[UUID, list[StoredEvent]] = field(default_factory=dict)
    filed: dict[tuple[UUID, str, str], Filed] = field(default_factory=dict)  # (scope, actor, key hash)
    tokens: dict[UUID, dict[int, str]] = field(default_factory=dict)
    rows: dict[UUID, dict[str, Any]] = field(default_factory=dict)  # the games read model, without ids
    snapshots: dict[UUID, Snapshot] = field(default_factory=dict)
    checkpoints: dict[UUID, Checkpoint] = field(default_factory=dict)
    ticket_uses: dict[str, datetime] = field(default_factory=dict)  # MAC: when it expires
    deadlines: dict[UUID, DeadlineRow] = field(default_factory=dict)
    computer_turns: dict[UUID, DeadlineRow] = field(default_factory=dict)  # the games awaiting a computer
    players: dict[UUID, KeptPlayer] = field(default_factory=dict)
    player_tokens: dict[str, UUID] = field(default_factory=dict)  # token hash: player (a unique key)
    player_seats: dict[tuple[UUID, UUID], HeldSeat] = field(default_factory=dict)  # (player, game)
    transfers: dict[str, tuple[UUID, datetime]] = field(default_factory=dict)  # code hash: player, expiry
    ratings: dict[tuple[UUID, str], Rating] = field(default_factory=dict)  # (player, variant)
    pairings: dict[UUID, WaitingRow] = field(default_factory=dict)
    pairing_results: dict[UUID, PairingResult] = field(default_factory=dict)
    rating_changes: dict[tuple[UUID, str, int], UUID] = field(default_factory=dict)  # (player, variant, games): game

"""Deadlines: when each game's running clock runs out, kept where every
worker of every ``casino serve`` on the database finds the due ones.

The deadline itself is the domain's (``GameType.deadline(state)``: the
running seat's time from the events' times). The service keeps it in a
table written with the append that sets, moves or clears it
(a ``Deadline`` among its writes, ``service.writes``), so the table never says other than
the events; a game without a clock writes nothing there, but for the row
the answer that completes a finished game's rematch leaves, a second on,
for the time keeper to look whether the new game was made
(``service.games.REMATCH_LOOK``). ``DeadlineClaims``
is the port the ``TimeKeeper`` (``service.timeouts``) claims due ones from:
PostgreSQL's (``service.postgres.deadlines``) with ``FOR UPDATE SKIP
LOCKED`` and a lease, memory's (``service.memory.deadlines``) under the
tables' lock.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Protocol
from uuid import UUID


@dataclass(frozen=True)
class Deadline:
    """A game's deadline after an append: when its running seat's time is up,
    or None when no clock runs (the row goes)."""

    at: datetime | None


class DeadlineClaims(Protocol):
    """Where the due deadlines are claimed."""

    def claim(self, now: datetime, limit: int, lease: timedelta) -> list[UUID]:
        """Up to ``limit`` games whose deadline is before ``now`` (past: a seat has until
        its deadline, inclusive) and not
        leased to another claimer, earliest first, each now leased to this
        caller until ``now + lease``. A claim is only a hint of whom to look
        at: the time-out is decided on the game itself."""

    def next_due(self, now: datetime) -> datetime | None:
        """When the earliest deadline that no other claimer holds at ``now``
        falls (``now`` or before: one is due to be claimed), or None for
        none: when the time keeper has to claim next, unless a deadline is
        written meanwhile."""

    def due_at(self, game_id: UUID) -> datetime | None:
        """The game's deadline as kept; None for none."""

    def forget(self, game_id: UUID, due_at: datetime) -> None:
        """Drop the game's deadline if it is still ``due_at`` (a kept deadline
        the game turns out not to have: its events were written by other means)."""

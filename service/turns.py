"""Computer turns: the games that await one of their computer seats, kept
where every worker of every ``casino serve`` on the database finds them.

Whether a computer is awaited is the domain's to say
(``GameType.computer_command``); the service writes it with the append that
makes it so, or that ends it (a ``ComputerToMove`` among the append's
writes, ``service.writes``), so the table never says other than the events.
A game without computer seats writes nothing there.

The computers then act after the command that called them has been
answered, the way a time-out comes: the time keeper (``service.timeouts``)
claims the awaited games through ``TurnClaims`` (PostgreSQL's with ``FOR
UPDATE SKIP LOCKED`` and a lease, ``service.postgres.turns``; memory's under
the tables' lock, ``service.memory.turns``) and appends each computer's
command with the version it looked at as its ``If-Match``
(``service.computer``): the version check, not the claim, makes it happen
once, and a restarted service finds the games where it left them.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Protocol
from uuid import UUID


@dataclass(frozen=True)
class ComputerToMove:
    """After an append: a computer seat is awaited since ``at`` (the
    append's time), or None when the game awaits no computer (the row goes)."""

    at: datetime | None


class TurnClaims(Protocol):
    """Where the games that await a computer are claimed."""

    def claim(self, now: datetime, limit: int, lease: timedelta) -> list[UUID]:
        """Up to ``limit`` games that await a computer and are not leased to
        another claimer (``now`` is the claimer's time), longest waiting
        first, each now leased to this caller until ``now + lease``. A claim
        is only a hint of whom to look at: the computer decides on the game
        itself."""

    def next_due(self, now: datetime) -> datetime | None:
        """Since when the longest waiting game that awaits a computer and is
        not leased to another claimer at ``now`` has waited; None for none:
        whether there is a computer's turn to claim."""

    def due_at(self, game_id: UUID) -> datetime | None:
        """Since when the game awaits a computer, as kept; None for not."""

    def forget(self, game_id: UUID, due_at: datetime) -> None:
        """Drop the game's row if it is still the one written at ``due_at``
        (kept, though the game awaits no computer: its events were written by
        other means)."""

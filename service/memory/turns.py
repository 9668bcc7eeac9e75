"""Claiming the games that await a computer in memory (``service.turns``), as
``service.postgres.turns`` claims them in the database: the rows are the
tables' ``computer_turns``, written by the memory store's appends."""

from __future__ import annotations

from datetime import datetime, timedelta
from uuid import UUID

from service.memory.tables import Tables, next_due


class MemoryTurns:
    def __init__(self, tables: Tables):
        self.tables = tables

    def claim(self, now: datetime, limit: int, lease: timedelta) -> list[UUID]:
        t = self.tables
        with t.lock:
            free = sorted((row.due_at, game) for game, row in t.computer_turns.items()
                          if not row.held(now))
            claimed = [game for _, game in free[:limit]]
            for game in claimed:
                t.computer_turns[game] = t.computer_turns[game].leased(now + lease)
            return claimed

    def next_due(self, now: datetime) -> datetime | None:
        with self.tables.lock:
            return next_due(self.tables.computer_turns.values(), now)

    def due_at(self, game_id: UUID) -> datetime | None:
        with self.tables.lock:
            row = self.tables.computer_turns.get(game_id)
            return row.due_at if row is not None else None

    def forget(self, game_id: UUID, due_at: datetime) -> None:
        with self.tables.lock:
            row = self.tables.computer_turns.get(game_id)
            if row is not None and row.due_at == due_at:
                del self.tables.computer_turns[game_id]

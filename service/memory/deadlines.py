"""Claiming due deadlines in memory (``service.deadlines``), as
``service.postgres.deadlines`` claims them in the database: the rows are
the tables' ``deadlines``, written by the memory store's appends."""

from __future__ import annotations

from datetime import datetime, timedelta
from uuid import UUID

from service.memory.tables import Tables, next_due


class MemoryDeadlines:
    def __init__(self, tables: Tables):
        self.tables = tables

    def claim(self, now: datetime, limit: int, lease: timedelta) -> list[UUID]:
        t = self.tables
        with t.lock:
            free = sorted((row.due_at, game) for game, row in t.deadlines.items()
                          if row.due_at < now and not row.held(now))
            claimed = [game for _, game in free[:limit]]
            for game in claimed:
                t.deadlines[game] = t.deadlines[game].leased(now + lease)
            return claimed

    def next_due(self, now: datetime) -> datetime | None:
        with self.tables.lock:
            return next_due(self.tables.deadlines.values(), now)

    def due_at(self, game_id: UUID) -> datetime | None:
        with self.tables.lock:
            row = self.tables.deadlines.get(game_id)
            return row.due_at if row is not None else None

    def forget(self, game_id: UUID, due_at: datetime) -> None:
        with self.tables.lock:
            row = self.tables.deadlines.get(game_id)
            if row is not None and row.due_at == due_at:
                del self.tables.deadlines[game_id]

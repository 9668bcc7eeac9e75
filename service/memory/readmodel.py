"""The games read model in memory (``service.readmodel.ReadModel``), over
the ``Tables`` the memory event store writes its rows into."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any
from uuid import UUID

from service.events import GAME_COLUMNS, StoredEvent
from service.memory.tables import Tables
from service.readmodel import Cursor, GameFilter, Kept, Row, page_of


class MemoryReadModel:
    def __init__(self, tables: Tables):
        self.tables = tables

    def page(self, where: GameFilter, after: Cursor | None, limit: int) -> tuple[list[Row], Cursor | None]:
        """Up to ``limit`` rows newest first, after ``after``; and the cursor
        of the next page, None when there is none."""
        with self.tables.lock:
            rows = [{"id": game, **row} for game, row in self.tables.rows.items() if where.matches(row)]
        rows.sort(key=lambda row: (row["created_at"], row["id"]), reverse=True)
        if after is not None:
            rows = [row for row in rows if (row["created_at"], row["id"]) < (after.created_at, after.id)]
        return page_of(rows[:limit + 1], limit)

    def game_ids(self) -> list[UUID]:
        """Every game with events, a row or a checkpoint, in id order."""
        t = self.tables
        with t.lock:
            return sorted(set(t.events) | set(t.rows) | set(t.checkpoints))

    def evidence(self, game_id: UUID) -> Kept:
        """The game's events, its row and its checkpoint, as of one moment."""
        t = self.tables
        with t.lock:
            row = t.rows.get(game_id)
            return list(t.events.get(game_id, [])), dict(row) if row is not None else None, t.checkpoints.get(game_id)

    def heads(self) -> list[dict[str, Any]]:
        """Every game's last version and its hash, in game id order."""
        with self.tables.lock:
            return [{"game_id": str(game), "version": events[-1].version, "head": events[-1].hash}
                    for game, events in sorted(self.tables.events.items()) if events]

    def rebuild(self, game_id: UUID, project: Callable[[Sequence[StoredEvent]], Mapping[str, Any]]) -> None:
        """Replace the game's row by ``project(events)``, from its events alone
        (under the lock, so no append comes between)."""
        with self.tables.lock:
            row = project(list(self.tables.events.get(game_id, [])))
            self.tables.rows[game_id] = {column: row[column] for column in GAME_COLUMNS}

    def delete_rows_without_events(self) -> int:
        """Remove the rows of games that have no events; how many were removed."""
        t = self.tables
        with t.lock:
            gone = [game for game in t.rows if not t.events.get(game)]
            for game in gone:
                del t.rows[game]
        return len(gone)


"""Ratings in memory (``service.ratings.Ratings``), over the ``Tables`` the
memory event store writes them into."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any
from uuid import UUID

from domain.rating import Rating

from service.memory.tables import Tables
from service.ratings import rating_row


class MemoryRatings:
    def __init__(self, tables: Tables):
        self.tables = tables

    def of(self, players: Sequence[str], variant: str) -> dict[str, Rating]:
        with self.tables.lock:
            kept = {p: self.tables.ratings.get((UUID(p), variant)) for p in players}
        return {p: rating for p, rating in kept.items() if rating is not None}

    def player_ratings(self, player_id: UUID) -> list[dict[str, Any]]:
        with self.tables.lock:
            kept = sorted((v, r) for (p, v), r in self.tables.ratings.items() if p == player_id)
        return [rating_row(variant, rating) for variant, rating in kept]

    def leaderboard(self, variant: str, after: int, limit: int) -> tuple[list[dict[str, Any]], int | None]:
        with self.tables.lock:
            ranked = sorted(((-r.rating, p), r) for (p, v), r in self.tables.ratings.items()
                            if v == variant and not r.provisional)
            names = {p: self.tables.players[p].name for (_, p), _ in ranked}
        page = ranked[after:after + limit]
        rows = [{"place": after + n + 1, "id": str(p), "name": names[p], **rating_row(variant, r)}
                for n, ((_, p), r) in enumerate(page)]
        return rows, after + limit if len(ranked) > after + limit else None

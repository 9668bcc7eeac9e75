"""Ratings in PostgreSQL (``service.ratings.Ratings``): the ``ratings``
table the event store's appends keep (migration 0012)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any
from uuid import UUID

from psycopg_pool import ConnectionPool

from domain.rating import PROVISIONAL_GAMES, Rating

from service.ratings import rating_row


class PostgresRatings:
    def __init__(self, pool: ConnectionPool):
        self._pool = pool

    def of(self, players: Sequence[str], variant: str) -> dict[str, Rating]:
        with self._pool.connection() as conn:
            rows = conn.execute("SELECT player_id, rating, deviation, games FROM ratings"
                                " WHERE player_id = ANY(%s::uuid[]) AND variant = %s",
                                (list(players), variant)).fetchall()
        return {str(player): Rating(rating, deviation, games) for player, rating, deviation, games in rows}

    def player_ratings(self, player_id: UUID) -> list[dict[str, Any]]:
        with self._pool.connection() as conn:
            rows = conn.execute("SELECT variant, rating, deviation, games FROM ratings WHERE player_id = %s"
                                " ORDER BY variant", (player_id,)).fetchall()
        return [rating_row(variant, Rating(rating, deviation, games)) for variant, rating, deviation, games in rows]

    def leaderboard(self, variant: str, after: int, limit: int) -> tuple[list[dict[str, Any]], int | None]:
        with self._pool.connection() as conn:
            rows = conn.execute("SELECT r.player_id, p.name, r.rating, r.deviation, r.games FROM ratings r"
                                " JOIN players p ON p.id = r.player_id"
                                " WHERE r.variant = %s AND r.games >= %s"
                                " ORDER BY r.rating DESC, r.player_id OFFSET %s LIMIT %s",
                                (variant, PROVISIONAL_GAMES, after, limit + 1)).fetchall()
        page = [{"place": after + n + 1, "id": str(player), "name": name,
                 **rating_row(variant, Rating(rating, deviation, games))}
                for n, (player, name, rating, deviation, games) in enumerate(rows[:limit])]
        return page, after + limit if len(rows) > limit else None

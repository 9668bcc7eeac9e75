"""Players in PostgreSQL (``service.players.Players``): the ``players``
table, and ``player_seats``, which the event store's appends keep
(migration 0009)."""

from __future__ import annotations

from uuid import UUID

from psycopg.rows import dict_row
from psycopg_pool import ConnectionPool

from service.players import Player
from service.readmodel import Cursor, Row, page_of


class PostgresPlayers:
    def __init__(self, pool: ConnectionPool):
        self._pool = pool

    def add(self, player: Player, token_hash: str) -> tuple[Player, str]:
        """Insert the player unless one has its id; then whichever is kept
        (a concurrent retry inserts nothing and reads the first's row)."""
        with self._pool.connection() as conn:
            conn.execute("INSERT INTO players (id, name, token_hash) VALUES (%s, %s, %s)"
                         " ON CONFLICT (id) DO NOTHING", (player.id, player.name, token_hash))
            kept = conn.execute("SELECT name, token_hash FROM players WHERE id = %s", (player.id,)).fetchone()
        assert kept is not None  # inserted, or there before: players are never removed
        return Player(player.id, kept[0]), kept[1]

    def find(self, player_id: UUID) -> Player | None:
        with self._pool.connection() as conn:
            row = conn.execute("SELECT name FROM players WHERE id = %s", (player_id,)).fetchone()
        return Player(player_id, row[0]) if row else None

    def player_for_token(self, token_hash: str) -> UUID | None:
        with self._pool.connection() as conn:
            row = conn.execute("SELECT id FROM players WHERE token_hash = %s", (token_hash,)).fetchone()
        return row[0] if row else None

    def token_hash_of(self, player_id: UUID) -> str | None:
        with self._pool.connection() as conn:
            row = conn.execute("SELECT token_hash FROM players WHERE id = %s", (player_id,)).fetchone()
        return row[0] if row else None

    def seat_of(self, player_id: UUID, game_id: UUID) -> int | None:
        with self._pool.connection() as conn:
            row = conn.execute("SELECT seat FROM player_seats WHERE player_id = %s AND game_id = %s",
                               (player_id, game_id)).fetchone()
        return row[0] if row else None

    def turns(self, player_id: UUID) -> list[Row]:
        with self._pool.connection() as conn:
            return conn.cursor(row_factory=dict_row).execute(
                "SELECT g.id, g.version, g.deadline, s.created_at FROM player_seats s JOIN games g ON g.id = s.game_id"
                " WHERE s.player_id = %s AND s.seat = ANY(g.awaiting) ORDER BY s.created_at DESC, s.game_id DESC",
                (player_id,)).fetchall()

    def games(self, player_id: UUID, statuses: tuple[str, ...], after: Cursor | None,
              limit: int) -> tuple[list[Row], Cursor | None]:
        """One query: the player's seats, joined to their games' rows, by the listing's index."""
        with self._pool.connection() as conn:
            rows = conn.cursor(row_factory=dict_row).execute(
                "SELECT g.id, g.variant, g.status, s.seat, g.version, g.awaiting, g.deadline, s.created_at"
                " FROM player_seats s JOIN games g ON g.id = s.game_id"
                " WHERE s.player_id = %(player)s"
                " AND (%(statuses)s::text[] IS NULL OR g.status = ANY(%(statuses)s::text[]))"
                " AND (%(at)s::timestamptz IS NULL OR (s.created_at, s.game_id) < (%(at)s, %(id)s::uuid))"
                " ORDER BY s.created_at DESC, s.game_id DESC LIMIT %(limit)s",
                {"player": player_id, "statuses": list(statuses) or None,
                 "at": after.created_at if after else None, "id": after.id if after else None,
                 "limit": limit + 1}).fetchall()
        return page_of(rows, limit)

"""Players in PostgreSQL (``service.players.Players``): the ``players``
table, and ``player_seats``, which the event store's appends keep
(migration 0009)."""

from __future__ import annotations

from uuid import UUID

from psycopg_pool import ConnectionPool

from service.players import Player


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

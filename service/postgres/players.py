"""Players in PostgreSQL (``service.players.Players``): the ``players``
table, and ``player_seats``, which the event store's appends keep
(migration 0009), and ``player_transfers``, the transfer codes (migration 0013)."""

from __future__ import annotations

from datetime import datetime, timedelta
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

    def replace_token(self, player_id: UUID, token_hash: str) -> None:
        with self._pool.connection() as conn:
            conn.execute("UPDATE players SET token_hash = %s WHERE id = %s", (token_hash, player_id))
            conn.execute("DELETE FROM player_transfers WHERE player_id = %s", (player_id,))

    def add_transfer(self, player_id: UUID, code_hash: str, lifetime: timedelta) -> datetime:
        with self._pool.connection() as conn:
            conn.execute("DELETE FROM player_transfers WHERE player_id = %s", (player_id,))
            row = conn.execute("INSERT INTO player_transfers (code_hash, player_id, expires_at)"
                               " VALUES (%s, %s, now() + %s) RETURNING expires_at",
                               (code_hash, player_id, lifetime)).fetchone()
        assert row is not None
        return row[0]

    def claim(self, code_hash: str, token_hash: str) -> Player | None:
        """One statement: of claims of one code at once, the first deletes
        its row and the others then find none."""
        with self._pool.connection() as conn:
            row = conn.execute(
                "WITH spent AS (DELETE FROM player_transfers WHERE code_hash = %s AND expires_at > now()"
                " RETURNING player_id)"
                " UPDATE players SET token_hash = %s FROM spent WHERE players.id = spent.player_id"
                " RETURNING players.id, players.name", (code_hash, token_hash)).fetchone()
        return Player(row[0], row[1]) if row else None

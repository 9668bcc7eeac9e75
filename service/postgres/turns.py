"""Claiming the games that await a computer in PostgreSQL (``service.turns``).

The rows are written by the appends (``service.postgres.store``); here they
are claimed as deadlines are (``service.postgres.deadlines``): the rows no
one else holds, longest waiting first, locked with ``FOR UPDATE SKIP
LOCKED`` and leased for a moment in the same statement. A row is due as
soon as it is written, so the claim asks only whether it is leased. On a
Citus cluster, as the deadlines' claim, on each shard where it lies.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from uuid import UUID

from psycopg_pool import ConnectionPool

from service.postgres.deadlines import claim_each_shard, next_due
from service.postgres.database import on_citus
from service.postgres.nodes import Nodes

_CLAIM = """
    UPDATE computer_turns SET claimed_until = %(now)s + %(lease)s
    WHERE game_id = ANY(ARRAY(
        SELECT game_id FROM computer_turns
        WHERE claimed_until IS NULL OR claimed_until <= %(now)s
        ORDER BY due_at LIMIT %(limit)s
        FOR UPDATE SKIP LOCKED))
    RETURNING game_id, due_at
"""


class PostgresTurns:
    def __init__(self, pool: ConnectionPool):
        self._pool = pool
        self._nodes = Nodes(pool.conninfo if isinstance(pool.conninfo, str) else pool.conninfo())

    def claim(self, now: datetime, limit: int, lease: timedelta) -> list[UUID]:
        with self._pool.connection() as conn:
            if on_citus(self._pool):
                rows = claim_each_shard(conn, self._nodes, "computer_turns", now, limit, lease, due=False)
            else:
                rows = conn.execute(_CLAIM, {"now": now, "lease": lease, "limit": limit}).fetchall()
        return [game_id for game_id, _ in sorted(rows, key=lambda row: row[1])]

    def next_due(self, now: datetime) -> datetime | None:
        with self._pool.connection() as conn:
            return next_due(conn, self._nodes, "computer_turns", now, citus=on_citus(self._pool))

    def due_at(self, game_id: UUID) -> datetime | None:
        with self._pool.connection() as conn:
            row = conn.execute("SELECT due_at FROM computer_turns WHERE game_id = %s", (game_id,)).fetchone()
        return row[0] if row else None

    def forget(self, game_id: UUID, due_at: datetime) -> None:
        with self._pool.connection() as conn:
            conn.execute("DELETE FROM computer_turns WHERE game_id = %s AND due_at = %s", (game_id, due_at))

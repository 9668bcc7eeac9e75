"""Claiming due deadlines in PostgreSQL (``service.deadlines``).

The rows are written by the appends (``service.postgres.store``); here they
are claimed: the due rows no one else holds, earliest first, are locked
with ``FOR UPDATE SKIP LOCKED`` (claimers never wait for one another, nor
take the same row at once) and leased for a moment in the same statement,
which commits at once. Claims always go to the pool on ``DATABASE_URL``,
the primary.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from uuid import UUID

from psycopg_pool import ConnectionPool

# The rows to lease are found by their keys (``= ANY(ARRAY(...))``): a join
# with the subquery, once psycopg prepares the statement and PostgreSQL
# plans it for any parameters, became a scan of the whole table per claim.
_CLAIM = """
    UPDATE deadlines SET claimed_until = %(now)s + %(lease)s
    WHERE game_id = ANY(ARRAY(
        SELECT game_id FROM deadlines
        WHERE due_at < %(now)s AND (claimed_until IS NULL OR claimed_until <= %(now)s)
        ORDER BY due_at LIMIT %(limit)s
        FOR UPDATE SKIP LOCKED))
    RETURNING game_id, due_at
"""


class PostgresDeadlines:
    def __init__(self, pool: ConnectionPool):
        self._pool = pool

    def claim(self, now: datetime, limit: int, lease: timedelta) -> list[UUID]:
        with self._pool.connection() as conn:
            rows = conn.execute(_CLAIM, {"now": now, "lease": lease, "limit": limit}).fetchall()
        return [game_id for game_id, _ in sorted(rows, key=lambda row: row[1])]

    def due_at(self, game_id: UUID) -> datetime | None:
        with self._pool.connection() as conn:
            row = conn.execute("SELECT due_at FROM deadlines WHERE game_id = %s", (game_id,)).fetchone()
        return row[0] if row else None

    def forget(self, game_id: UUID, due_at: datetime) -> None:
        with self._pool.connection() as conn:
            conn.execute("DELETE FROM deadlines WHERE game_id = %s AND due_at = %s", (game_id, due_at))

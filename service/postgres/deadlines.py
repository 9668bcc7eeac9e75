"""Claiming due deadlines in PostgreSQL (``service.deadlines``).

The rows are written by the appends (``service.postgres.store``); here they
are claimed: the due rows no one else holds, earliest first, are locked
with ``FOR UPDATE SKIP LOCKED`` (claimers never wait for one another, nor
take the same row at once) and leased for a moment in the same statement,
which commits at once. Claims always go to the pool on ``DATABASE_URL``,
the primary.

On a Citus cluster the deadlines are distributed by their game, and a
``FOR UPDATE`` over every shard is refused: the same claim is run on each
shard of ``deadlines``, on the node that holds it, by
``run_command_on_shards`` (each shard's claim committed there; a node that
does not answer has its games claimed at a later tick). Each shard's
claim takes at most its share of ``limit``, rounded up. The time-outs
are then decided as any command is, routed to the node of their game.
"""

from __future__ import annotations

import json
import logging
from datetime import datetime, timedelta
from uuid import UUID

import psycopg
from psycopg import sql
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


# The claim on one shard (run_command_on_shards writes its name for %1$s),
# its rows as one JSON array: the function returns one value a shard.
_CLAIM_SHARD = """
    WITH claimed AS (
        UPDATE %1$s SET claimed_until = {now} + {lease}
        WHERE game_id = ANY(ARRAY(
            SELECT game_id FROM %1$s
            WHERE {due} (claimed_until IS NULL OR claimed_until <= {now})
            ORDER BY due_at LIMIT {limit}
            FOR UPDATE SKIP LOCKED))
        RETURNING game_id, due_at)
    SELECT coalesce(json_agg(json_build_array(game_id, due_at)), '[]') FROM claimed
"""

_log = logging.getLogger("casino.deadlines")


class PostgresDeadlines:
    def __init__(self, pool: ConnectionPool):
        self._pool = pool

    def claim(self, now: datetime, limit: int, lease: timedelta) -> list[UUID]:
        with self._pool.connection() as conn:
            if getattr(self._pool, "citus", False):
                rows = claim_each_shard(conn, "deadlines", now, limit, lease)
            else:
                rows = conn.execute(_CLAIM, {"now": now, "lease": lease, "limit": limit}).fetchall()
        return [game_id for game_id, _ in sorted(rows, key=lambda row: row[1])]

    def due_at(self, game_id: UUID) -> datetime | None:
        with self._pool.connection() as conn:
            row = conn.execute("SELECT due_at FROM deadlines WHERE game_id = %s", (game_id,)).fetchone()
        return row[0] if row else None

    def forget(self, game_id: UUID, due_at: datetime) -> None:
        with self._pool.connection() as conn:
            conn.execute("DELETE FROM deadlines WHERE game_id = %s AND due_at = %s", (game_id, due_at))


def claim_each_shard(conn: psycopg.Connection, table: str, now: datetime, limit: int, lease: timedelta, *,
                     due: bool = True) -> list[tuple[UUID, datetime]]:
    """The claim of ``table`` (``deadlines``, or ``computer_turns``, whose
    rows are due once written: ``due`` False), run on each of its shards
    where it lies (see the module's docstring): the rows claimed, with their ``due_at``."""
    (shards,) = conn.execute("SELECT count(*) FROM pg_dist_shard WHERE logicalrelid = %s::regclass",
                             (table,)).fetchone() or (1,)
    command = sql.SQL(_CLAIM_SHARD).format(now=sql.Literal(now), lease=sql.Literal(lease),
                                           limit=sql.Literal(-(-limit // max(shards, 1))),
                                           due=sql.SQL("due_at < {} AND").format(sql.Literal(now)) if due
                                           else sql.SQL("")).as_string(conn)
    rows = []
    for shard, success, result in conn.execute("SELECT shardid, success, result"
                                               " FROM run_command_on_shards(%s, %s)", (table, command)):
        if not success:
            _log.warning("deadlines of shard %s not claimed this time: %s", shard, result)
            continue
        rows += [(UUID(game), datetime.fromisoformat(due)) for game, due in json.loads(result)]
    return rows

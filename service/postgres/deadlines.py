"""Claiming due deadlines in PostgreSQL (``service.deadlines``).

The rows are written by the appends (``service.postgres.store``); here they
are claimed: the due rows no one else holds, earliest first, are locked
with ``FOR UPDATE SKIP LOCKED`` (claimers never wait for one another, nor
take the same row at once) and leased for a moment in the same statement,
which commits at once. Claims always go to the pool on ``DATABASE_URL``,
the primary.

On a Citus cluster the deadlines are distributed by their game, and a
``FOR UPDATE`` over every shard is refused: the same claim is run on each
shard of ``deadlines`` (the shard's own table, by its name), on the node
that holds it, one statement a node for all its shards, sent on a
connection kept to each node (``service.postgres.nodes``: a local
statement there, committed there; a node that does not answer has its
games claimed at a later tick). Where the shards are is read again every
few seconds (``nodes.LAYOUT_SECONDS``), and at once after a node refused
its claim: a shard moved meanwhile is not found where it was, and is
claimed where it is from the next tick on. Each shard's claim takes at
most its share of ``limit``, rounded up. Citus' ``run_command_on_shards`` did the same,
but on new connections each time: a backend started on every node per
claim, several claims a second in each ``casino serve`` worker, which
cost the nodes more than the commands did (docs/scaling.md). A shard
being moved may be claimed in its old place: the lease is then lost with
the old copy, and the game claimed again later; a time-out is decided
once however often it is claimed (the command's version check). The
time-outs are then decided as any command is, routed to the node of
their game.

When to claim next (``next_due``) is a read of the same rows: the earliest
deadline (or computer's turn) no claimer holds, from the index on
``due_at``; on a cluster, asked of each node for its shards in one
statement, as the claim is.
"""

from __future__ import annotations

import logging
from datetime import datetime, timedelta
from uuid import UUID

import psycopg
from psycopg import sql
from psycopg_pool import ConnectionPool

from service.postgres.database import on_citus
from service.postgres.nodes import Nodes

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


# The claim on one shard (its name for {shard}), with its share of the limit.
_CLAIM_SHARD = """
    {name} AS (
        UPDATE {shard} SET claimed_until = %(now)s + %(lease)s
        WHERE game_id = ANY(ARRAY(
            SELECT game_id FROM {shard}
            WHERE {due} (claimed_until IS NULL OR claimed_until <= %(now)s)
            ORDER BY due_at LIMIT %(limit)s
            FOR UPDATE SKIP LOCKED))
        RETURNING game_id, due_at)
"""

# When to claim next: the earliest row no claimer holds (the index on
# due_at read in order, up to the first row not leased), of a table or a shard.
_NEXT_DUE = "SELECT min(due_at) FROM {table} WHERE claimed_until IS NULL OR claimed_until <= %(now)s"

_log = logging.getLogger("casino.deadlines")


class PostgresDeadlines:
    def __init__(self, pool: ConnectionPool):
        self._pool = pool
        self._nodes = Nodes(pool.conninfo if isinstance(pool.conninfo, str) else pool.conninfo())

    def claim(self, now: datetime, limit: int, lease: timedelta) -> list[UUID]:
        with self._pool.connection() as conn:
            if on_citus(self._pool):
                rows = claim_each_shard(conn, self._nodes, "deadlines", now, limit, lease)
            else:
                rows = conn.execute(_CLAIM, {"now": now, "lease": lease, "limit": limit}).fetchall()
        return [game_id for game_id, _ in sorted(rows, key=lambda row: row[1])]

    def next_due(self, now: datetime) -> datetime | None:
        with self._pool.connection() as conn:
            return next_due(conn, self._nodes, "deadlines", now, citus=on_citus(self._pool))

    def due_at(self, game_id: UUID) -> datetime | None:
        with self._pool.connection() as conn:
            row = conn.execute("SELECT due_at FROM deadlines WHERE game_id = %s", (game_id,)).fetchone()
        return row[0] if row else None

    def forget(self, game_id: UUID, due_at: datetime) -> None:
        with self._pool.connection() as conn:
            conn.execute("DELETE FROM deadlines WHERE game_id = %s AND due_at = %s", (game_id, due_at))


def _placements(conn: psycopg.Connection, table: str) -> dict[int, list[int]]:
    """The shards of ``table``, by the group of the node that holds each."""
    placed: dict[int, list[int]] = {}
    for group, shard in conn.execute("SELECT p.groupid, s.shardid FROM pg_dist_shard s"
                                     " JOIN pg_dist_placement p USING (shardid)"
                                     " WHERE s.logicalrelid = %s::regclass AND p.shardstate = 1"
                                     " ORDER BY s.shardid", (table,)):
        placed.setdefault(group, []).append(shard)
    return placed


def claim_each_shard(conn: psycopg.Connection, nodes: Nodes, table: str, now: datetime, limit: int,
                     lease: timedelta, *, due: bool = True) -> list[tuple[UUID, datetime]]:
    """The claim of ``table`` (``deadlines``, or ``computer_turns``, whose
    rows are due once written: ``due`` False), run on each of its shards
    where it lies (see the module's docstring): the rows claimed, with their ``due_at``."""
    condition = sql.SQL("due_at < %(now)s AND" if due else "")

    def claims(ids: list[int]) -> sql.Composed:
        parts = [sql.SQL(_CLAIM_SHARD).format(name=sql.Identifier(f"c{shard}"), due=condition,
                                              shard=sql.Identifier(f"{table}_{shard}")) for shard in ids]
        reads = [sql.SQL("SELECT game_id, due_at FROM {}").format(sql.Identifier(f"c{shard}")) for shard in ids]
        return sql.SQL("WITH {} {}").format(sql.SQL(",").join(parts), sql.SQL(" UNION ALL ").join(reads))

    shards = _shards(conn, nodes, table)
    params = {"now": now, "lease": lease, "limit": -(-limit // max(sum(map(len, shards.values())), 1))}
    return _on_each_node(conn, nodes, table, {group: claims(ids) for group, ids in shards.items()},
                         params)


def next_due(conn: psycopg.Connection, nodes: Nodes, table: str, now: datetime, *,
             citus: bool) -> datetime | None:
    """The earliest ``due_at`` of ``table`` (``deadlines`` or
    ``computer_turns``) that no claimer holds at ``now``; on a cluster,
    asked of each node, every shard it holds in one statement."""
    if not citus:
        found = conn.execute(sql.SQL(_NEXT_DUE).format(table=sql.Identifier(table)), {"now": now}).fetchone()
        return found[0] if found else None
    statements = {group: sql.SQL(" UNION ALL ").join(
        sql.SQL(_NEXT_DUE).format(table=sql.Identifier(f"{table}_{shard}")) for shard in ids)
        for group, ids in _shards(conn, nodes, table).items()}
    return min((due for (due,) in _on_each_node(conn, nodes, table, statements, {"now": now}) if due is not None),
               default=None)


def _shards(conn: psycopg.Connection, nodes: Nodes, table: str) -> dict[int, list[int]]:
    """The shards of ``table`` by the group of their node, as read at most ``nodes.LAYOUT_SECONDS`` ago."""
    placed: dict[int, list[int]] = nodes.remembered(("placements", table), lambda: _placements(conn, table))
    return placed


def _on_each_node(conn: psycopg.Connection, nodes: Nodes, table: str, statements: dict[int, sql.Composed],
                  params: dict) -> list[tuple]:
    """Every row of each node's statement about its shards of ``table``. A
    node that does not answer, or refuses (a shard moved, say), is left
    out this time, and where the shards are is read again."""
    rows = []
    for group, found in nodes.run(conn, {group: (statement, params)
                                         for group, statement in statements.items()}).items():
        if found is None:
            _log.warning("%s of node group %s not read this time", table, group)
            nodes.forget(("placements", table))
            continue
        rows += found
    return rows

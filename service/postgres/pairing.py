"""Pairing in PostgreSQL (``service.pairing.Pairings``): the ``pairings``
and ``pairing_results`` tables (migration 0015). An ask is kept by one
insert, ended with a game by the append that creates the game
(``service.postgres.store``), or cancelled here, in one transaction that
removes it and writes its result; claims lock with ``FOR UPDATE SKIP
LOCKED`` and lease in the same statement, on the primary."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime, timedelta
from uuid import UUID

import psycopg
from psycopg.types.json import Jsonb
from psycopg_pool import ConnectionPool

from service import jsonio
from service.postgres.database import on_citus
from service.pairing import Ask, Pairing, Waiting

# The asks of the pool of the oldest ask nobody holds, oldest first, those
# set aside by a claim before included (the rows found by their keys, as the
# deadlines' claim does).
_CLAIM = """
    UPDATE pairings SET claimed_until = %(now)s + %(lease)s, held = false
    WHERE id = ANY(ARRAY(
        SELECT id FROM pairings
        WHERE pool = (SELECT pool FROM pairings WHERE claimed_until IS NULL OR claimed_until <= %(now)s
                      ORDER BY created_at LIMIT 1)
          AND (held OR claimed_until IS NULL OR claimed_until <= %(now)s)
        ORDER BY created_at LIMIT %(limit)s
        FOR UPDATE SKIP LOCKED))
    RETURNING id, player_id, name, ask, rating, created_at
"""

# On Citus the pairings are a reference table: the claim, a write, is a
# transaction on every node, committed in two phases, even when it finds
# nothing, several times a second in every ``casino serve`` worker. Whether
# there is anything to claim is a read of the node's own copy.
_NONE_TO_CLAIM = "SELECT NOT EXISTS (SELECT 1 FROM pairings WHERE claimed_until IS NULL OR claimed_until <= %(now)s)"

_CANCEL = """
    WITH gone AS (DELETE FROM pairings WHERE id = %(id)s RETURNING id, player_id, ask)
    INSERT INTO pairing_results (pairing_id, player_id, ask, ended_at)
    SELECT id, player_id, ask, %(at)s FROM gone
"""


def _json(value: object) -> Jsonb:
    return Jsonb(value, dumps=jsonio.dumps)


class PostgresPairings:
    def __init__(self, pool: ConnectionPool):
        self._pool = pool

    def ask(self, waiting: Waiting) -> bool:
        with self._pool.connection() as conn:
            try:
                conn.execute("INSERT INTO pairings (id, player_id, name, pool, ask, rating, created_at)"
                             " VALUES (%s, %s, %s, %s, %s, %s, %s)",
                             (waiting.id, waiting.player, waiting.name, waiting.ask.pool,
                              _json(waiting.ask.to_dict()), waiting.rating, waiting.since))
            except psycopg.errors.UniqueViolation:
                return False
        return True

    def find(self, pairing_id: UUID) -> Pairing | None:
        with self._pool.connection() as conn:
            row = conn.execute(
                "SELECT player_id, ask, true, NULL::uuid, NULL::integer FROM pairings WHERE id = %(id)s"
                " UNION ALL SELECT player_id, ask, false, game_id, seat FROM pairing_results"
                " WHERE pairing_id = %(id)s", {"id": pairing_id}).fetchone()
        if row is None:
            return None
        player, ask, waiting, game, seat = row
        status = "waiting" if waiting else "paired" if game is not None else "cancelled"
        return Pairing(pairing_id, player, Ask.from_dict(ask), status, game, seat)

    def cancel(self, pairing_id: UUID, at: datetime) -> Pairing | None:
        with self._pool.connection() as conn:
            conn.execute(_CANCEL, {"id": pairing_id, "at": at})
        return self.find(pairing_id)

    def claim(self, now: datetime, limit: int, lease: timedelta) -> list[Waiting]:
        with self._pool.connection() as conn:
            if on_citus(self._pool) and (conn.execute(_NONE_TO_CLAIM, {"now": now}).fetchone()
                                                         or (False,))[0]:
                return []
            rows = conn.execute(_CLAIM, {"now": now, "lease": lease, "limit": limit}).fetchall()
        return sorted((Waiting(id_, player, name, Ask.from_dict(ask), rating, since)
                       for id_, player, name, ask, rating, since in rows), key=lambda w: w.since)

    def release(self, pairing_ids: Sequence[UUID], until: datetime) -> None:
        if not pairing_ids:
            return
        with self._pool.connection() as conn:
            conn.execute("UPDATE pairings SET claimed_until = %s, held = true WHERE id = ANY(%s)",
                         (until, list(pairing_ids)))

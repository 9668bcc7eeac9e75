"""Stream tickets' single use, recorded where every worker sees it.

A ticket (``service.auth``) is signed, not stored, when it is issued; its
use is recorded here: the insert of the ticket's MAC succeeds once, in
whichever worker, and is kept until the ticket expires by the database's
own clock, after which no worker accepts the ticket anyway. Uses of expired
tickets are swept on the way.
"""

from __future__ import annotations

from psycopg_pool import ConnectionPool

_USE = """
    WITH expired AS (DELETE FROM stream_ticket_uses WHERE expires_at <= now())
    INSERT INTO stream_ticket_uses (ticket, expires_at)
    SELECT %(mac)s, to_timestamp(%(expires)s) WHERE to_timestamp(%(expires)s) > now()
    ON CONFLICT (ticket) DO NOTHING
    RETURNING 1
"""


class TicketUses:
    def __init__(self, pool: ConnectionPool):
        self._pool = pool

    def use_once(self, mac: str, expires: int) -> bool:
        """Record the use of a ticket: True the first time, False ever after
        (and for a ticket the database's clock says has expired)."""
        with self._pool.connection() as conn:
            return conn.execute(_USE, {"mac": mac, "expires": expires}).fetchone() is not None

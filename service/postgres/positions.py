"""Global positions: ``(origin * 2**32 + xid) * PER_TRANSACTION + n``.

An event's ``position`` is made from the id of the transaction that
appended it (``pg_current_xact_id()``) and ``n``, counting that
transaction's events from 1 in the order they were inserted: the store's
append statement assigns it (``service.postgres.store``). Why
positions follow transaction ids is told in ``service.postgres.store``
("Global order").

On a Citus cluster each node numbers its own transactions, so a position
also names the node whose transaction id it holds, its *origin* (the node
group, ``pg_dist_local_group``, of the node the service's connection ran
the append on; 0 on plain PostgreSQL and on a coordinator): the origin
takes the bits above the transaction id's 32 (``service.events.ORIGIN_SHIFT``),
so each origin's positions lie in a band of their own, ordered as that
node's transactions are. The connection's origin is a session setting,
``casino.origin``, which the pool sets on each new connection to a Citus
node (``service.postgres.database``); unset, it counts as 0, and positions
are what they always were.
"""

#: Events one transaction may append: positions keep 16 bits for them.
PER_TRANSACTION = 65536

#: Transaction ids of one origin: the origin is counted above them.
PER_ORIGIN = 2**32

#: The session setting holding the connection's origin (unset: 0).
ORIGIN_SETTING = "casino.origin"

#: SQL: the appending transaction's id, with its origin above it.
TRANSACTION = (f"(pg_current_xact_id()::text::bigint"
               f" + coalesce(nullif(current_setting('{ORIGIN_SETTING}', true), '')::bigint, 0) * {PER_ORIGIN})")


def position(xid: int, n: int) -> int:
    """The position of the ``n``-th event (from 1) appended by transaction
    ``xid`` (its origin counted in, as ``TRANSACTION`` makes it)."""
    return xid * PER_TRANSACTION + n

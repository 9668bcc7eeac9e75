"""Global positions: ``xid * PER_TRANSACTION + n``.

An event's ``position`` is made from the id of the transaction that
appended it (``pg_current_xact_id()``) and ``n``, counting that
transaction's events from 1 in the order they were inserted: the store's
append statement assigns it (``service.postgres.store``). Why
positions follow transaction ids is told in ``service.postgres.store``
("Global order").
"""

#: Events one transaction may append: positions keep 16 bits for them.
PER_TRANSACTION = 65536


def position(xid: int, n: int) -> int:
    """The position of the ``n``-th event (from 1) appended by transaction ``xid``."""
    return xid * PER_TRANSACTION + n

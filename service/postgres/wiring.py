"""The PostgreSQL wiring: the service's adapters over one connection pool.

``adapters(config, checkpoint_key)`` opens the pool (``DATABASE_URL``, the
pool's sizes and timeouts, and the statements' limits, from the app's
configuration) and gives ``service.bootstrap`` the event store, the read
model, stream tickets' uses and the listener of live streams' notifications
over it. Each gunicorn worker builds its own, after the fork.
"""

from __future__ import annotations

import atexit
import functools
import os
from collections.abc import Mapping
from typing import Any

import psycopg
from psycopg_pool import ConnectionPool

from service.bootstrap import Adapters
from service.postgres import notifications
from service.postgres.database import Limits, open_pool
from service.postgres.deadlines import PostgresDeadlines
from service.postgres.readmodel import PostgresReadModel
from service.postgres.store import PostgresEventStore
from service.postgres.tickets import TicketUses


def adapters(config: Mapping[str, Any], checkpoint_key: bytes | None) -> Adapters:
    """Open the pool and build every adapter over it; the pool is closed by
    ``Adapters.close``, or when the process exits."""
    pool = pool_for(config)
    url = config["DATABASE_URL"]
    atexit.register(pool.close)
    token = config.get("OPERATOR_TOKEN")
    # Without an operator token (never so under `casino serve`), a key of
    # this process's own: other processes' notifications then do not open.
    seal = notifications.Seal(notifications.key_from(token) if token else os.urandom(32))

    def close() -> None:
        pool.close()
        atexit.unregister(pool.close)

    return Adapters(
        store=PostgresEventStore(pool, checkpoint_key, seal),
        read_model=PostgresReadModel(pool),
        ticket_uses=TicketUses(pool),
        deadlines=PostgresDeadlines(pool),
        listen=functools.partial(notifications.listen, url, seal),
        ready=functools.partial(_answers, pool),
        close=close,
        # A lost or saturated database is transient: clients retry.
        unavailable=(psycopg.OperationalError,),
    )


def pool_for(config: Mapping[str, Any]) -> ConnectionPool:
    """A pool on ``DATABASE_URL``, of the configured sizes, whose connections
    have the configured limits on how long a statement may wait and run."""
    url = config.get("DATABASE_URL")
    if not url:
        raise RuntimeError(
            "DATABASE_URL is not configured; `casino serve` provides one "
            "(an embedded PostgreSQL when the variable is unset)"
        )
    return open_pool(url, min_size=config["DB_POOL_MIN_SIZE"], max_size=config["DB_POOL_MAX_SIZE"],
                     timeout=config["DB_POOL_TIMEOUT"],
                     limits=Limits(config["DB_LOCK_TIMEOUT"], config["DB_STATEMENT_TIMEOUT"]))


def _answers(pool: ConnectionPool, timeout: float) -> bool:
    """Whether a pooled connection answers ``SELECT 1`` within ``timeout`` seconds."""
    try:
        with pool.connection(timeout=timeout) as conn:
            conn.execute("SELECT 1")
    except psycopg.Error:
        return False
    return True

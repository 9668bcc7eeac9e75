"""The PostgreSQL wiring: the service's adapters over one connection pool.

``adapters(config, checkpoint_key)`` opens the pool (``DATABASE_URL``, the
pool's sizes and timeouts, and the statements' limits, from the app's
configuration) and gives ``service.bootstrap`` the event store, the read
model, stream tickets' uses and the listener of live streams' notifications
over it. Each gunicorn worker builds its own, after the fork.

With ``REPLICA_URL`` (``CASINO_REPLICA_URL``: one standby, or several in
libpq's multi-host form), it opens a pool on each standby too, for the
reads that may come from one (``service.replicas``). A standby's pool waits
at most ``REPLICA_POOL_TIMEOUT`` seconds for a connection: past that the
primary answers.
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
from service.replicas import Replica
from service.postgres import notifications
from service.postgres.database import (REPLICA_DEFAULTS, Limits, Pool, each_server, open_pool, primary_url,
                                       with_defaults, worker_lost)
from service.postgres.deadlines import PostgresDeadlines
from service.postgres.turns import PostgresTurns
from service.postgres.players import PostgresPlayers
from service.postgres.pairing import PostgresPairings
from service.postgres.ratings import PostgresRatings
from service.postgres.readmodel import PostgresReadModel
from service.postgres.store import PostgresEventStore
from service.postgres.tickets import TicketUses


def adapters(config: Mapping[str, Any], checkpoint_key: bytes | None) -> Adapters:
    """Open the pool and build every adapter over it; the pool is closed by
    ``Adapters.close``, or when the process exits."""
    pool = pool_for(config)
    url = primary_url(config["DATABASE_URL"])
    standbys = replica_pools(config)
    pools = [pool, *standbys]
    for each in pools:
        atexit.register(each.close)
    token = config.get("OPERATOR_TOKEN")
    # Without an operator token (never so under `casino serve`), a key of
    # this process's own: other processes' notifications then do not open.
    seal = notifications.Seal(notifications.key_from(token) if token else os.urandom(32))

    def close() -> None:
        for each in pools:
            each.close()
            atexit.unregister(each.close)

    return Adapters(
        store=PostgresEventStore(pool, checkpoint_key, seal),
        read_model=PostgresReadModel(pool),
        ticket_uses=TicketUses(pool),
        deadlines=PostgresDeadlines(pool),
        computer_turns=PostgresTurns(pool),
        players=PostgresPlayers(pool),
        pairings=PostgresPairings(pool),
        ratings=PostgresRatings(pool),
        listen=functools.partial(notifications.listen_everywhere, url, seal),
        ready=functools.partial(_answers, pool),
        close=close,
        # A lost or saturated database is transient: clients retry. So is a
        # server that no longer takes writes (a primary fenced or demoted in
        # a failover: the store drops its connection, the pool finds the new one).
        unavailable=(psycopg.OperationalError, psycopg.errors.ReadOnlySqlTransaction),
        # On Citus, a worker lost in the middle of a transaction (service.postgres.database).
        unavailable_when={psycopg.errors.InternalError_: worker_lost},
        on_new_server=pool.on_new_server,
        replicas=tuple(Replica(PostgresEventStore(standby, checkpoint_key, seal), PostgresReadModel(standby))
                       for standby in standbys),
    )


def pool_for(config: Mapping[str, Any]) -> Pool:
    """A pool on ``DATABASE_URL`` (the primary, wherever it is now:
    ``primary_url``), of the configured sizes, whose connections have the
    configured limits on how long a statement may wait and run."""
    url = config.get("DATABASE_URL")
    if not url:
        raise RuntimeError(
            "DATABASE_URL is not configured; `casino serve` provides one "
            "(an embedded PostgreSQL when the variable is unset)"
        )
    return open_pool(primary_url(url), min_size=config["DB_POOL_MIN_SIZE"], max_size=config["DB_POOL_MAX_SIZE"],
                     timeout=config["DB_POOL_TIMEOUT"],
                     limits=Limits(config["DB_LOCK_TIMEOUT"], config["DB_STATEMENT_TIMEOUT"]))


#: Seconds a read waits for a connection to a standby before the primary answers it.
REPLICA_POOL_TIMEOUT = 0.25


def replica_pools(config: Mapping[str, Any]) -> list[Pool]:
    """A pool on each standby ``REPLICA_URL`` names (none without it), of the
    primary's sizes and limits."""
    url = config.get("REPLICA_URL")
    if not url:
        return []
    return [open_pool(with_defaults(server, REPLICA_DEFAULTS), min_size=1, max_size=config["DB_POOL_MAX_SIZE"],
                      timeout=REPLICA_POOL_TIMEOUT,
                      limits=Limits(config["DB_LOCK_TIMEOUT"], config["DB_STATEMENT_TIMEOUT"]),
                      name=f"casino-replica-{n}")
            for n, server in enumerate(each_server(url))]


def _answers(pool: ConnectionPool, timeout: float) -> bool:
    """Whether a pooled connection answers ``SELECT 1`` within ``timeout`` seconds."""
    try:
        with pool.connection(timeout=timeout) as conn:
            conn.execute("SELECT 1")
    except psycopg.Error:
        return False
    return True

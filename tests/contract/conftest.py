"""Both wirings' adapters behind one fixture, so each contract test runs on each.

``contract`` gives a ``Harness``: the event store, the read model and the
ticket uses of one wiring, over one database (PostgreSQL's, or one set of
memory ``Tables``), and the things a test needs that only the database's
owner can do (let idempotency keys expire, read a games row, make a store
that signs checkpoints). The PostgreSQL case is marked ``postgres``: ``make
test-fast`` leaves it out, and with it the embedded server.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any
from uuid import UUID

import psycopg
import pytest

from service.auth import TicketUses
from service.deadlines import DeadlineClaims
from service.turns import TurnClaims
from service.events import EventStore
from service.memory.deadlines import MemoryDeadlines
from service.memory.turns import MemoryTurns
from service.memory.pairing import MemoryPairings
from service.memory.players import MemoryPlayers
from service.memory.ratings import MemoryRatings
from service.memory.readmodel import MemoryReadModel
from service.memory.store import MemoryEventStore
from service.memory.tables import IDEMPOTENCY_LIFETIME, Tables
from service.memory.tickets import MemoryTicketUses
from service.pairing import Pairings
from service.players import Players
from service.ratings import Ratings
from service.readmodel import ReadModel


@dataclass
class Harness:
    store: EventStore
    read_model: ReadModel
    ticket_uses: TicketUses
    expire_keys: Callable[[UUID], None]
    games_row: Callable[[UUID], dict[str, Any] | None]
    signing: Callable[[bytes], EventStore]  # a store over the same database that signs checkpoints
    players: Players
    deadlines: DeadlineClaims
    ratings: Ratings
    pairings: Pairings
    computer_turns: TurnClaims


def _memory() -> Harness:
    now = [datetime.now(UTC)]
    tables = Tables(now=lambda: now[0])

    def expire_keys(game: UUID) -> None:
        now[0] += IDEMPOTENCY_LIFETIME + timedelta(seconds=1)

    def games_row(game: UUID) -> dict[str, Any] | None:
        row = tables.rows.get(game)
        return {"id": game, **row} if row is not None else None

    return Harness(MemoryEventStore(tables), MemoryReadModel(tables), MemoryTicketUses(tables), expire_keys,
                   games_row, lambda key: MemoryEventStore(tables, key), MemoryPlayers(tables),
                   MemoryDeadlines(tables), MemoryRatings(tables), MemoryPairings(tables), MemoryTurns(tables))


def _postgres(pool, database_url: str) -> Harness:
    from service.postgres.deadlines import PostgresDeadlines
    from service.postgres.turns import PostgresTurns
    from service.postgres.pairing import PostgresPairings
    from service.postgres.players import PostgresPlayers
    from service.postgres.ratings import PostgresRatings
    from service.postgres.readmodel import PostgresReadModel
    from service.postgres.store import PostgresEventStore
    from service.postgres.tickets import TicketUses as PostgresTicketUses

    def expire_keys(game: UUID) -> None:
        with psycopg.connect(database_url, autocommit=True) as conn:
            conn.execute("UPDATE idempotency SET expires_at = now() - interval '1 second' WHERE game_id = %s",
                         (game,))

    def games_row(game: UUID) -> dict[str, Any] | None:
        with psycopg.connect(database_url) as conn:
            cursor = conn.execute("SELECT * FROM games WHERE id = %s", (game,))
            row = cursor.fetchone()
            return dict(zip([c.name for c in cursor.description], row)) if row else None

    return Harness(PostgresEventStore(pool), PostgresReadModel(pool), PostgresTicketUses(pool), expire_keys,
                   games_row, lambda key: PostgresEventStore(pool, key), PostgresPlayers(pool),
                   PostgresDeadlines(pool), PostgresRatings(pool), PostgresPairings(pool), PostgresTurns(pool))


@pytest.fixture(scope="module")
def contract_pool(own_database_url):
    """A pool on a database of the module's own: the read model's tests see every game in it."""
    from service.postgres.database import open_pool

    with open_pool(own_database_url, max_size=4) as pool:
        yield pool


@pytest.fixture(params=["memory", pytest.param("postgres", marks=pytest.mark.postgres)])
def contract(request) -> Harness:
    if request.param == "memory":
        return _memory()
    return _postgres(request.getfixturevalue("contract_pool"), request.getfixturevalue("own_database_url"))

"""Both event stores behind one fixture, so each contract test runs on each.

``contract`` gives a ``Harness``: the store, and the two things a test
needs that only the store's owner can do (let idempotency keys expire, read
the games row). The PostgreSQL case is marked ``postgres``: ``make
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

from service.memory_store import IDEMPOTENCY_LIFETIME, MemoryEventStore


@dataclass
class Harness:
    store: Any
    expire_keys: Callable[[UUID], None]
    games_row: Callable[[UUID], dict[str, Any] | None]


def _memory() -> Harness:
    now = [datetime.now(UTC)]
    store = MemoryEventStore(now=lambda: now[0])

    def expire_keys(game: UUID) -> None:
        now[0] += IDEMPOTENCY_LIFETIME + timedelta(seconds=1)

    return Harness(store, expire_keys, store.game_row)


def _postgres(store, database_url: str) -> Harness:
    def expire_keys(game: UUID) -> None:
        with psycopg.connect(database_url, autocommit=True) as conn:
            conn.execute("UPDATE idempotency SET expires_at = now() - interval '1 second' WHERE game_id = %s",
                         (game,))

    def games_row(game: UUID) -> dict[str, Any] | None:
        with psycopg.connect(database_url) as conn:
            cursor = conn.execute("SELECT * FROM games WHERE id = %s", (game,))
            row = cursor.fetchone()
            return dict(zip([c.name for c in cursor.description], row)) if row else None

    return Harness(store, expire_keys, games_row)


@pytest.fixture(params=["memory", pytest.param("postgres", marks=pytest.mark.postgres)])
def contract(request) -> Harness:
    if request.param == "memory":
        return _memory()
    return _postgres(request.getfixturevalue("store"), request.getfixturevalue("database_url"))

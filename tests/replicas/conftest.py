"""One primary and its hot standby for the whole session: they take some
seconds to make, so every test of failover, durability and replica reads
shares them, each on games of its own. ``pair`` hands each test a whole
pair: if the test before failed the primary over, the old primary rejoins
as the standby first (``Pair.make_whole``), so the last failover of a
session costs no rejoin."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.conftest import directory_for_postgres
from tests.replicas.pair import Pair


@pytest.fixture(scope="session")
def servers() -> Iterator[Pair]:
    with directory_for_postgres() as directory:
        started = Pair.start(directory)
        try:
            yield started
        finally:
            started.remove()


@pytest.fixture
def pair(servers) -> Pair:
    """The session's pair, whole: a primary, and a standby replaying asynchronously."""
    servers.make_whole()
    return servers

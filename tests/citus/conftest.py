"""A Citus cluster for the tests that run casino on one: ``citus_url``.

One coordinator and two workers (``tests.citus.cluster``) from Citus built
once per machine (``tests.citus.build``), started once per session by the
first test that asks, migrated there (``casino migrate`` on a coordinator
distributes the tables: migration 0014), and removed at the end. Where
Citus cannot be built (no source, no compiler), these tests skip, saying why.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

import migrations
from tests.citus import build
from tests.citus.cluster import Cluster
from tests.conftest import directory_for_postgres


@pytest.fixture(scope="session")
def citus_cluster() -> Iterator[Cluster]:
    try:
        programs = build.programs()
    except build.Unavailable as why:
        pytest.skip(str(why))
    with directory_for_postgres() as directory:
        cluster = Cluster(directory / "citus", programs)
        try:
            cluster.start()
            migrations.upgrade(cluster.url)
            yield cluster
        finally:
            cluster.remove()


@pytest.fixture(scope="session")
def citus_url(citus_cluster) -> str:
    return citus_cluster.url

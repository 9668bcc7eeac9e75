"""A Citus cluster for the tests that run casino on one: ``citus_url``.

One coordinator and two workers (``tests.citus.cluster``) from Citus built
once per machine (``tests.citus.build``), started once per session by the
first test that asks (``citus_cluster``, in tests/conftest.py, which the
API tier shares), migrated there (``casino migrate`` on a coordinator
distributes the tables: migration 0014), and removed at the end. Where
Citus cannot be built (no source, no compiler), these tests skip, saying why.
"""

from __future__ import annotations

import pytest


@pytest.fixture(scope="session")
def citus_url(citus_cluster) -> str:
    return citus_cluster.url

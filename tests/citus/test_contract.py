"""The adapters' contract (tests/contract) on a Citus cluster: the event
store, each kind of write, the seats and the lobby, the players, through
the coordinator, every table distributed by its game (migration 0014).

Left out: the global log read by a single position, and the horizon
(``read_all(position)``, ``horizon``): on a cluster appended to through
several nodes, each node numbers its own positions, and a reader's place
is a cursor of one position per node (``service.events.Cursor``), tested
in ``test_global_order``.
"""

from __future__ import annotations

import pytest

from service.postgres.database import open_pool
from tests.contract.conftest import _postgres
from tests.contract.test_event_store import *  # noqa: F403 - each test, collected again here
from tests.contract.test_players import *  # noqa: F403
from tests.contract.test_seats_and_lobby import *  # noqa: F403
from tests.contract.test_writes import *  # noqa: F403

del test_read_all_pages_through_every_game_in_global_order  # noqa: F821 - by cursor: test_global_order
del test_the_horizon_is_past_every_event_appended_and_read_settles_below_it  # noqa: F821
del test_positions_are_consecutive_within_an_append_and_leave_a_gap_before_the_next  # noqa: F821


@pytest.fixture(scope="module")
def citus_pool(citus_url):
    with open_pool(citus_url, max_size=4) as pool:
        yield pool


@pytest.fixture
def contract(citus_pool, citus_url):
    return _postgres(citus_pool, citus_url)

"""Casino on a Citus cluster: every table of a game distributed by the game
and co-located, and each command's statements run on the one node that
holds the game, as Citus' own counters (``citus_stat_counters``) count them.
"""

from __future__ import annotations

import psycopg
import pytest

from service.web.app import close_app, create_app
from tests.api.conftest import Api
from tests.conftest import TEST_SETTINGS

#: The tables of a game, each with the column it is distributed by.
BY_GAME = {"games": "id", "events": "game_id", "idempotency": "game_id", "seat_tokens": "game_id",
           "snapshots": "game_id", "checkpoints": "game_id", "deadlines": "game_id", "player_seats": "game_id"}


def test_the_migrations_distribute_each_table_of_a_game_by_the_game_and_co_locate_them(citus_url):
    with psycopg.connect(citus_url) as conn:
        rows = conn.execute("SELECT logicalrelid::text, column_to_column_name(logicalrelid, partkey),"
                            " partmethod, colocationid FROM pg_dist_partition").fetchall()
        nodes = conn.execute("SELECT DISTINCT p.nodename FROM pg_dist_shard_placement p"
                             " JOIN pg_dist_shard s USING (shardid)"
                             " WHERE s.logicalrelid = 'events'::regclass").fetchall()
    tables = {table: (column, method, colocation) for table, column, method, colocation in rows}
    assert {table: tables[table][0] for table in BY_GAME} == BY_GAME
    assert len({tables[table][2] for table in BY_GAME}) == 1  # one co-location group
    assert tables["players"][1] == "n"  # a reference table: a copy on every node
    assert len(nodes) == 2  # the events' shards spread over both workers


@pytest.fixture
def citus_api(citus_url):
    """The API on the cluster's coordinator, without the deadline keeper
    (whose claim reads every shard: a read of its own, not a command's)."""
    app = create_app({**TEST_SETTINGS, "DATABASE_URL": citus_url, "KEEP_DEADLINES": False})
    try:
        yield Api(app, app.test_client())
    finally:
        close_app(app)


def _counters(url: str) -> tuple[int, int]:
    with psycopg.connect(url) as conn:
        return conn.execute("SELECT query_execution_single_shard, query_execution_multi_shard"
                            " FROM citus_stat_counters WHERE name = current_database()").fetchone()


def test_whole_games_are_played_with_every_command_on_the_node_of_its_game(citus_api, citus_url):
    games = [citus_api.create(players=players, variant=variant, first_dealer=0)
             for players, variant in ((2, "cassino"), (3, "cassino"), (4, "partnership"))]
    single, multi = _counters(citus_url)

    for n, game in enumerate(games):
        citus_api.play(game, seed=n)

    after_single, after_multi = _counters(citus_url)
    assert after_multi == multi  # no statement of any command ran on more than one shard
    assert after_single > single
    for game in games:
        view = citus_api.view(game)
        assert view["status"] == "finished"
        verified = citus_api.get(f"{game.url}/verify", token=TEST_SETTINGS["OPERATOR_TOKEN"])
        assert verified.status_code == 200 and verified.get_json()["ok"], verified.get_json()

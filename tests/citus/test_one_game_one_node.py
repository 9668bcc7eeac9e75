"""Casino on a Citus cluster: every table of a game distributed by the game
and co-located, and each command's statements run on the one node that
holds the game, as Citus' own counters (``citus_stat_counters``) count them,
and as its log of the statements it sends to each node says (a keyed
creation's, whose key is filed with the game).
"""

from __future__ import annotations

import re
import secrets
import time
from functools import partial
from pathlib import Path

import psycopg
import pytest

from service.web.app import close_app, create_app
from tests.api.conftest import Api
from tests.citus.cluster import Cluster
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


#: A statement Citus sent to a node, as the coordinator's log says (the sending backend's pid, the node's
#: host: its socket's directory), as bench/citus.py reads it.
_ON_SERVER = re.compile(r"\[(\d+)\] DETAIL:  on server \S+@(\S+):\d+ connectionId")
#: The application name of the measured app's connections (Citus' own maintenance asks every node too).
_MEASURED = "casino-one-node-test"


class _Nodes:
    """Which nodes the statements of each request the app sends reach, from
    the coordinator's log (``citus.log_remote_commands``, on while in use)."""

    def __init__(self, cluster: Cluster):
        self.cluster = cluster
        self.log = Path(cluster.coordinator.pgdata) / "log"

    def __enter__(self) -> _Nodes:
        self.cluster.coordinator.configure(**{"citus.log_remote_commands": "on", "log_min_messages": "notice"})
        deadline = time.monotonic() + 10
        while self.cluster.coordinator.sql("SHOW citus.log_remote_commands")[0][0] != "on":  # reloaded
            assert time.monotonic() < deadline, "the coordinator did not take citus.log_remote_commands"
            time.sleep(0.05)
        return self

    def __exit__(self, *_) -> None:
        self.cluster.coordinator.configure(**{"citus.log_remote_commands": "off", "log_min_messages": "warning"})

    def reached(self, request) -> tuple[object, set[str]]:
        """``request()``'s answer, and the hosts its statements were sent to."""
        offset = self.log.stat().st_size
        answer = request()
        ours = {str(pid) for (pid,) in self.cluster.coordinator.sql(
            "SELECT pid FROM pg_stat_activity WHERE application_name = %s", (_MEASURED,), "casino")}
        with self.log.open(errors="replace") as text:
            text.seek(offset)
            return answer, {host for pid, host in _ON_SERVER.findall(text.read()) if pid in ours}


def test_a_keyed_creation_and_its_retry_reach_the_one_node_that_holds_the_game(citus_cluster):
    """The key's record lies with the game: before, it was filed under one id for every creation, on that
    id's shard, so a creation whose game was on the other worker wrote to both."""
    app = create_app({**TEST_SETTINGS, "DATABASE_URL": f"{citus_cluster.url}&application_name={_MEASURED}",
                      "KEEP_DEADLINES": False})
    api = Api(app, app.test_client())
    hosts = [str(node.socket) for node in citus_cluster.nodes]
    body = {"seats": [{"name": "Ann"}, {"open": True}]}
    held: set[int] = set()
    try:
        with _Nodes(citus_cluster) as nodes:
            for _ in range(32):  # until each worker holds one (n creations stay on one worker 1 time in 2**n)
                key = {"Idempotency-Key": secrets.token_urlsafe(16)}
                create = partial(api.post, "/v1/games", json=body, headers=key)
                first, reached = nodes.reached(create)
                assert first.status_code == 201, first.get_json()
                worker = citus_cluster.worker_of(first.get_json()["id"])
                assert reached == {hosts[worker]}, (first.get_json()["id"], reached)
                again, reached = nodes.reached(create)  # the retry: its append refused, the first answer read
                assert again.status_code == 201 and again.get_json() == first.get_json()
                assert reached == {hosts[worker]}
                held.add(worker)
                if held == {1, 2}:
                    break
    finally:
        close_app(app)
    assert held == {1, 2}

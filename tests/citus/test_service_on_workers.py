"""The service connected to the workers of a Citus cluster, not its
coordinator (docs/scaling.md, "Where the coordinator becomes the limit"):
the migrations run on the coordinator alone, and a service on a worker
plays the games of every worker, hears the moves made through another
node, decides time-outs and pairs players, its connections on the workers
alone."""

from __future__ import annotations

import time
import uuid
from collections import Counter
from datetime import UTC, datetime

import psycopg
import pytest

import migrations
from service.web.app import close_app, create_app
from service.web.current import services
from tests.api.conftest import ORDERED_DECK, Api
from tests.api.test_ratings import player
from tests.api.test_stream import Reader
from tests.citus.cluster import DATABASE, Cluster
from tests.citus.test_deadlines import clocked_game
from tests.citus.test_streams import held_by, play_one
from tests.conftest import TEST_SETTINGS

#: The application name of this module's services' connections, to find them on the nodes.
NAME = "casino-on-workers"


def on(url: str) -> str:
    return psycopg.conninfo.make_conninfo(url, application_name=NAME)


@pytest.fixture
def apps(citus_cluster: Cluster):
    """Makes services (no time keeper of their own) connected to the URLs given; closed after the test."""
    made = []

    def make(url: str, **settings) -> Api:
        app = create_app({**TEST_SETTINGS, "KEEP_DEADLINES": False, "DATABASE_URL": on(url), **settings})
        made.append(app)
        return Api(app, app.test_client())

    yield make
    for app in made:
        close_app(app)


def sessions(cluster: Cluster) -> list[int]:
    """How many connections of this module's services each node has, besides
    their live streams' listeners (which listen on every node: an append
    notifies on the node its service reached)."""
    return [node.sql("SELECT count(*) FROM pg_stat_activity WHERE application_name = %s"
                     " AND query NOT ILIKE 'LISTEN%%'", (NAME,), DATABASE)[0][0]
            for node in cluster.nodes]


def counters(cluster: Cluster) -> tuple[int, int]:
    """Citus' counts of statements run on one shard and on several, summed over
    the nodes (each counts the statements planned there)."""
    counted = [node.sql("SELECT query_execution_single_shard, query_execution_multi_shard FROM citus_stat_counters"
                        " WHERE name = %s", (DATABASE,), DATABASE)[0] for node in cluster.nodes]
    return sum(single for single, _ in counted), sum(multi for _, multi in counted)


def games_on_both_workers(api: Api, cluster: Cluster, each: int = 2, make=None) -> list:
    """Games made by ``make`` (a new one each call) until each worker holds ``each`` of them."""
    make = make or (lambda: api.create(players=2, first_dealer=0))
    games = []
    while min(Counter(cluster.worker_of(g.id if hasattr(g, "id") else g) for g in games).get(n, 0)
              for n in (1, 2)) < each:
        assert len(games) < 40, "forty games, and the workers did not each hold enough"
        games.append(make())
    return games


def test_migrations_run_on_the_coordinator_and_a_worker_only_checks_the_revision(citus_cluster):
    name = f"casino_rev_{uuid.uuid4().hex[:8]}"
    coordinator = citus_cluster.create_database(name)
    worker = citus_cluster.url_of([citus_cluster.nodes[1]], name)
    try:
        migrations.upgrade(coordinator, "0017")  # before the revision was on every node
        with pytest.raises(migrations.NotTheCoordinator, match="coordinator"):
            migrations.upgrade(worker)  # casino serve on a worker whose schema is behind: refused, nothing run
        assert migrations.current(coordinator) == "0017"

        migrations.upgrade(coordinator)
        assert migrations.current(worker) == migrations.head()  # read on the worker
        migrations.upgrade(worker)  # at the head: nothing to do, and no error
        assert migrations.citus_group(worker) == 1 and migrations.citus_group(coordinator) == 0
    finally:
        citus_cluster.drop_database(name)


def test_a_service_on_one_worker_plays_whole_games_held_on_either_worker(citus_cluster, apps):
    api = apps(citus_cluster.nodes[1].url(DATABASE))
    games = games_on_both_workers(api, citus_cluster)
    single, multi = counters(citus_cluster)

    for n, game in enumerate(games):
        api.play(game, seed=n)

    for game in games:
        assert api.view(game)["status"] == "finished"
        verified = api.get(f"{game.url}/verify", token=TEST_SETTINGS["OPERATOR_TOKEN"])
        assert verified.status_code == 200 and verified.get_json()["ok"], verified.get_json()
    after_single, after_multi = counters(citus_cluster)
    assert after_multi == multi and after_single > single  # each statement on one shard
    held, first, second = sessions(citus_cluster)
    assert (held, second) == (0, 0) and first > 0  # none through the coordinator, nor to the other worker


def test_a_service_on_both_workers_in_libpqs_multi_host_form(citus_cluster, apps):
    api = apps(citus_cluster.workers_url, DB_POOL_MIN_SIZE=4, DB_POOL_MAX_SIZE=4)
    games = games_on_both_workers(api, citus_cluster, each=1)
    for n, game in enumerate(games):
        api.play(game, seed=n)
        assert api.view(game)["status"] == "finished"
    coordinator, *workers = sessions(citus_cluster)
    assert coordinator == 0 and sum(workers) >= 4


def test_a_stream_served_through_one_worker_hears_moves_made_through_the_other(citus_cluster, apps):
    settings = {"STREAM_MAX_SECONDS": 30.0, "STREAM_POLL_SECONDS": 30.0, "STREAM_KEEPALIVE_SECONDS": 30.0}
    streamer = apps(citus_cluster.nodes[1].url(DATABASE), **settings)
    mover = apps(citus_cluster.nodes[2].url(DATABASE), **settings)
    # The game on the streamer's worker: its moves are routed there by the mover's node, which notifies.
    game = next(g for g in iter(lambda: mover.create(first_dealer=1), None)
                if held_by(citus_cluster.url, g.id) == str(citus_cluster.nodes[1].socket))
    mover.deal(game, ORDERED_DECK)
    so_far = mover.view(game)["version"]
    reader = Reader(streamer.client, f"{game.url}/events/stream?timeout=25",
                    headers={"Authorization": f"Bearer {game.tokens[0]}"})
    reader.wait_for(so_far)
    for _ in range(3):
        play_one(mover, game)
    last = mover.view(game)["version"]
    reader.wait_for(last, timeout=10)  # heard, long before the stream's first poll
    assert reader.versions() == list(range(1, last + 1))


def test_a_keeper_on_one_worker_decides_the_time_outs_of_games_on_both_once(citus_cluster, apps):
    api = apps(citus_cluster.nodes[2].url(DATABASE))
    games = games_on_both_workers(api, citus_cluster, make=lambda: clocked_game(api))
    keeper = services(api.app).keeper
    claimed: list[uuid.UUID] = []
    claim = keeper._claims.claim
    keeper._claims.claim = lambda *args: claimed.extend(found := claim(*args)) or found
    time.sleep(1.1)  # every seat 0's second lapses
    while keeper.tick():
        pass
    ours = Counter(str(game) for game in claimed if str(game) in games)
    assert ours == Counter(games)
    for game in games:
        view = api.get(f"/v1/games/{game}").get_json()
        assert (view["status"], view["result"]) == ("finished", "timed_out")


def test_a_keeper_on_one_worker_plans_its_next_look_for_the_earliest_deadline_of_either(citus_cluster, apps):
    api = apps(citus_cluster.nodes[1].url(DATABASE))
    claims = services(api.app).adapters.deadlines
    # Deadlines written by other means, one on each worker, before any a game can have.
    rows = {worker: next(g for g in iter(uuid.uuid4, None) if citus_cluster.worker_of(str(g)) == worker)
            for worker in (1, 2)}
    due = {1: datetime(2000, 1, 1, tzinfo=UTC), 2: datetime(1999, 1, 1, tzinfo=UTC)}
    now = datetime(2000, 6, 1, tzinfo=UTC)  # rows leased since by a keeper elsewhere would not count
    try:
        for worker, game in rows.items():
            citus_cluster.coordinator.sql("INSERT INTO deadlines (game_id, due_at) VALUES (%s, %s)",
                                          (game, due[worker]), DATABASE)
        assert claims.next_due(now) == due[2]  # on the other worker
        citus_cluster.coordinator.sql("DELETE FROM deadlines WHERE game_id = %s", (rows[2],), DATABASE)
        assert claims.next_due(now) == due[1]  # on its own
    finally:
        citus_cluster.coordinator.sql("DELETE FROM deadlines WHERE game_id = ANY(%s)", (list(rows.values()),),
                                      DATABASE)


def test_players_asking_through_different_workers_are_paired_by_a_pairer_on_a_worker(citus_cluster, apps):
    asking = [apps(citus_cluster.nodes[n].url(DATABASE)) for n in (1, 2)]
    pairer = apps(citus_cluster.workers_url)
    ann, bob = player(asking[0], "Ann"), player(asking[1], "Bob")
    clock = {"per_move_seconds": 97}  # a pool (variant, seats, clock, rated) of this test's alone
    asked = [api.post("/v1/pairing", json={"variant": "cassino", "clock": clock}, token=who[1])
             for api, who in zip(asking, (ann, bob))]
    assert [a.status_code for a in asked] == [202, 202], [a.get_json() for a in asked]
    deadline = time.monotonic() + 10
    while True:
        services(pairer.app).pairer.tick()
        shown = [api.get(a.get_json()["url"], token=who[1]).get_json()
                 for api, a, who in zip(asking, asked, (ann, bob))]
        if all(s["status"] == "paired" for s in shown) or time.monotonic() > deadline:
            break
    assert [s["status"] for s in shown] == ["paired", "paired"], shown
    assert shown[0]["game_id"] == shown[1]["game_id"]
    assert sorted(s["seat"] for s in shown) == [0, 1]
    assert sessions(citus_cluster)[0] == 0  # nothing through the coordinator

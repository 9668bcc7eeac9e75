"""The global log on a Citus cluster appended to through every node: each
node numbers the positions of its appends (their origin), wherever the
game's shard lies, and a reader pages with a cursor holding one position
per origin (``service.events.Cursor``), taking of each origin only what is
below its node's oldest running transaction (``store._settled``)."""

from __future__ import annotations

import threading
import uuid

import psycopg
import pytest

import migrations
from service.events import Append, Cursor, NewEvent, SeveralOrigins, origin_of
from service.postgres.database import open_pool
from service.postgres.positions import TRANSACTION
from service.postgres.store import PostgresEventStore
from service.web.app import close_app, create_app
from tests.citus.cluster import DATABASE
from tests.conftest import OPERATOR_TOKEN, TEST_SETTINGS

META = {"actor": "test"}


@pytest.fixture(scope="module")
def stores(citus_cluster):
    """An event store through each node: the coordinator (origin 0) and the two workers (1, 2)."""
    pools = [open_pool(node.url(DATABASE), max_size=4) for node in citus_cluster.nodes]
    try:
        yield [PostgresEventStore(pool) for pool in pools]
    finally:
        for pool in pools:
            pool.close()


def games_by_worker(url: str, each: int) -> dict[str, list[uuid.UUID]]:
    """``each`` new game ids whose shards lie on each worker, by the worker's name (its socket's directory)."""
    found: dict[str, list[uuid.UUID]] = {}
    with psycopg.connect(url) as conn:
        while len(found) < 2 or min(map(len, found.values())) < each:
            game = uuid.uuid4()
            (node,) = conn.execute("SELECT nodename FROM pg_dist_shard_placement WHERE shardid ="
                                   " get_shard_id_for_distribution_column('events', %s)", (game,)).fetchone()
            found.setdefault(node, []).append(game)
    assert len(found) == 2
    return {node: games[:each] for node, games in found.items()}


def games_on_each_worker(url: str, each: int) -> list[uuid.UUID]:
    """``each`` new game ids whose shards lie on the first worker, and as many on the second."""
    return [game for games in games_by_worker(url, each).values() for game in games]


def read_to_the_end(store: PostgresEventStore, cursor: Cursor) -> tuple[list, Cursor]:
    events: list = []
    while page := store.read_all(cursor, limit=500):
        events += page
        cursor = cursor.past(page)
    return events, cursor


def test_positions_name_the_node_that_appended_whichever_node_holds_the_game(citus_url, stores):
    for game in games_on_each_worker(citus_url, 1):
        previous = None
        # A game's appends may come through any node: the coordinator's, then each worker's.
        for origin, store in enumerate(stores):
            [stored] = store.append(Append(game, origin, [NewEvent("E", 1, {})], META, previous_hash=previous))
            previous = stored.hash
            assert origin_of(stored.position) == origin
            assert store.load(game)[-1].position == stored.position


def test_an_origin_waits_for_its_own_transaction_in_flight_and_the_others_go_on(citus_cluster, citus_url, stores):
    _, start = read_to_the_end(stores[0], Cursor())
    worker = citus_cluster.nodes[2]
    [first, second] = games_by_worker(citus_url, 2)[str(worker.socket)]
    with psycopg.connect(worker.url(DATABASE)) as older:
        # Through the second worker, a transaction that has its position, held open (on a
        # game of its own: one writing on the first worker's shards would hold that one back too).
        older.execute("SELECT set_config('casino.origin', '2', false)")
        (held,) = older.execute(
            "INSERT INTO events (position, game_id, version, type, schema_version, data, hash)"
            f" VALUES ({TRANSACTION} * 65536 + 1, %s, 1, 'InFlight', 1, '{{}}', repeat('0', 64))"
            " RETURNING position", (first,)).fetchone()
        # Later appends through the same worker, and through the first, commit first...
        [later] = stores[2].append(Append(second, 0, [NewEvent("Later", 1, {})], META))
        [other] = stores[1].append(Append(uuid.uuid4(), 0, [NewEvent("Other", 1, {})], META))
        # ...and the later game's next version through the first worker.
        [next_one] = stores[1].append(Append(second, 1, [NewEvent("Next", 1, {})], META, previous_hash=later.hash))
        assert origin_of(held) == origin_of(later.position) == 2 and held < later.position
        assert origin_of(next_one.position) == 1
        # The second worker's are held back while the older one may still commit below them; the
        # first worker's are read, but for the game's next version, which waits for its version before.
        seen, cursor = read_to_the_end(stores[0], start)
        assert [e.position for e in seen] == [other.position]
    # Committed on leaving the block: read now, each game in version order, and nothing more.
    seen, _ = read_to_the_end(stores[0], cursor)
    assert [(e.type, e.position) for e in seen] == [("InFlight", held), ("Later", later.position),
                                                   ("Next", next_one.position)]


def test_a_reader_paging_the_api_sees_every_event_of_appends_through_every_node_once(citus_cluster, citus_url,
                                                                                      stores):
    app = create_app({**TEST_SETTINGS, "DATABASE_URL": citus_url, "KEEP_DEADLINES": False})
    client = app.test_client()
    _, start = read_to_the_end(stores[0], Cursor())
    games = games_on_each_worker(citus_url, 3)  # three on each worker
    appends_each, done, tailed = 8, threading.Event(), []
    failures: list[BaseException] = []

    def write(first: int, game: uuid.UUID) -> None:
        try:
            previous = None
            for i in range(appends_each):  # through each node in turn
                store = stores[(first + i) % len(stores)]
                [*_, last] = store.append(Append(game, 2 * i, [NewEvent("E", 1, {}), NewEvent("F", 1, {})], META,
                                                 previous_hash=previous))
                previous = last.hash
        except BaseException as error:  # noqa: BLE001 - told by the test below
            failures.append(error)

    def tail() -> None:
        cursor = start.code
        while True:
            finished = done.is_set()
            page = client.get(f"/v1/events?cursor={cursor}&limit=7",
                              headers={"Authorization": f"Bearer {OPERATOR_TOKEN}"}).get_json()
            tailed.extend((e["game_id"], e["version"], e["position"]) for e in page["events"])
            cursor = page["cursor"]
            if finished and not page["events"]:
                return

    reader = threading.Thread(target=tail)
    reader.start()
    # Each game written through the three nodes in turn, the games of both workers.
    writers = [threading.Thread(target=write, args=(n, game)) for n, game in enumerate(games)]
    try:
        for t in writers:
            t.start()
        for t in writers:
            t.join()
    finally:
        done.set()
        reader.join()
        close_app(app)
    assert not failures

    everything, _ = read_to_the_end(stores[0], start)
    assert len(everything) == len(games) * appends_each * 2
    assert {origin_of(e.position) for e in everything} == {0, 1, 2}
    # Every event once, and none committed behind the reader: it saw them all, each origin's in order.
    assert sorted(tailed) == sorted((str(e.game_id), e.version, e.position) for e in everything)
    for origin in (0, 1, 2):
        positions = [p for _, _, p in tailed if origin_of(p) == origin]
        assert positions == sorted(positions) and len(set(positions)) == len(positions)
    for game in games:  # and each game's in version order, across the nodes its appends came through
        assert [v for g, v, _ in tailed if g == str(game)] == list(range(1, 2 * appends_each + 1))


def test_a_reader_paging_by_position_is_answered_while_the_log_has_one_origin_and_refused_once_it_has_two(
        citus_cluster):
    """``/v1/events?after=N``: N places a reader in one node's order. While every event is of that order the
    page is right; once another node's events would be given, N cannot say which of them the reader had (it
    would be given them again from their start, page after page), so the request is refused, 400, naming
    ``after``; ``cursor`` pages on."""
    name = f"casino_after_{uuid.uuid4().hex[:8]}"
    url = citus_cluster.create_database(name)
    migrations.upgrade(url)
    app = create_app({**TEST_SETTINGS, "DATABASE_URL": url, "KEEP_DEADLINES": False})
    pools = [open_pool(node.url(name), max_size=2) for node in citus_cluster.nodes[:2]]
    as_operator = {"Authorization": f"Bearer {OPERATOR_TOKEN}"}
    try:
        client = app.test_client()
        coordinator, worker = (PostgresEventStore(pool) for pool in pools)
        [first] = coordinator.append(Append(uuid.uuid4(), 0, [NewEvent("E", 1, {})], META))
        [second] = coordinator.append(Append(uuid.uuid4(), 0, [NewEvent("E", 1, {})], META))
        page = client.get(f"/v1/events?after={first.position}", headers=as_operator).get_json()
        assert [e["position"] for e in page["events"]] == [second.position]
        assert page["next"] == second.position and page["cursor"] == str(second.position)

        [other] = worker.append(Append(uuid.uuid4(), 0, [NewEvent("E", 1, {})], META))  # another origin
        assert origin_of(other.position) == 1 != origin_of(second.position)
        with pytest.raises(SeveralOrigins):
            coordinator.read_all(second.position)
        refused = client.get(f"/v1/events?after={second.position}", headers=as_operator)
        assert refused.status_code == 400 and refused.mimetype == "application/problem+json"
        assert refused.get_json()["code"] == "malformed" and refused.get_json()["errors"][0]["field"] == "after"
        assert "cursor" in refused.get_json()["detail"]

        page = client.get(f"/v1/events?cursor={page['cursor']}", headers=as_operator).get_json()
        assert [e["position"] for e in page["events"]] == [other.position]
        assert client.get(f"/v1/events?cursor={page['cursor']}", headers=as_operator).get_json()["events"] == []
        everything = client.get("/v1/events?after=0", headers=as_operator).get_json()  # the start: every origin's
        assert [e["position"] for e in everything["events"]] == [first.position, second.position, other.position]
    finally:
        for pool in pools:
            pool.close()
        close_app(app)
        citus_cluster.drop_database(name)

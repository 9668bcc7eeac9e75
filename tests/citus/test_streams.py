"""Live streams on a Citus cluster: an append notifies on the node its
service is connected to, and every service listens on every node
(``notifications.listen_everywhere``), so a stream served by one hears the
moves made through another, and misses none when that node restarts."""

from __future__ import annotations

import time
import uuid

import psycopg
import pytest

from service.web.app import close_app, create_app
from tests.api.conftest import ORDERED_DECK, Api
from tests.api.test_stream import Reader
from tests.citus.cluster import DATABASE
from tests.conftest import TEST_SETTINGS

#: Streams that poll only every 30 s: what comes sooner was heard.
SETTINGS = {**TEST_SETTINGS, "KEEP_DEADLINES": False, "STREAM_MAX_SECONDS": 30.0, "STREAM_POLL_SECONDS": 30.0,
            "STREAM_KEEPALIVE_SECONDS": 30.0}


@pytest.fixture
def apps(citus_cluster):
    """Two services: one on the coordinator, serving the stream, and one on the second worker, making the moves."""
    made = [create_app({**SETTINGS, "DATABASE_URL": url})
            for url in (citus_cluster.url, citus_cluster.nodes[2].url(DATABASE))]
    try:
        yield [Api(app, app.test_client()) for app in made]
    finally:
        for app in made:
            close_app(app)


def held_by(url: str, game_id: str) -> str:
    with psycopg.connect(url) as conn:
        (node,) = conn.execute("SELECT nodename FROM pg_dist_shard_placement WHERE shardid ="
                               " get_shard_id_for_distribution_column('games', %s)", (uuid.UUID(game_id),)).fetchone()
    return node


def play_one(api: Api, game, seconds: float = 30.0) -> None:
    """One command, sent again while the database is away (503s)."""
    deadline = time.monotonic() + seconds
    while True:
        try:
            api.play(game, steps=1)
            return
        except (AssertionError, psycopg.OperationalError):
            if time.monotonic() > deadline:
                raise
            time.sleep(0.1)


def test_a_stream_hears_moves_made_through_another_node_and_misses_none_when_that_node_restarts(citus_cluster,
                                                                                                 apps):
    streamer, mover = apps
    worker = citus_cluster.nodes[2]
    game = next(g for g in iter(lambda: mover.create(first_dealer=1), None)
                if held_by(citus_cluster.url, g.id) == str(worker.socket))
    mover.deal(game, ORDERED_DECK)
    so_far = mover.view(game)["version"]
    reader = Reader(streamer.client, f"{game.url}/events/stream?timeout=25",
                    headers={"Authorization": f"Bearer {game.tokens[0]}"})
    reader.wait_for(so_far)
    assert reader.versions() == list(range(1, so_far + 1))

    play_one(mover, game)  # notified on the second worker, heard by the coordinator's service
    reader.wait_for(so_far + 1)
    assert reader.versions()[-1] == so_far + 1

    worker.stop()
    worker.start()
    # Moved at once, before the listener is back on the worker: read when it is.
    for _ in range(3):
        play_one(mover, game)
    last = mover.view(game)["version"]
    reader.wait_for(last, timeout=10)
    assert reader.versions() == list(range(1, last + 1))  # every version once, in order, none missed
    play_one(mover, game)
    reader.wait_for(last + 1, timeout=5)
    assert reader.versions() == list(range(1, last + 2))
    assert reader.is_alive()  # still the one stream: nothing came at its end or at a poll

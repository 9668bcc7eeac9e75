"""Casino on a Citus cluster while the cluster changes under it: shards
moved to a worker added while games are played, and a worker killed and
restarted under load.

Each test plays through a real ``casino serve`` on a cluster of its own
(a coordinator and two workers: the session's cluster stays as the other
tests expect it) with ``tests.replicas.load``'s careful clients: every
command under an ``Idempotency-Key``, sent again under it after a 503 or
a cut connection. Afterwards every command acknowledged is stored once
(``audit``: none lost, none applied twice), every answer was either right
or a 503 with ``Retry-After``, and every game verifies.
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Iterator

import pytest

from tests.citus.cluster import Cluster
from tests.citus.under_load import assert_nothing_lost_or_doubled, served_cluster, wait, workers_both_playing
from tests.replicas.load import Load
from tests.service.serving import Serving

pytestmark = pytest.mark.postgres

#: Seconds a worker stays down.
OUTAGE_SECONDS = 1.5


@pytest.fixture(scope="module")
def moving(tmp_path_factory) -> Iterator[tuple[Cluster, Serving]]:
    """A cluster of its own, migrated, and ``casino serve`` on its coordinator."""
    with served_cluster(tmp_path_factory.mktemp("citus-moves"), "casino", spares=1) as both:
        yield both


def test_a_worker_killed_and_restarted_under_load(moving):
    """The games on the other worker go on; the games on the lost one
    answer 503 with Retry-After until it is back; nothing acknowledged is lost."""
    cluster, served = moving
    # Each client keeps its game to the end, at a pace: a client whose game is on
    # the lost worker waits for it, the others play on (most of them, for a while).
    load = Load(served.port, clients=6, pace=0.05, commands_per_game=10_000)
    load.start()
    try:
        lost, kept = workers_both_playing(load, cluster)
        refused = load.refused
        killed_at = cluster.kill(lost)
        time.sleep(OUTAGE_SECONDS)
        refused_while_down = load.refused - refused
        restarted_at = cluster.restart(lost)
        wait(lambda: any(cluster.worker_of(a.game) == lost for a in load.sent_after(restarted_at)),
             "no game on the restarted worker was played again")
    finally:
        load.stop()

    while_down = Counter(cluster.worker_of(a.game) for a in load.sent_after(killed_at)
                         if a.answered_at < restarted_at)
    print(f"\nworker {lost} down {restarted_at - killed_at:.2f} s: {dict(while_down)} commands acknowledged by"
          f" worker meanwhile, {refused_while_down} answers 503; {len(load.acknowledged)} in all")
    # The other worker's games went on. (One of the lost worker's may have
    # been acknowledged just after the kill: a backend finishes the commit it
    # is in before it sees its postmaster gone. It is stored all the same.)
    assert while_down[kept] > 0
    assert refused_while_down > 0  # the lost worker's games were answered 503 (with Retry-After: else in bad)
    assert_nothing_lost_or_doubled(load, cluster)


def test_shards_moved_to_a_worker_added_while_games_are_played(moving):
    cluster, served = moving
    load = Load(served.port, clients=6)
    load.start()
    try:
        wait(lambda: len(load.acknowledged) >= 20, "the clients did not start playing")
        added = len(cluster.nodes)
        cluster.add_worker()
        moved = cluster.rebalance()
        moved_at = time.monotonic()
        wait(lambda: any(cluster.worker_of(a.game) == added for a in load.sent_after(moved_at)),
             "no game on the added worker was played after the moves")
    finally:
        load.stop()

    print(f"\n{moved} shards moved to the added worker; {len(load.acknowledged)} commands acknowledged,"
          f" {load.refused} answers 503")
    assert moved > 0
    assert_nothing_lost_or_doubled(load, cluster)

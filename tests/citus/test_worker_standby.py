"""A Citus worker lost for good, and its synchronous standby taking over.

Worker 1 of a cluster of its own (a coordinator and two workers) has a
streaming standby its commits wait for (``Cluster.standby_of``). While
``tests.replicas.load``'s careful clients play through a real ``casino
serve`` (on the coordinator; again on both workers, the multi-host URL),
worker 1's postmaster is killed and never started again; the standby is promoted and the coordinator pointed at it
with ``citus_update_node`` (``Cluster.fail_over``), the service left
running as it is. The games on worker 2 go on meanwhile; worker 1's are
answered 503 with ``Retry-After`` until the promotion and are played on
after it; nothing acknowledged is lost or applied twice, and every game
verifies. The service's listeners, one on each node, follow the node to
its new address.
"""

from __future__ import annotations

import functools
import threading
import time
from collections.abc import Iterator

import pytest

from service.postgres import notifications
from tests.citus.cluster import Cluster, migrated_cluster
from tests.citus.under_load import WITHIN, assert_nothing_lost_or_doubled, served_cluster, wait, workers_both_playing
from tests.conftest import OPERATOR_TOKEN
from tests.replicas.load import Load
from tests.service.serving import Serving

pytestmark = pytest.mark.postgres

#: The worker lost (the one with a standby), and the other.
LOST, KEPT = 1, 2
#: Commands of the lost worker's games acknowledged before it is killed; of the
#: other's while it is down, before the promotion.
PLAYED, PLAYED_ON = 20, 5


@pytest.fixture(params=["coordinator", "workers"])
def standing_by(request, tmp_path) -> Iterator[tuple[Cluster, Serving]]:
    """A cluster whose worker 1 has a synchronous standby, and ``casino
    serve`` on its coordinator, or on its workers (the URL naming both,
    each connection to either: the promoted standby is not among them)."""
    with served_cluster(tmp_path, "casino", on_workers=request.param == "workers") as (cluster, served):
        cluster.standby_of(LOST)
        yield cluster, served


def test_a_lost_worker_s_synchronous_standby_takes_over_under_load(standing_by):
    cluster, served = standing_by
    held_by = functools.cache(cluster.worker_of)  # a game stays on its node's group throughout
    load = Load(served.port, clients=6, pace=0.05, commands_per_game=10_000)
    load.start()
    try:
        assert workers_both_playing(load, cluster) == (LOST, KEPT)
        wait(lambda: sum(held_by(a.game) == LOST for a in load.sent_after(0)) >= PLAYED,
             "the lost worker's games were not played")
        refused = load.refused
        killed_at = cluster.kill(LOST)
        gone_at = time.monotonic()  # the worker's last process ended: nothing commits there from now on
        # An operator (or a failover manager) promotes once the worker is
        # seen lost: here, once its games were refused and the other's played on.
        wait(lambda: load.refused > refused
             and sum(held_by(a.game) == KEPT for a in load.sent_after(killed_at)) >= PLAYED_ON,
             "the lost worker's games were not refused, or the other worker's did not go on")
        promoting_at = time.monotonic()
        cluster.fail_over(LOST)
        promoted_at = time.monotonic()
        cluster.metadata_synced()
        synced_at = time.monotonic()
        wait(lambda: any(held_by(a.game) == LOST for a in load.sent_after(promoted_at)),
             "no game of the lost worker was played after the promotion")
    finally:
        load.stop()

    first = min(a.answered_at for a in load.sent_after(gone_at) if held_by(a.game) == LOST)
    print(f"\nworker {LOST} killed, its processes gone {gone_at - killed_at:.2f} s later; its standby promoted"
          f" and the coordinator pointed at it {promoting_at - killed_at:.2f} s after the kill, which took"
          f" {promoted_at - promoting_at:.2f} s, the workers told {synced_at - promoted_at:.2f} s after; the lost"
          f" worker's games played again {first - killed_at:.2f} s after the kill; {load.refused - refused} answers"
          f" 503 since, {len(load.acknowledged)} commands acknowledged")
    # None of the lost worker's games was played once it was gone, until the promotion.
    assert first > promoting_at
    assert_nothing_lost_or_doubled(load, cluster)


def test_the_listeners_follow_a_node_to_its_promoted_standby(tmp_path):
    """``listen_everywhere`` (each node heard by a connection of its own)
    hears every node again once the lost worker's standby has its place,
    though nobody restarted it."""
    heard = Heard()
    with migrated_cluster(workers=1) as cluster:
        cluster.standby_of(LOST)
        seal = notifications.Seal(notifications.key_from(OPERATOR_TOKEN))
        listening = threading.Thread(target=notifications.listen_everywhere, args=(cluster.url, seal), daemon=True,
                                     kwargs={"connected": heard.connected, "notice": lambda _: None,
                                             "disconnected": heard.disconnected, "stopped": heard.stopped.is_set})
        listening.start()
        try:
            wait(lambda: heard.everywhere, "the nodes were never all heard")
            cluster.kill(LOST)
            wait(lambda: not heard.everywhere, "the lost worker was still heard")
            cluster.fail_over(LOST)
            wait(lambda: heard.everywhere, "the promoted standby was not heard")
        finally:
            heard.stopped.set()
            listening.join(WITHIN)


class Heard:
    """What ``listen_everywhere`` said last: whether every node is heard."""

    def __init__(self) -> None:
        self.everywhere = False
        self.stopped = threading.Event()

    def connected(self) -> None:
        self.everywhere = True

    def disconnected(self) -> None:
        self.everywhere = False

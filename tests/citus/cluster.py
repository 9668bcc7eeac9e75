"""A Citus cluster on this machine: a coordinator and its workers, each a
PostgreSQL server of the installation ``tests.citus.build`` makes, run as
the servers of the other tests are (``service.postgres.servers``: as the
wheel's own user when we are root, since PostgreSQL refuses root).

Each node listens on its Unix socket only; the nodes name one another by
that socket's directory as their host (libpq takes a directory for a
host), so no TCP port of the machine is taken. ``Cluster.start`` makes the
nodes, loads Citus into each and registers the workers with the
coordinator; ``url`` is the coordinator's database, which casino's
``DATABASE_URL`` points at.
"""

from __future__ import annotations

import os
import shutil
import signal
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import quote

import pytest

import migrations
from service.postgres.database import create_database
from service.postgres.servers import Failed, Server, wait_for
from tests.citus import build
from tests.conftest import directory_for_postgres
from tests.replicas.pair import synchronous

DATABASE = "casino"
#: What every node runs with: Citus loaded, and small enough for a test machine.
#: Without fsync, but each commit's WAL written out before it is acknowledged
#: (synchronous_commit): a node killed (its processes, not its machine) then
#: loses nothing acknowledged, as the tests of a worker lost require. (Off, a
#: commit a worker acknowledged could still be in its WAL buffers when killed.
#: Citus' two-phase commits flush their WAL whatever this says, which hid it
#: while every append through another node committed in two phases.)
SETTINGS = {"shared_preload_libraries": "citus", "max_connections": "100", "shared_buffers": "32MB",
            "fsync": "off", "synchronous_commit": "on", "full_page_writes": "off",
            "citus.shard_count": "8", "max_worker_processes": "16",
            # Citus' counters of statements run on one shard and on several (citus_stat_counters).
            "citus.enable_stat_counters": "on"}


@dataclass
class Cluster:
    """A coordinator and ``workers`` workers under ``root``, with the programs in ``programs``."""

    root: Path
    programs: Path
    workers: int = 2
    port: int = 5432
    #: Workers made and started with the others but not registered: ``add_worker`` takes one at once.
    spares: int = 0
    nodes: list[Server] = field(default_factory=list)
    _spare: list[Server] = field(default_factory=list)
    #: Each worker's standby, by the worker's index.
    standbys: dict[int, Server] = field(default_factory=dict)
    #: The nodes killed and not started again (``pg_ctl stop`` would wait for them in vain).
    _killed: list[Server] = field(default_factory=list)

    @property
    def coordinator(self) -> Server:
        return self.nodes[0]

    @property
    def url(self) -> str:
        return self.coordinator.url(DATABASE)

    @property
    def workers_url(self) -> str:
        """The workers' database in libpq's multi-host form, each new connection
        to any of them (``load_balance_hosts=random``): how ``casino serve``
        reaches a cluster without going through its coordinator (docs/scaling.md)."""
        return self.url_of(self.nodes[1:self.workers + 1])

    def url_of(self, nodes: list[Server], database: str = DATABASE) -> str:
        """``database`` on ``nodes``, in libpq's multi-host form (one node: its own URL)."""
        hosts = ",".join(quote(str(node.socket)) for node in nodes)
        balance = "&load_balance_hosts=random" if len(nodes) > 1 else ""
        return f"postgresql://postgres@/{quote(database)}?host={hosts}&port={self.port}{balance}"

    def node(self, n: int) -> Server:
        """A node (0: the coordinator), made but not started."""
        pgdata = self.root / f"node{n}"
        return Server(pgdata, port=self.port, settings=self._settings(pgdata), programs=self.programs)

    def _settings(self, pgdata: Path) -> dict[str, str]:
        """A node's settings: ``SETTINGS``, and how the node reaches itself
        (Citus' background jobs, a rebalance's moves): its own socket's
        directory, as the others name it."""
        return {**SETTINGS, "citus.local_hostname": str(Server(pgdata).socket)}

    def start(self) -> None:
        """Make, start and join every node: Citus in the database on each, the workers registered."""
        made = [self.node(n) for n in range(self.workers + 1 + self.spares)]
        with ThreadPoolExecutor(len(made)) as pool:
            list(pool.map(self._make, made))
        self.nodes, self._spare = made[:self.workers + 1], made[self.workers + 1:]
        self.create_database(DATABASE)

    def create_database(self, name: str) -> str:
        """A database of the cluster: made on every node with Citus in it,
        the coordinator and the workers registered in it; its coordinator's URL.
        (Each database of a cluster is a cluster of its own to Citus.)"""
        for node in self.nodes:
            create_database(node.url(), name)
            node.sql("CREATE EXTENSION citus", database=name)
        self.coordinator.sql("SELECT citus_set_coordinator_host(%s, %s)", (str(self.coordinator.socket), self.port),
                             name)
        for worker in self.nodes[1:]:
            self.coordinator.sql("SELECT citus_add_node(%s, %s)", (str(worker.socket), self.port), name)
        return self.coordinator.url(name)

    def drop_database(self, name: str) -> None:
        """Drop a database ``create_database`` made, on every node."""
        for node in self.nodes:
            node.sql(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')

    def add_worker(self) -> Server:
        """One more worker (a spare, or one made and started now), registered
        (it holds no shards until a rebalance)."""
        if self._spare:
            worker = self._spare.pop(0)
        else:
            worker = self.node(len(self.nodes) + len(self._spare))
            self._make(worker)
        self.nodes.append(worker)
        worker.sql(f"CREATE DATABASE {DATABASE}")
        worker.sql("CREATE EXTENSION citus", database=DATABASE)
        self.coordinator.sql("SELECT citus_add_node(%s, %s)", (str(worker.socket), self.port), DATABASE)
        return worker

    # -- where a game is, moving it, losing a node -----------------------------------

    def worker_of(self, game_id: str) -> int:
        """The node (an index of ``nodes``) that holds the game's rows now."""
        ((host,),) = self.coordinator.sql(
            "SELECT nodename FROM pg_dist_shard_placement"
            " WHERE shardid = get_shard_id_for_distribution_column('games', %s::uuid)", (game_id,), DATABASE)
        return [str(node.socket) for node in self.nodes].index(host)

    def placements(self) -> dict[int, str]:
        """Each distributed table's shard (not the reference tables' copies) and the node it is on."""
        rows = self.coordinator.sql(
            "SELECT p.shardid, p.nodename FROM pg_dist_shard_placement p JOIN pg_dist_shard s USING (shardid)"
            " JOIN pg_dist_partition t USING (logicalrelid) WHERE t.partmethod = 'h'", (), DATABASE)
        return dict(rows)

    def rebalance(self, mode: str = "block_writes") -> int:
        """Spread the shards over every worker (``citus_rebalance_start``, a
        background job of moves, each ``mode``), waiting until it is done; the
        number of shards it moved."""
        before = self.placements()
        self.coordinator.sql("SELECT citus_rebalance_start(shard_transfer_mode => %s::citus.shard_transfer_mode,"
                             " parallel_transfer_colocated_shards => true)", (mode,), DATABASE)
        self.coordinator.sql("SELECT citus_rebalance_wait()", (), DATABASE)
        after = self.placements()
        return sum(1 for shard, node in after.items() if before.get(shard) != node)

    def pid(self, n: int) -> int:
        """Node ``n``'s postmaster's process id."""
        return int((self.nodes[n].pgdata / "postmaster.pid").read_text().split()[0])

    def kill(self, n: int) -> float:
        """Kill node ``n``'s postmaster (SIGKILL, as the kernel's OOM killer
        would); when (``time.monotonic()``). Returns once the node's other
        processes have ended too: its backends see their postmaster gone
        and end (one may first finish the transaction it is in, commit and
        all). ``restart`` starts it again, through crash recovery."""
        pid = self.pid(n)
        processes = [pid, *_children(pid)]
        os.kill(pid, signal.SIGKILL)
        killed_at = time.monotonic()
        self._killed.append(self.nodes[n])
        wait_for(lambda: not any(map(_alive, processes)), 30, f"node {n}'s processes ending", every=0.01)
        return killed_at

    def restart(self, n: int) -> float:
        """Start node ``n`` again after ``kill`` (waiting for its killed
        backends to be gone first); when it took connections again."""
        node = self.nodes[n]
        deadline = time.monotonic() + 60
        while True:
            try:
                node.start()
                self._killed.remove(node)
                return time.monotonic()
            except Failed:  # an orphaned backend still holds the shared memory: try again shortly
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.2)

    # -- a worker's synchronous standby, and its promotion -----------------------------

    def standby_of(self, n: int) -> Server:
        """A hot standby of worker ``n`` (``pg_basebackup``), streaming, and
        synchronous: the worker's commits wait until the standby has their
        WAL (``synchronous_standby_names`` names it), so none it acknowledged
        is missing from the standby when the worker is lost."""
        worker = self.nodes[n]
        name = f"standby{n}"
        pgdata = self.root / name
        standby = Server.clone(worker.url(), pgdata, name=name, sync=False, port=self.port,
                               settings=self._settings(pgdata), programs=self.programs)
        self.standbys[n] = standby
        standby.start()
        synchronous(worker, name)
        return standby

    def fail_over(self, n: int) -> None:
        """Promote worker ``n``'s standby (the worker lost: ``kill``) and
        point the coordinator at it: ``citus_update_node`` gives the
        worker's node (its id and group, and so its shards, stay) the
        standby's address. The standby is node ``n`` from then on; the
        other nodes learn of it a moment later (``metadata_synced``)."""
        lost, standby = self.nodes[n], self.standbys[n]
        standby.promote()
        ((node_id,),) = self.coordinator.sql("SELECT nodeid FROM pg_dist_node WHERE nodename = %s AND nodeport = %s",
                                             (str(lost.socket), self.port), DATABASE)
        self.coordinator.sql("SELECT citus_update_node(%s, %s, %s)", (node_id, str(standby.socket), self.port),
                             DATABASE)
        self.nodes[n] = self.standbys.pop(n)

    def metadata_synced(self) -> None:
        """Return once Citus has passed the coordinator's metadata (a node's
        new address, say) on to every node that keeps a copy (the workers)."""
        wait_for(lambda: self.coordinator.sql("SELECT bool_and(metadatasynced) FROM pg_dist_node WHERE hasmetadata",
                                              (), DATABASE)[0][0], 30, "the nodes' metadata synced")

    @staticmethod
    def _make(node: Server) -> None:
        Server.initialise(node.pgdata, sync=False, port=node.port, settings=node.settings, programs=node.programs)
        node.start()

    def remove(self) -> None:
        """Stop every node and delete the cluster's files."""
        every = [node for node in self.nodes + self._spare + list(self.standbys.values()) if node not in self._killed]
        if every:
            with ThreadPoolExecutor(len(every)) as pool:
                list(pool.map(Server.remove, every))
        shutil.rmtree(self.root, ignore_errors=True)


def _children(pid: int) -> list[int]:
    """The processes whose parent is ``pid`` now."""
    found = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            parent = int(stat.read_text().rsplit(")", 1)[1].split()[1])
        except (OSError, IndexError, ValueError):  # ended meanwhile
            continue
        if parent == pid:
            found.append(int(stat.parent.name))
    return found


@contextmanager
def migrated_cluster(**options) -> Iterator[Cluster]:
    """A cluster (``Cluster``'s ``options``) of Citus built once per machine
    into a cache, started, its ``casino`` database migrated, removed
    afterwards. Where Citus cannot be built (no source, no compiler), the
    test skips, saying why."""
    try:
        programs = build.programs()
    except build.Unavailable as why:
        pytest.skip(str(why))
    with directory_for_postgres() as directory:
        cluster = Cluster(directory / "citus", programs, **options)
        try:
            cluster.start()
            migrations.upgrade(cluster.url)
            yield cluster
        finally:
            cluster.remove()


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # alive, run as the servers' own user
        return True
    # A zombie until its parent reaps it: gone for our purposes.
    try:
        with open(f"/proc/{pid}/stat") as stat:
            return stat.read().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False

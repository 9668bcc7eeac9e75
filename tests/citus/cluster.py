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

import shutil
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

from service.postgres.database import create_database
from service.postgres.servers import Server

DATABASE = "casino"
#: What every node runs with: Citus loaded, and small enough for a test machine.
SETTINGS = {"shared_preload_libraries": "citus", "max_connections": "100", "shared_buffers": "32MB",
            "fsync": "off", "synchronous_commit": "off", "full_page_writes": "off",
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
    nodes: list[Server] = field(default_factory=list)

    @property
    def coordinator(self) -> Server:
        return self.nodes[0]

    @property
    def url(self) -> str:
        return self.coordinator.url(DATABASE)

    def node(self, n: int) -> Server:
        """A node (0: the coordinator), made but not started."""
        return Server(self.root / f"node{n}", port=self.port, settings=SETTINGS, programs=self.programs)

    def start(self) -> None:
        """Make, start and join every node: Citus in the database on each, the workers registered."""
        self.nodes = [self.node(n) for n in range(self.workers + 1)]
        with ThreadPoolExecutor(len(self.nodes)) as pool:
            list(pool.map(self._make, self.nodes))
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
        """One more worker, made, started and registered (it holds no shards until a rebalance)."""
        worker = self.node(len(self.nodes))
        self._make(worker)
        self.nodes.append(worker)
        worker.sql(f"CREATE DATABASE {DATABASE}")
        worker.sql("CREATE EXTENSION citus", database=DATABASE)
        self.coordinator.sql("SELECT citus_add_node(%s, %s)", (str(worker.socket), self.port), DATABASE)
        return worker

    @staticmethod
    def _make(node: Server) -> None:
        Server.initialise(node.pgdata, sync=False, port=node.port, settings=node.settings, programs=node.programs)
        node.start()

    def remove(self) -> None:
        """Stop every node and delete the cluster's files."""
        for node in self.nodes:
            node.remove()
        shutil.rmtree(self.root, ignore_errors=True)

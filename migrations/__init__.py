"""The database schema, as alembic migrations written in plain SQL.

The package is importable so that an installed ``casino`` finds its
migrations next to its code; ``upgrade`` is what ``casino serve``,
``casino migrate`` and the test fixtures call.
"""

from pathlib import Path

from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
import psycopg
from sqlalchemy import Engine, create_engine, pool, text

HERE = Path(__file__).resolve().parent


def sqlalchemy_url(database_url: str) -> str:
    """Turn a libpq URI into the SQLAlchemy URL alembic wants (psycopg 3 dialect)."""
    scheme, sep, rest = database_url.partition("://")
    if not sep or scheme not in ("postgres", "postgresql", "postgresql+psycopg"):
        raise ValueError("DATABASE_URL must be a postgresql:// URI")
    return f"postgresql+psycopg://{rest}"


def engine(database_url: str) -> Engine:
    """An engine without a pool whose connections psycopg makes from
    ``database_url`` as libpq reads it (SQLAlchemy's own reading of a URL
    refuses some of libpq's forms: several hosts with one port, say)."""
    sqlalchemy_url(database_url)  # a postgresql:// URI, or say why not
    return create_engine("postgresql+psycopg://", creator=lambda: psycopg.connect(database_url),
                         poolclass=pool.NullPool)


def config(database_url: str) -> Config:
    """An alembic configuration built in code: no alembic.ini to ship or find."""
    cfg = Config()
    cfg.set_main_option("script_location", str(HERE))
    # ConfigParser interpolates '%', and URIs may hold percent-escapes.
    cfg.set_main_option("sqlalchemy.url", sqlalchemy_url(database_url).replace("%", "%%"))
    cfg.attributes["database_url"] = database_url  # what env.py connects with
    return cfg


class NotTheCoordinator(Exception):
    """Migrations asked of a Citus worker, whose schema is behind: they run on the coordinator."""


def upgrade(database_url: str, revision: str = "head") -> None:
    """Bring the schema up to ``revision``; a no-op when it is already there.

    On a Citus worker (a node of a cluster other than its coordinator, which
    ``casino serve`` may be connected to: docs/scaling.md) nothing is run:
    a worker does not pass DDL on to the other nodes, so a migration run
    there would change that node alone. The schema must already be at
    ``revision`` (the revision is on every node since migration 0018);
    when it is not, ``NotTheCoordinator`` says to migrate on the coordinator."""
    if citus_group(database_url) not in (None, 0):
        wanted = head() if revision == "head" else revision
        at = current(database_url)
        if at != wanted:
            raise NotTheCoordinator(
                f"The database schema is at revision {at or 'none'}, not {wanted}, and this server is a Citus"
                " worker: run `casino migrate` with DATABASE_URL naming the cluster's coordinator first.")
        return
    command.upgrade(config(database_url), revision)


def citus_group(database_url: str) -> int | None:
    """The Citus node group of the server (0: a coordinator), None when it is no Citus node."""
    made = engine(database_url)
    try:
        with made.connect() as connection:
            if connection.execute(text("SELECT to_regclass('pg_catalog.pg_dist_local_group')")).scalar() is None:
                return None
            return connection.execute(text("SELECT groupid FROM pg_dist_local_group")).scalar()
    finally:
        made.dispose()


def head() -> str:
    """The newest revision this code knows."""
    found = ScriptDirectory(str(HERE)).get_current_head()
    assert found is not None, "the migrations have a head"
    return found


def current(database_url: str) -> str | None:
    """The revision the database is at; None before the first migration."""
    made = engine(database_url)
    try:
        with made.connect() as connection:
            return MigrationContext.configure(connection).get_current_revision()
    finally:
        made.dispose()

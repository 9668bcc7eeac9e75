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
from sqlalchemy import create_engine, pool

HERE = Path(__file__).resolve().parent


def sqlalchemy_url(database_url: str) -> str:
    """Turn a libpq URI into the SQLAlchemy URL alembic wants (psycopg 3 dialect)."""
    scheme, sep, rest = database_url.partition("://")
    if not sep or scheme not in ("postgres", "postgresql", "postgresql+psycopg"):
        raise ValueError("DATABASE_URL must be a postgresql:// URI")
    return f"postgresql+psycopg://{rest}"


def config(database_url: str) -> Config:
    """An alembic configuration built in code: no alembic.ini to ship or find."""
    cfg = Config()
    cfg.set_main_option("script_location", str(HERE))
    # ConfigParser interpolates '%', and URIs may hold percent-escapes.
    cfg.set_main_option("sqlalchemy.url", sqlalchemy_url(database_url).replace("%", "%%"))
    return cfg


def upgrade(database_url: str, revision: str = "head") -> None:
    """Bring the schema up to ``revision``; a no-op when it is already there."""
    command.upgrade(config(database_url), revision)


def head() -> str:
    """The newest revision this code knows."""
    found = ScriptDirectory(str(HERE)).get_current_head()
    assert found is not None, "the migrations have a head"
    return found


def current(database_url: str) -> str | None:
    """The revision the database is at; None before the first migration."""
    engine = create_engine(sqlalchemy_url(database_url), poolclass=pool.NullPool)
    try:
        with engine.connect() as connection:
            return MigrationContext.configure(connection).get_current_revision()
    finally:
        engine.dispose()

"""Alembic environment: online migrations only, no SQLAlchemy models.

Every revision is plain ``op.execute`` SQL, so there is no metadata to
autogenerate from. The whole upgrade runs in one transaction (PostgreSQL has
transactional DDL) under an advisory lock, so two processes starting at once
(``casino serve`` and ``casino migrate``, say) apply each revision once.
"""

from alembic import context
from sqlalchemy import create_engine, pool, text

import migrations

# Any constant shared by every migrator works; this one spells "casino-m".
MIGRATION_LOCK_KEY = 0x636173696E6F2D6D


def run_migrations_online() -> None:
    given = context.config.attributes.get("database_url")
    if given is not None:  # migrations.config's: libpq's form, read by libpq
        engine = migrations.engine(given)
    else:
        engine = create_engine(context.config.get_main_option("sqlalchemy.url"), poolclass=pool.NullPool)
    with engine.connect() as connection:
        context.configure(connection=connection, transaction_per_migration=False)
        with context.begin_transaction():
            connection.execute(
                text("SELECT pg_advisory_xact_lock(:key)"), {"key": MIGRATION_LOCK_KEY}
            )
            context.run_migrations()
    engine.dispose()


if context.is_offline_mode():
    raise SystemExit("casino migrations run online only: use `casino migrate`")
run_migrations_online()

"""A domain that refuses an append to a game behind the version it expects.

On a Citus cluster an append's events are inserted as rows of VALUES
(``service.postgres.store``: the shape Citus plans cheapest), so the
insert itself cannot see the game's last version. The append checks it by
a statement of its own before the insert, in the same transaction: the
count of the game's events at the version expected, cast to this domain,
a boolean whose check refuses false. A game behind that version fails the
statement with the check's name, which the store answers as the version
check lost (``ConcurrencyError``), and nothing of the transaction is
written; the whole append stays one message, its commit in it. Citus
creates the domain on every node with the coordinator's DDL. Plain
PostgreSQL has the domain too, and no use for it.

Revision ID: 0019
Revises: 0018
Create Date: 2026-11-28
"""

from alembic import op

revision = "0019"
down_revision = "0018"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.execute("CREATE DOMAIN version_follows AS boolean CONSTRAINT version_follows CHECK (VALUE)")


def downgrade() -> None:
    op.execute("DROP DOMAIN version_follows")

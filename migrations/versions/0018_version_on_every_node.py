"""The schema's revision readable on every node of a Citus cluster.

Alembic keeps the revision in ``alembic_version``, made by the first
migration as a table of the server it ran on: on a Citus coordinator, a
table of the coordinator alone. A ``casino serve`` connected to a worker
(docs/scaling.md, "Where the coordinator becomes the limit") checks the
revision at start and found no such table there. On a database with the
``citus`` extension it becomes a reference table, a copy on every node,
which alembic's later updates (on the coordinator, in the migration's
transaction) keep alike on all of them. Migrations themselves still run
on the coordinator only: ``migrations.upgrade`` refuses to run them on a
worker (``migrations.NotTheCoordinator``). Without the extension this
migration does nothing.

Revision ID: 0018
Revises: 0017
Create Date: 2026-11-28
"""

from alembic import op
from sqlalchemy import text

revision = "0018"
down_revision = "0017"
branch_labels = None
depends_on = None


def _citus() -> bool:
    return op.get_bind().execute(text("SELECT 1 FROM pg_extension WHERE extname = 'citus'")).first() is not None


def upgrade() -> None:
    if _citus():
        op.execute("SELECT create_reference_table('alembic_version')")


def downgrade() -> None:
    if _citus():
        op.execute("SELECT undistribute_table('alembic_version')")

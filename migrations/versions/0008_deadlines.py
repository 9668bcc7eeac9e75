"""Deadlines: each game's running clock, where every worker finds the due ones.

A game whose clock runs for a seat has one row: when that seat's time is
up (``due_at``). The row is written in the transaction of the append that
sets or moves the deadline, and deleted by the one that stops the clock (a
move that leaves the game waiting for nobody, the end of the game), so the
table always says what the events say. Games without a clock never have a
row. Any ``casino serve`` worker claims due rows (``FOR UPDATE SKIP
LOCKED``, then a short lease in ``claimed_until`` so that the others pass
them by while it acts) and appends the time-out with the game's version
check, which is what makes it happen once (docs/design.md, "Deadlines").

Revision ID: 0008
Revises: 0007
Create Date: 2026-11-26
"""

from alembic import op

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.execute(
        """
        CREATE TABLE deadlines (
            game_id       uuid        PRIMARY KEY,
            due_at        timestamptz NOT NULL,
            claimed_until timestamptz
        )
        """
    )
    op.execute("CREATE INDEX deadlines_due_at ON deadlines (due_at)")


def downgrade() -> None:
    op.execute("DROP TABLE deadlines")

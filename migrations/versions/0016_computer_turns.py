"""Computer turns: the games whose next action is a computer seat's, where
every worker finds them (``service.computer``).

A game that awaits one of its computer seats has one row, written in the
transaction of the append that makes the computer the one awaited (its
``due_at`` is that append's time) and deleted by the one that leaves the
game waiting for a person, so the table says what the events say. Any
``casino serve`` worker claims rows as the time keeper claims deadlines
(``FOR UPDATE SKIP LOCKED``, then a short lease in ``claimed_until``) and
appends the computer's command with the game's version check, which is what
makes it happen once. On Citus the table is distributed by its game and
co-located with ``games``, as ``deadlines`` is.

Revision ID: 0016
Revises: 0015
Create Date: 2026-11-28
"""

from alembic import op
from sqlalchemy import text

revision = "0016"
down_revision = "0015"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.execute(
        """
        CREATE TABLE computer_turns (
            game_id       uuid        PRIMARY KEY,
            due_at        timestamptz NOT NULL,
            claimed_until timestamptz
        )
        """
    )
    op.execute("CREATE INDEX computer_turns_due_at ON computer_turns (due_at)")
    if op.get_bind().execute(text("SELECT 1 FROM pg_extension WHERE extname = 'citus'")).first() is not None:
        op.execute("SELECT create_distributed_table('computer_turns', 'game_id', colocate_with => 'games')")


def downgrade() -> None:
    op.execute("DROP TABLE computer_turns")

"""A game's status is its game type's: the ``games`` row no longer lists them.

Revision 0001 allowed only Cassino's statuses in ``games.status``; a Mass
Cool Casino game is ``betting`` or ``reshuffle`` too, and a third game
would bring its own. Each game type lists its statuses
(``domain.games.GameType.STATUSES``), and the service writes only a status
its game's rules gave, so the database no longer repeats the list.

Revision ID: 0007
Revises: 0006
Create Date: 2026-11-24
"""

from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.execute("ALTER TABLE games DROP CONSTRAINT games_status_check")


def downgrade() -> None:
    # The code before knows only Cassino: its check comes back for new rows,
    # and rows of other games stay as they are (NOT VALID skips them).
    op.execute("ALTER TABLE games ADD CONSTRAINT games_status_check"
               " CHECK (status IN ('waiting', 'in_progress', 'hand_over', 'finished')) NOT VALID")

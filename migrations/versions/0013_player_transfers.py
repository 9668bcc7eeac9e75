"""Transfer codes: a player's identity taken to another device.

``player_transfers`` keeps the hash (sha256 hex) of each player's one
outstanding transfer code and when it expires (ten minutes after it was
made). Claiming a code deletes it and replaces the player's token, in one
statement; a new code, or a new token, deletes the code before.

Revision ID: 0013
Revises: 0012
Create Date: 2026-11-28
"""

from alembic import op

revision = "0013"
down_revision = "0012"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.execute(
        """
        CREATE TABLE player_transfers (
            code_hash  text        PRIMARY KEY,
            player_id  uuid        NOT NULL UNIQUE REFERENCES players (id),
            expires_at timestamptz NOT NULL
        )
        """
    )


def downgrade() -> None:
    op.execute("DROP TABLE player_transfers")

"""Idempotency records no longer hold answers.

Records used to hold the first answer itself, and a game creation's answer
holds the seats' tokens, which must be kept nowhere in clear. Records now
hold the versions a request appended (and, for a creation, the game it
made), from which the answer is made again. The records of the old form are
deleted here, tokens with them: they only served retries, which come within
moments of the first attempt.

Revision ID: 0004
Revises: 0003
Create Date: 2026-11-23
"""

from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.execute("DELETE FROM idempotency WHERE response ? 'body'")


def downgrade() -> None:
    # Records of the new form mean nothing to the code before: drop them.
    op.execute("DELETE FROM idempotency WHERE NOT response ? 'body'")

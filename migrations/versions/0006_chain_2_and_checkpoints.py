"""Hash chain 2, which covers every stored column; signed checkpoints.

Events get a ``chain`` column naming the form of their hash (see
``service.chain``). Every event stored before this revision keeps its hash
and is marked chain 1, the form it was hashed under: nothing stored is
rewritten (a column added with a constant default leaves the rows as they
are). The default stays 1, the form a writer that does not name one
knows; the service writes chain 2.

``checkpoints`` holds each game's signed head: its last version, that
event's hash, and an HMAC of both under a key the database does not hold
(``service.checkpoints``). The service replaces a game's row with each
append, in the append's statement. Games stored before this revision get
theirs with their next append.

Revision ID: 0006
Revises: 0004
Create Date: 2026-11-23
"""

from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.execute("ALTER TABLE events ADD COLUMN chain smallint NOT NULL DEFAULT 1"
               " CONSTRAINT events_chain_is_known CHECK (chain IN (1, 2))")
    op.execute(
        """
        CREATE TABLE checkpoints (
            game_id   uuid    PRIMARY KEY,
            version   integer NOT NULL CHECK (version >= 1),
            head      text    NOT NULL CHECK (head ~ '^[0-9a-f]{64}$'),
            signature text    NOT NULL CHECK (signature ~ '^[0-9a-f]{64}$')
        )
        """
    )


def downgrade() -> None:
    op.execute("DROP TABLE checkpoints")
    op.execute("ALTER TABLE events DROP COLUMN chain")

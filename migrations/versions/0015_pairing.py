"""Pairing: players waiting for an opponent, kept where every process finds them.

- ``pairings``: one row per player waiting to be paired (``POST
  /v1/pairing``), with its pool (variant, seat count, clock and rated, as
  one text: ``pool``), the player's rating in the variant when it asked,
  and until when a pairer holds it (``claimed_until``, a lease: claimed
  with ``FOR UPDATE SKIP LOCKED`` as deadlines are); ``held``: a claim
  could not pair it and set it aside a moment, for the next claim of its
  pool (or, once that moment is over, any claim) to take. A player waits
  in one pairing at a time (unique ``player_id``).
- ``pairing_results``: how each pairing ended, written in the same
  transaction that removes its waiting row: the game it was paired into
  (the append that creates the game writes it, so a game exists exactly
  when its pairings say so) or, with no game, cancelled. Its key is the
  pairing's id: a pairing ends once, whichever comes first.

On a Citus coordinator both are reference tables, as ``ratings`` are
(migration 0014): keyed by the player and the pairing, not by a game, and
written by the append that creates a paired game.

Revision ID: 0015
Revises: 0014
Create Date: 2026-11-28
"""

from alembic import op
from sqlalchemy import text

revision = "0015"
down_revision = "0014"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.execute(
        """
        CREATE TABLE pairings (
            id            uuid             PRIMARY KEY,
            player_id     uuid             NOT NULL UNIQUE,
            name          text             NOT NULL,
            pool          text             NOT NULL,
            ask           jsonb            NOT NULL,
            rating        double precision NOT NULL,
            created_at    timestamptz      NOT NULL,
            claimed_until timestamptz,
            held          boolean          NOT NULL DEFAULT false
        )
        """
    )
    op.execute("CREATE INDEX pairings_pool_idx ON pairings (pool, created_at)")
    op.execute(
        """
        CREATE TABLE pairing_results (
            pairing_id uuid        PRIMARY KEY,
            player_id  uuid        NOT NULL,
            ask        jsonb       NOT NULL,
            game_id    uuid,
            seat       integer,
            ended_at   timestamptz NOT NULL
        )
        """
    )
    if op.get_bind().execute(text("SELECT 1 FROM pg_extension WHERE extname = 'citus'")).first() is not None:
        for table in ("pairings", "pairing_results"):
            op.execute(f"SELECT create_reference_table('{table}')")


def downgrade() -> None:
    op.execute("DROP TABLE pairing_results")
    op.execute("DROP TABLE pairings")

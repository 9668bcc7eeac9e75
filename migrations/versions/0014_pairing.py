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

Revision ID: 0014
Revises: 0013
Create Date: 2026-11-28
"""

from alembic import op

revision = "0014"
down_revision = "0013"
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


def downgrade() -> None:
    op.execute("DROP TABLE pairing_results")
    op.execute("DROP TABLE pairings")

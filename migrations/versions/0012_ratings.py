"""Players' ratings, kept by the appends that finish rated games.

- ``ratings``: each player's rating in each variant it has played rated
  (``rating`` and ``deviation``, OpenSkill's mean and spread, and the
  number of rated ``games``), replaced by each rated game's append. The
  leaderboard reads it by variant and rating.
- ``rating_changes``: one line per player and rated game, keyed by the
  player, the variant and the number of the player's rated games after it.
  Two appends decided on the same rating of a player break that key: the
  second writes nothing, and the service decides its game again on the
  rating the first left (``service.ratings``).

Revision ID: 0012
Revises: 0011
Create Date: 2026-11-28
"""

from alembic import op

revision = "0012"
down_revision = "0011"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.execute(
        """
        CREATE TABLE ratings (
            player_id  uuid             NOT NULL,
            variant    text             NOT NULL,
            rating     double precision NOT NULL,
            deviation  double precision NOT NULL,
            games      integer          NOT NULL CHECK (games > 0),
            updated_at timestamptz      NOT NULL,
            PRIMARY KEY (player_id, variant)
        )
        """
    )
    op.execute("CREATE INDEX ratings_leaderboard_idx ON ratings (variant, rating DESC, player_id)")
    op.execute(
        """
        CREATE TABLE rating_changes (
            player_id  uuid             NOT NULL,
            variant    text             NOT NULL,
            games      integer          NOT NULL,
            game_id    uuid             NOT NULL,
            seat       integer          NOT NULL,
            rating     double precision NOT NULL,
            deviation  double precision NOT NULL,
            recorded_at timestamptz     NOT NULL,
            CONSTRAINT rating_changes_pkey PRIMARY KEY (player_id, variant, games),
            UNIQUE (game_id, seat)
        )
        """
    )


def downgrade() -> None:
    op.execute("DROP TABLE rating_changes")
    op.execute("DROP TABLE ratings")

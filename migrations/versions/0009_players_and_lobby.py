"""Players, the seats they hold, and the lobby.

- ``players``: an identity that spans games. Its token is kept as its
  sha256 (hex), like a seat's; the players' names are theirs to show.
- ``player_seats``: which seat of which game each player holds now, a read
  model written by the appends that change it (a join, a leave), so that a
  player token finds its seat in a game, and a player's games are listed,
  without reading events. ``created_at`` is the game's, the order of the
  player's list of games.
- ``games.listed``: the game was created to be listed in the lobby (it
  is, while it waits with a seat open). ``games.lobby``: what the lobby
  shows of it (its seats, taken or open, and its clock) while it is
  listed and waits with a seat open; null otherwise. A partial index holds
  only those games, so the lobby reads few rows and the games that never
  are in it cost nothing.
- ``games.awaiting`` and ``games.deadline``: the seats the game waits
  for and when the running clock's time is up, kept while a player holds
  one of its seats (null otherwise), so that a player's list says whose
  turn it is in the same query.

Revision ID: 0009
Revises: 0008
Create Date: 2026-11-26
"""

from alembic import op

revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.execute(
        """
        CREATE TABLE players (
            id         uuid        PRIMARY KEY,
            name       text        NOT NULL,
            token_hash text        NOT NULL UNIQUE,
            created_at timestamptz NOT NULL DEFAULT now()
        )
        """
    )
    op.execute(
        """
        CREATE TABLE player_seats (
            player_id  uuid        NOT NULL,
            game_id    uuid        NOT NULL,
            seat       integer     NOT NULL CHECK (seat >= 0),
            created_at timestamptz NOT NULL,
            PRIMARY KEY (player_id, game_id),
            UNIQUE (game_id, seat)
        )
        """
    )
    op.execute("CREATE INDEX player_seats_listing_idx ON player_seats (player_id, created_at DESC, game_id DESC)")
    op.execute("ALTER TABLE games ADD COLUMN listed boolean NOT NULL DEFAULT false, ADD COLUMN lobby jsonb,"
               " ADD COLUMN awaiting integer[], ADD COLUMN deadline timestamptz")
    op.execute("CREATE INDEX games_lobby_idx ON games (created_at DESC, id DESC) WHERE lobby IS NOT NULL")


def downgrade() -> None:
    op.execute("DROP INDEX games_lobby_idx")
    op.execute("ALTER TABLE games DROP COLUMN listed, DROP COLUMN lobby, DROP COLUMN awaiting, DROP COLUMN deadline")
    op.execute("DROP TABLE player_seats")
    op.execute("DROP TABLE players")

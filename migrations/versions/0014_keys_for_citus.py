"""Every table keyed by its game, and on a Citus coordinator, distributed by it.

``events``' primary key becomes ``(game_id, version)`` (the unique key it
already had), and its position is unique with its game,
``(position, game_id)``: an index that still serves the global log's scan
by position. A distributed table's unique keys must hold the column it is
distributed by; on plain PostgreSQL nothing else changes.

On a database with the ``citus`` extension (a coordinator, ``casino
migrate`` pointed at it), the tables are then distributed, each by the
game it belongs to and co-located with ``games``, so that one game's rows
of every table lie on one node and a command's statement is routed there
(docs/scaling.md):

- ``games`` by ``id``; ``events``, ``idempotency``, ``seat_tokens``,
  ``snapshots``, ``checkpoints``, ``deadlines`` and ``player_seats`` by
  ``game_id``;
- ``players``, few writes and a lookup by token on every request of a
  player's, a reference table: a copy on every node; so are
  ``player_transfers`` (a player's transfer codes), ``ratings``
  and ``rating_changes`` (keyed by player, written when a rated game ends:
  that command's transaction then writes on every node, the one
  exception to "one game, one node");
- ``stream_ticket_uses`` by its ticket: each use one row, on one node.

``events_append_only`` is a statement trigger that reads nothing: Citus
keeps it on each shard (with ``citus.enable_unsafe_triggers`` for the
distribution), where it refuses every UPDATE, DELETE and TRUNCATE that
reaches a shard. Without the extension this part does nothing, so the same
migrations serve the embedded server, plain PostgreSQL and Citus.

Revision ID: 0014
Revises: 0013
Create Date: 2026-11-28
"""

from alembic import op
from sqlalchemy import text

revision = "0014"
down_revision = "0013"
branch_labels = None
depends_on = None

#: The tables distributed by the game they belong to (the first by its own id), co-located.
BY_GAME = (("games", "id"), ("events", "game_id"), ("idempotency", "game_id"), ("seat_tokens", "game_id"),
           ("snapshots", "game_id"), ("checkpoints", "game_id"), ("deadlines", "game_id"),
           ("player_seats", "game_id"))

#: The tables every node holds a copy of.
REFERENCE = ("players", "player_transfers", "ratings", "rating_changes")


def _citus() -> bool:
    return op.get_bind().execute(text("SELECT 1 FROM pg_extension WHERE extname = 'citus'")).first() is not None


def upgrade() -> None:
    op.execute("ALTER TABLE events DROP CONSTRAINT events_pkey, DROP CONSTRAINT events_game_version_key")
    op.execute("ALTER TABLE events ADD CONSTRAINT events_pkey PRIMARY KEY (game_id, version),"
               " ADD CONSTRAINT events_position_key UNIQUE (position, game_id)")
    if not _citus():
        return
    op.execute("SET LOCAL citus.enable_unsafe_triggers = on")
    for table, column in BY_GAME:
        colocated = "none" if table == "games" else "games"
        op.execute(f"SELECT create_distributed_table('{table}', '{column}', colocate_with => '{colocated}')")
    for table in REFERENCE:
        op.execute(f"SELECT create_reference_table('{table}')")
    op.execute("SELECT create_distributed_table('stream_ticket_uses', 'ticket')")


def downgrade() -> None:
    if _citus():
        for table in ("stream_ticket_uses", *reversed(REFERENCE), *(t for t, _ in reversed(BY_GAME))):
            op.execute(f"SELECT undistribute_table('{table}', cascade_via_foreign_keys => true)")
    op.execute("ALTER TABLE events DROP CONSTRAINT events_pkey, DROP CONSTRAINT events_position_key")
    op.execute("ALTER TABLE events ADD CONSTRAINT events_pkey PRIMARY KEY (position),"
               " ADD CONSTRAINT events_game_version_key UNIQUE (game_id, version)")

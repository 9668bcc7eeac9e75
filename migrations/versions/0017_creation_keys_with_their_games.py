"""Creation keys filed with their games.

The idempotency record of a game created with an ``Idempotency-Key`` was
filed under one fixed id, the nil UUID, whatever the game: on Citus that
put the record on one shard while the game might be on another node, and
every keyed creation of the cluster wrote that one shard. From now on a
keyed creation's game takes an id made from the key
(``service.auth.created_under``) and files its record under it, beside the
game's own rows.

Each record still filed under the nil UUID and not expired is moved here
to the id made from its key, so that a retry sent after the upgrade finds
the first answer there (its game keeps its own id: the record names it).
The id is made from what the table keeps, the key's SHA-256: the first 16
bytes of ``sha256("casino game id|" || actor || "|" || key)``, with the
bits of a version 4 UUID, as ``created_under`` makes it. Expired records
are dropped (a key is forgotten after its day in any case). Downgrading
files the creations' records under the nil UUID again.

On Citus the records move between shards (an ``INSERT ... SELECT``
through the coordinator, once), which is why it is an insert and a delete
rather than an update of the distribution column.

Revision ID: 0017
Revises: 0016
Create Date: 2026-11-28
"""

from alembic import op

revision = "0017"
down_revision = "0016"
branch_labels = None
depends_on = None

#: Where creation keys were filed before.
_NIL = "00000000-0000-0000-0000-000000000000"

#: The id made from a record's actor and key hash (a bytea ``made``: its 16 first bytes, then the version bits).
_MADE = """
    encode(set_byte(set_byte(made, 6, (get_byte(made, 6) & 15) | 64), 8, (get_byte(made, 8) & 63) | 128),
           'hex')::uuid
"""


def upgrade() -> None:
    op.execute(
        f"""
        INSERT INTO idempotency (game_id, actor, key, request_hash, response, created_at, expires_at)
        SELECT {_MADE}, actor, key, request_hash, response, created_at, expires_at
        FROM (SELECT *, substring(sha256(convert_to('casino game id|' || actor || '|' || key, 'UTF8')) FROM 1 FOR 16)
                        AS made
              FROM idempotency WHERE game_id = '{_NIL}' AND expires_at > now()) AS filed
        ON CONFLICT DO NOTHING
        """
    )
    op.execute(f"DELETE FROM idempotency WHERE game_id = '{_NIL}'")


def downgrade() -> None:
    # A creation's record is the one that names the game it made.
    op.execute(
        f"""
        INSERT INTO idempotency (game_id, actor, key, request_hash, response, created_at, expires_at)
        SELECT '{_NIL}', actor, key, request_hash, response, created_at, expires_at
        FROM idempotency WHERE response ? 'game' AND game_id <> '{_NIL}'
        ON CONFLICT DO NOTHING
        """
    )
    op.execute(f"DELETE FROM idempotency WHERE response ? 'game' AND game_id <> '{_NIL}'")

"""Hash chain on events; NOTIFY on append.

Every event gets a ``hash`` (see ``service.chain``) chained to the game's
event before it. Events already stored get theirs here, computed in version
order by the same function the store uses, so the column can be NOT NULL and
no reader needs a case for rows written before this revision. (The events
table is append-only: this transaction lifts the trigger that says so for
its one UPDATE.) Those rows are hashed as they are now, so the chain vouches
for them only from this migration on.

An insert into ``events`` notifies channel ``casino_events_<game id, hex>``
with the game's new version when the appending transaction commits: live
streams ``LISTEN`` there instead of polling. A trigger rather than the store
does it, so that every writer wakes the streams.

Revision ID: 0002
Revises: 0001
Create Date: 2025-11-23
"""

import hashlib
import json

from alembic import op
from sqlalchemy import text

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.execute("ALTER TABLE events ADD COLUMN hash text")
    _hash_stored_events()
    op.execute("ALTER TABLE events ALTER COLUMN hash SET NOT NULL")
    op.execute(
        "ALTER TABLE events ADD CONSTRAINT events_hash_is_sha256 CHECK (hash ~ '^[0-9a-f]{64}$')"
    )

    op.execute(
        """
        CREATE FUNCTION events_notify() RETURNS trigger
        LANGUAGE plpgsql AS $$
        BEGIN
            PERFORM pg_notify('casino_events_' || replace(game_id::text, '-', ''),
                              max(version)::text)
            FROM appended GROUP BY game_id;
            RETURN NULL;
        END
        $$
        """
    )
    op.execute(
        """
        CREATE TRIGGER events_notify
        AFTER INSERT ON events REFERENCING NEW TABLE AS appended
        FOR EACH STATEMENT EXECUTE FUNCTION events_notify()
        """
    )


def _hash_stored_events() -> None:
    bind = op.get_bind()
    # data::text, read with json.loads: the same values the store reads back.
    rows = bind.execute(text(
        "SELECT game_id, version, type, schema_version, data::text FROM events"
        " ORDER BY game_id, version"
    )).fetchall()
    if not rows:
        return
    games, versions, hashes = [], [], []
    previous, last_game = None, None
    for game_id, version, type_, schema_version, data in rows:
        if game_id != last_game:
            previous, last_game = "0" * 64, game_id
        previous = _chain_1_hash(game_id, version, type_, schema_version, json.loads(data), previous)
        games.append(str(game_id))
        versions.append(version)
        hashes.append(previous)
    op.execute("ALTER TABLE events DISABLE TRIGGER events_append_only")
    bind.execute(
        text(
            "UPDATE events SET hash = u.hash"
            " FROM unnest(CAST(:games AS uuid[]), CAST(:versions AS integer[]),"
            "             CAST(:hashes AS text[])) AS u(game_id, version, hash)"
            " WHERE events.game_id = u.game_id AND events.version = u.version"
        ),
        {"games": games, "versions": versions, "hashes": hashes},
    )
    op.execute("ALTER TABLE events ENABLE TRIGGER events_append_only")


def _chain_1_hash(game_id, version, type_, schema_version, data, previous) -> str:
    """Chain 1 of service.chain, copied here: a migration stays as it was run."""
    canonical = json.dumps(
        {"game_id": str(game_id), "version": version, "type": type_, "schema_version": schema_version,
         "data": data, "previous": previous},
        sort_keys=True, separators=(",", ":"), ensure_ascii=True,
    )
    return hashlib.sha256(canonical.encode("ascii")).hexdigest()


def downgrade() -> None:
    op.execute("DROP TRIGGER events_notify ON events")
    op.execute("DROP FUNCTION events_notify()")
    op.execute("ALTER TABLE events DROP COLUMN hash")

"""Global positions from transaction ids; no commit-time serialisation.

Until now appends were serialised to keep the global order gap-free: each
took one advisory lock and held it through its commit, and the NOTIFY
trigger of 0002 took PostgreSQL's own notification lock, which is likewise
held through the commit. So every append waited for the one before it to be
flushed to disk, one fsync after another, and no two commits could share a
flush.

From here an event's ``position`` is made from the id of the transaction
that appends it: ``xid * 65536 + n``, ``n`` counting that transaction's
events from 1. Positions then follow transaction ids, and PostgreSQL knows
which ids may still commit: those from the oldest transaction still running
(``pg_snapshot_xmin`` of a snapshot) up. A reader takes only the positions
below that id's: each of those has committed or never will, and whatever
commits later gets a position above them all. Appends no longer wait for
one another; a reader of the global log may wait for the oldest running
transaction instead. See ``service.store``.

The trigger assigns positions, so every writer gets them right. Existing
events keep theirs, which the first transaction id of this scheme exceeds
(checked here). The notification moves to the store, which sends it after
its commit, outside the transaction.

Revision ID: 0003
Revises: 0002
Create Date: 2026-11-23
"""

from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None

#: Events one transaction may append: positions keep 16 bits for them.
PER_TRANSACTION = 65536


def upgrade() -> None:
    op.execute("DROP TRIGGER events_notify ON events")
    op.execute("DROP FUNCTION events_notify()")
    op.execute("ALTER TABLE events ALTER COLUMN position DROP IDENTITY")
    op.execute(
        f"""
        CREATE FUNCTION events_assign_position() RETURNS trigger
        LANGUAGE plpgsql AS $$
        DECLARE
            n integer := coalesce(nullif(current_setting('casino.events_appended', true), ''),
                                  '0')::integer + 1;
        BEGIN
            IF n >= {PER_TRANSACTION} THEN
                RAISE EXCEPTION 'one transaction may append at most % events', {PER_TRANSACTION - 1};
            END IF;
            -- Transaction-local: the count starts again with the next transaction.
            PERFORM set_config('casino.events_appended', n::text, true);
            NEW.position := pg_current_xact_id()::text::bigint * {PER_TRANSACTION} + n;
            RETURN NEW;
        END
        $$
        """
    )
    op.execute(
        """
        CREATE TRIGGER events_position
        BEFORE INSERT ON events
        FOR EACH ROW EXECUTE FUNCTION events_assign_position()
        """
    )
    op.execute(
        f"""
        DO $$
        BEGIN
            IF (SELECT max(position) FROM events) >= pg_current_xact_id()::text::bigint * {PER_TRANSACTION} THEN
                RAISE EXCEPTION 'stored positions run past the first new one: renumber before migrating';
            END IF;
        END
        $$
        """
    )


def downgrade() -> None:
    op.execute("DROP TRIGGER events_position ON events")
    op.execute("DROP FUNCTION events_assign_position()")
    op.execute(
        """
        DO $$
        BEGIN
            EXECUTE format('ALTER TABLE events ALTER COLUMN position ADD GENERATED ALWAYS AS IDENTITY'
                           ' (START WITH %s)', (SELECT coalesce(max(position), 0) + 1 FROM events));
        END
        $$
        """
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

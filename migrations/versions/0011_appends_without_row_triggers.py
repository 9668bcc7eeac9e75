"""The append's statement does what the row triggers did; they go.

Three row triggers ran inside every append: ``events_next_version`` (0001:
a new event must follow the game's last), ``events_position`` (0003: an
event's position from its transaction's id) and
``idempotency_refile_expired`` (0005: a key filed again once its record
expired files anew). Each read or wrote its own table from inside another
row's insert, which Citus refuses on a distributed table: there a trigger
runs on a shard, and a query in it goes back through the cluster. The
store's one statement (``service.postgres.store``) now does all three: its
events' insert gives each its position and checks the game's last version,
and the idempotency record's insert deletes the expired one before it.
Every writer of events is the store; a hand-written insert now names its
position.

``events_append_only`` stays: a statement trigger that reads nothing and
refuses every UPDATE, DELETE and TRUNCATE of events, safe wherever it runs.

Revision ID: 0011
Revises: 0010
Create Date: 2026-11-28
"""

from alembic import op

revision = "0011"
down_revision = "0010"
branch_labels = None
depends_on = None

#: Event positions a transaction may take (``service.postgres.positions``,
#: as it was when this was written): a migration keeps its own values, so
#: that what it does never changes with the code after it.
PER_TRANSACTION = 65536


def upgrade() -> None:
    op.execute("DROP TRIGGER events_next_version ON events")
    op.execute("DROP FUNCTION events_check_version()")
    op.execute("DROP TRIGGER events_position ON events")
    op.execute("DROP FUNCTION events_assign_position()")
    op.execute("DROP TRIGGER idempotency_refile_expired ON idempotency")
    op.execute("DROP FUNCTION idempotency_forget_expired()")


def downgrade() -> None:
    op.execute(
        """
        CREATE FUNCTION idempotency_forget_expired() RETURNS trigger
        LANGUAGE plpgsql AS $$
        BEGIN
            DELETE FROM idempotency
            WHERE game_id = NEW.game_id AND actor = NEW.actor AND key = NEW.key AND expires_at <= now();
            RETURN NEW;
        END
        $$
        """
    )
    op.execute(
        """
        CREATE TRIGGER idempotency_refile_expired
        BEFORE INSERT ON idempotency
        FOR EACH ROW EXECUTE FUNCTION idempotency_forget_expired()
        """
    )
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
        """
        CREATE FUNCTION events_check_version() RETURNS trigger
        LANGUAGE plpgsql AS $$
        DECLARE
            last integer;
        BEGIN
            SELECT coalesce(max(version), 0) INTO last
            FROM events WHERE game_id = NEW.game_id;
            IF NEW.version <> last + 1 THEN
                RAISE EXCEPTION 'game % is at version %, so its next event is % and not %',
                    NEW.game_id, last, last + 1, NEW.version
                    USING ERRCODE = 'CV409';
            END IF;
            RETURN NEW;
        END
        $$
        """
    )
    op.execute(
        """
        CREATE TRIGGER events_next_version
        BEFORE INSERT ON events
        FOR EACH ROW EXECUTE FUNCTION events_check_version()
        """
    )

"""Initial schema: the event log, idempotency records, read model, seat tokens, snapshots.

Revision ID: 0001
Revises:
Create Date: 2025-11-22
"""

from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    # The event log is the source of truth. `position` orders every game's
    # events globally; `version` numbers one game's events from 1.
    op.execute(
        """
        CREATE TABLE events (
            position       bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
            game_id        uuid        NOT NULL,
            version        integer     NOT NULL CHECK (version >= 1),
            type           text        NOT NULL,
            schema_version integer     NOT NULL CHECK (schema_version >= 1),
            data           jsonb       NOT NULL,
            metadata       jsonb       NOT NULL DEFAULT '{}'::jsonb,
            recorded_at    timestamptz NOT NULL DEFAULT now(),
            CONSTRAINT events_game_version_key UNIQUE (game_id, version)
        )
        """
    )
    # A game's versions run 1, 2, 3, ... without a gap: a new event must be
    # the one after the game's last. (Rows inserted earlier by the same
    # statement count, so one INSERT may append several.) The store relies
    # on this as its expected-version check; the error has its own SQLSTATE,
    # CV409, which it turns into a ConcurrencyError. Two transactions that
    # pass this check at once still collide on UNIQUE (game_id, version).
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
    # Append-only, enforced by the database: a statement-level trigger fires
    # even when no row matches, so any UPDATE, DELETE or TRUNCATE fails. It
    # guards against mistakes, not against a role that may drop triggers.
    op.execute(
        """
        CREATE FUNCTION events_refuse_change() RETURNS trigger
        LANGUAGE plpgsql AS $$
        BEGIN
            RAISE EXCEPTION 'events are append-only: % refused', TG_OP
                USING ERRCODE = 'restrict_violation';
        END
        $$
        """
    )
    op.execute(
        """
        CREATE TRIGGER events_append_only
        BEFORE UPDATE OR DELETE OR TRUNCATE ON events
        FOR EACH STATEMENT EXECUTE FUNCTION events_refuse_change()
        """
    )

    # The first answer to a command sent with an Idempotency-Key, replayed
    # to retries; written in the same transaction as the command's events.
    op.execute(
        """
        CREATE TABLE idempotency (
            game_id      uuid        NOT NULL,
            key          text        NOT NULL,
            request_hash text        NOT NULL,
            response     jsonb       NOT NULL,
            created_at   timestamptz NOT NULL DEFAULT now(),
            PRIMARY KEY (game_id, key)
        )
        """
    )

    # Read model for listing and filtering games; rebuilt from the events.
    op.execute(
        """
        CREATE TABLE games (
            id           uuid        PRIMARY KEY,
            variant      text        NOT NULL,
            status       text        NOT NULL
                CHECK (status IN ('waiting', 'in_progress', 'hand_over', 'finished')),
            player_names text[]      NOT NULL DEFAULT '{}',
            version      integer     NOT NULL CHECK (version >= 0),
            created_at   timestamptz NOT NULL DEFAULT now(),
            updated_at   timestamptz NOT NULL DEFAULT now(),
            finished_at  timestamptz,
            winner       jsonb
        )
        """
    )
    # Listings page newest first with a (created_at, id) cursor, optionally
    # filtered by status or variant; player names are matched with @>.
    op.execute("CREATE INDEX games_created_idx ON games (created_at DESC, id DESC)")
    op.execute(
        "CREATE INDEX games_status_created_idx ON games (status, created_at DESC, id DESC)"
    )
    op.execute(
        "CREATE INDEX games_variant_created_idx ON games (variant, created_at DESC, id DESC)"
    )
    op.execute("CREATE INDEX games_player_names_idx ON games USING gin (player_names)")

    # sha256 of each seat's bearer token, hex: tokens are never stored in clear.
    op.execute(
        """
        CREATE TABLE seat_tokens (
            game_id    uuid    NOT NULL,
            seat       integer NOT NULL CHECK (seat >= 0),
            token_hash text    NOT NULL,
            PRIMARY KEY (game_id, seat)
        )
        """
    )

    # A cache of folded state; valid only for the code_version that wrote it.
    op.execute(
        """
        CREATE TABLE snapshots (
            game_id      uuid    PRIMARY KEY,
            version      integer NOT NULL CHECK (version >= 1),
            code_version text    NOT NULL,
            state        bytea   NOT NULL
        )
        """
    )


def downgrade() -> None:
    op.execute("DROP TABLE snapshots")
    op.execute("DROP TABLE seat_tokens")
    op.execute("DROP TABLE games")
    op.execute("DROP TABLE idempotency")
    op.execute("DROP TABLE events")
    op.execute("DROP FUNCTION events_refuse_change()")
    op.execute("DROP FUNCTION events_check_version()")

"""Idempotency keys per caller, hashed and expiring; stream tickets used once.

Idempotency records were filed per game alone, so one seat's key refused
another seat's request, and kept for ever. Now:

- each record names the caller who filed it (``actor``, as in the events'
  metadata), and a key is looked up only among that caller's records;
- ``key`` holds the sha256 (hex) of the key, not the key: a game creation's
  key is what proves its sender made the game (see ``service.tokens``), so it
  is kept nowhere in clear;
- a record is good until ``expires_at``, 24 hours after it was filed. A key
  filed again after that files anew: the insert trigger forgets the expired
  record of the same caller and key first.

Existing records get their caller from the first event they appended, and
their key hashed. Creation records are dropped: a retry now rebuilds the
first answer's tokens from the key, which the old games' random tokens were
not made from (their tokens keep working; only a retry of their creation is
no longer recognised, and retries come within moments).

``stream_ticket_uses`` records each stream ticket redeemed, until it
expires, so that a ticket opens one stream in whichever worker it reaches.

Revision ID: 0005
Revises: 0004
Create Date: 2026-11-23
"""

from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None

# Where creation keys were filed (service.store.CREATION_SCOPE).
_CREATIONS = "00000000-0000-0000-0000-000000000000"


def upgrade() -> None:
    op.execute(f"DELETE FROM idempotency WHERE game_id = '{_CREATIONS}'")
    op.execute("ALTER TABLE idempotency ADD COLUMN actor text")
    op.execute(
        """
        UPDATE idempotency AS i SET actor = coalesce(e.metadata ->> 'actor', ''),
            key = encode(sha256(convert_to(i.key, 'UTF8')), 'hex')
        FROM events AS e
        WHERE e.game_id = i.game_id AND e.version = (i.response -> 'versions' ->> 0)::integer
        """
    )
    op.execute("DELETE FROM idempotency WHERE actor IS NULL")  # no event to name its caller
    op.execute("ALTER TABLE idempotency ALTER COLUMN actor SET NOT NULL")
    op.execute("ALTER TABLE idempotency DROP CONSTRAINT idempotency_pkey")
    op.execute("ALTER TABLE idempotency ADD PRIMARY KEY (game_id, actor, key)")
    op.execute("ALTER TABLE idempotency ADD COLUMN expires_at timestamptz")
    op.execute("UPDATE idempotency SET expires_at = created_at + interval '24 hours'")
    op.execute(
        "ALTER TABLE idempotency ALTER COLUMN expires_at SET DEFAULT now() + interval '24 hours',"
        " ALTER COLUMN expires_at SET NOT NULL"
    )
    # A key filed again once its record expired files anew. (The record
    # forgotten is its caller's own: nothing else shares the primary key.)
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
        """
        CREATE TABLE stream_ticket_uses (
            ticket     text        PRIMARY KEY,
            expires_at timestamptz NOT NULL
        )
        """
    )
    op.execute("CREATE INDEX stream_ticket_uses_expires_idx ON stream_ticket_uses (expires_at)")


def downgrade() -> None:
    op.execute("DROP TABLE stream_ticket_uses")
    op.execute("DROP TRIGGER idempotency_refile_expired ON idempotency")
    op.execute("DROP FUNCTION idempotency_forget_expired()")
    # Hashed keys mean nothing to the code before, and two callers' records
    # may share a key: drop them all (they only served retries).
    op.execute("DELETE FROM idempotency")
    op.execute("ALTER TABLE idempotency DROP CONSTRAINT idempotency_pkey")
    op.execute("ALTER TABLE idempotency DROP COLUMN expires_at, DROP COLUMN actor")
    op.execute("ALTER TABLE idempotency ADD PRIMARY KEY (game_id, key)")

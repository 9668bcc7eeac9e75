"""The event store: games' events in PostgreSQL, appended atomically.

Every command's outcome is written by ``EventStore.append`` in one
transaction: its events, and with them the idempotency record, the ``games``
read-model row, new seat tokens and a state snapshot. Either all of it is
committed or none.

Global order
    ``events.position`` comes from an identity sequence, and sequences hand
    out numbers in call order, not in commit order: left alone, an append
    could commit position 12 while position 11 is still in flight, and a
    catch-up reader that saw 12 would never come back for 11. So every append
    takes one transaction-scoped advisory lock (``APPEND_LOCK_KEY``) just
    before its events get their positions, and keeps it until it commits.
    Appends are then committed one at a time, in position order, and a reader
    paging with ``position > N`` never misses an event. Positions may still
    skip a number (an append that failed after taking one), but a number
    never shows up below one a reader has already seen. Anything else that
    writes events must take the same lock.

    The price is that appends are serialised across all games. The lock is
    taken as late as possible (after the idempotency, read-model and token
    writes, which hold row locks of their own), and the whole transaction,
    BEGIN to COMMIT, is sent as one pipeline: the lock is held only while
    the server inserts the events and flushes the commit, never while the
    client process gets round to sending the COMMIT (a busy worker can take
    milliseconds, and every other append would wait that long).

    Sending the COMMIT up front means a refused append must fail with an
    error, not just insert nothing, so that the server skips the COMMIT:
    the version check makes the new rows' version NULL, which the NOT NULL
    constraint refuses, and ``append`` reports that as ``ConcurrencyError``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any
from uuid import UUID

import psycopg
from psycopg import sql
from psycopg.types.json import Jsonb
from psycopg_pool import ConnectionPool

from service.database import get_pool

# Any constant shared by every writer works; this one spells "casino-e".
APPEND_LOCK_KEY = 0x636173696E6F2D65


class ConcurrencyError(Exception):
    """Another append got there first: the game is no longer at ``expected_version``."""

    def __init__(self, game_id: UUID | str, expected_version: int):
        super().__init__(f"game {game_id} is no longer at version {expected_version}")
        self.game_id = game_id
        self.expected_version = expected_version


@dataclass(frozen=True)
class NewEvent:
    """An event to append; the store gives it its version and position."""

    type: str
    schema_version: int
    data: Any


@dataclass(frozen=True)
class StoredEvent:
    """An event as recorded: ``version`` within its game, ``position`` across all."""

    position: int
    game_id: UUID
    version: int
    type: str
    schema_version: int
    data: Any
    metadata: dict[str, Any]
    recorded_at: datetime


@dataclass(frozen=True)
class IdempotencyRecord:
    """The first answer to a command sent with an ``Idempotency-Key``."""

    key: str
    request_hash: str
    response: Mapping[str, Any]


@dataclass(frozen=True)
class Snapshot:
    """A game's folded state at ``version``, valid only for ``code_version``."""

    version: int
    code_version: str
    state: bytes


# Columns of the games read model that append(game_row=...) may set, with
# their SQL types; `id` is always the game's.
GAME_COLUMNS = {
    "variant": "text",
    "status": "text",
    "player_names": "text[]",
    "version": "integer",
    "created_at": "timestamptz",
    "updated_at": "timestamptz",
    "finished_at": "timestamptz",
    "winner": "jsonb",
}

_EVENT_COLUMNS = "position, game_id, version, type, schema_version, data, metadata, recorded_at"

# The CASE is the optimistic check: unless the game is still at the expected
# version, the new rows' version is NULL and the NOT NULL constraint refuses
# the INSERT (an error, so that the COMMIT pipelined after it is skipped).
# Under the append lock, the subquery sees every append committed before
# this one.
_INSERT_EVENTS = f"""
    INSERT INTO events (game_id, version, type, schema_version, data, metadata)
    SELECT %(game_id)s::uuid,
           CASE WHEN (SELECT coalesce(max(version), 0) FROM events
                      WHERE game_id = %(game_id)s::uuid) = %(expected)s::integer
                THEN %(expected)s::integer + e.n::integer END,
           e.type, e.schema_version, e.data, %(metadata)s::jsonb
    FROM unnest(%(types)s::text[], %(schema_versions)s::integer[], %(data)s::jsonb[])
         WITH ORDINALITY AS e(type, schema_version, data, n)
    ORDER BY e.n
    RETURNING {_EVENT_COLUMNS}
"""


class EventStore:
    """Events, idempotency records and seat tokens over a psycopg pool.

    The pool's connections must be in autocommit mode (as
    ``service.database`` makes them): reads are then one round trip each,
    and ``append`` opens its own transaction.
    """

    def __init__(self, pool: ConnectionPool):
        self._pool = pool

    def append(
        self,
        game_id: UUID | str,
        expected_version: int,
        events: Sequence[NewEvent],
        metadata: Mapping[str, Any],
        *,
        idempotency: IdempotencyRecord | None = None,
        game_row: Mapping[str, Any] | None = None,
        seat_token_hashes: Mapping[int, str] | None = None,
        snapshot: Snapshot | None = None,
    ) -> list[StoredEvent]:
        """Append ``events`` as versions ``expected_version + 1``, ... of the game.

        ``expected_version`` is 0 for a new game. ``metadata`` (actor,
        command id, request id, ...) is stored with each event. In the same
        transaction: ``idempotency`` is recorded for the game; ``game_row``
        (columns of ``GAME_COLUMNS``) is the game's new ``games`` row when
        ``expected_version`` is 0, else the columns to change in it;
        ``seat_token_hashes`` (seat to sha256 hex, see ``service.tokens``)
        are inserted, and ``snapshot`` replaces the game's snapshot.

        Raises ``ConcurrencyError``, with nothing written, when the game is
        not at ``expected_version`` or another append wins a unique key (the
        same version, idempotency key or seat).
        """
        if not events:
            raise ValueError("append needs at least one event")
        params = {
            "game_id": game_id,
            "expected": expected_version,
            "types": [event.type for event in events],
            "schema_versions": [event.schema_version for event in events],
            "data": [Jsonb(event.data) for event in events],
            "metadata": Jsonb(dict(metadata)),
        }
        try:
            with self._pool.connection() as conn:
                try:
                    # One round trip, BEGIN to COMMIT (see the module's docstring).
                    with conn.pipeline():
                        conn.execute("BEGIN", prepare=False)
                        if idempotency is not None:
                            _insert_idempotency(conn, game_id, idempotency)
                        if game_row is not None:
                            _write_game(conn, game_id, game_row, new=expected_version == 0)
                        if seat_token_hashes:
                            _insert_seat_tokens(conn, game_id, seat_token_hashes)
                        if snapshot is not None:
                            _upsert_snapshot(conn, game_id, snapshot)
                        conn.execute("SELECT pg_advisory_xact_lock(%s)", (APPEND_LOCK_KEY,))
                        inserted = conn.execute(_INSERT_EVENTS, params)
                        conn.execute("COMMIT", prepare=False)
                except BaseException:
                    # After an error the server skipped the rest, COMMIT
                    # included, and the transaction is still open, aborted.
                    if not conn.broken:
                        try:
                            conn.rollback()
                        except psycopg.Error:
                            pass  # the pool checks the connection as it takes it back
                    raise
                rows = inserted.fetchall()
        except psycopg.errors.UniqueViolation as error:
            raise ConcurrencyError(game_id, expected_version) from error
        except psycopg.errors.NotNullViolation as error:
            if error.diag.table_name == "events" and error.diag.column_name == "version":
                raise ConcurrencyError(game_id, expected_version) from error
            raise
        return [StoredEvent(*row) for row in rows]

    def load(self, game_id: UUID | str, after_version: int = 0) -> list[StoredEvent]:
        """The game's events after ``after_version``, in version order."""
        with self._pool.connection() as conn:
            rows = conn.execute(
                f"SELECT {_EVENT_COLUMNS} FROM events"
                " WHERE game_id = %s AND version > %s ORDER BY version",
                (game_id, after_version),
            ).fetchall()
        return [StoredEvent(*row) for row in rows]

    def read_all(self, after_position: int = 0, limit: int = 100) -> list[StoredEvent]:
        """Up to ``limit`` events of every game after ``after_position``, in global order."""
        if limit < 1:
            raise ValueError("limit must be at least 1")
        with self._pool.connection() as conn:
            rows = conn.execute(
                f"SELECT {_EVENT_COLUMNS} FROM events"
                " WHERE position > %s ORDER BY position LIMIT %s",
                (after_position, limit),
            ).fetchall()
        return [StoredEvent(*row) for row in rows]

    def game_version(self, game_id: UUID | str) -> int:
        """The version of the game's last event; 0 when it has none."""
        with self._pool.connection() as conn:
            (version,) = conn.execute(
                "SELECT coalesce(max(version), 0) FROM events WHERE game_id = %s", (game_id,)
            ).fetchone()
        return version

    def find_idempotent(self, game_id: UUID | str, key: str) -> tuple[str, Any] | None:
        """``(request_hash, response)`` recorded for the key, or None."""
        with self._pool.connection() as conn:
            row = conn.execute(
                "SELECT request_hash, response FROM idempotency WHERE game_id = %s AND key = %s",
                (game_id, key),
            ).fetchone()
        return (row[0], row[1]) if row else None

    def seat_for_token(self, game_id: UUID | str, token_hash: str) -> int | None:
        """The seat whose token hashes to ``token_hash``, or None."""
        with self._pool.connection() as conn:
            row = conn.execute(
                "SELECT seat FROM seat_tokens WHERE game_id = %s AND token_hash = %s",
                (game_id, token_hash),
            ).fetchone()
        return row[0] if row else None

    def load_snapshot(self, game_id: UUID | str, code_version: str) -> Snapshot | None:
        """The game's snapshot if ``code_version`` wrote it; older code's state is ignored."""
        with self._pool.connection() as conn:
            row = conn.execute(
                "SELECT version, code_version, state FROM snapshots"
                " WHERE game_id = %s AND code_version = %s",
                (game_id, code_version),
            ).fetchone()
        return Snapshot(row[0], row[1], bytes(row[2])) if row else None


def get_store() -> EventStore:
    """The store over the current app's pool."""
    return EventStore(get_pool())


def _insert_idempotency(conn: psycopg.Connection, game_id, record: IdempotencyRecord) -> None:
    conn.execute(
        "INSERT INTO idempotency (game_id, key, request_hash, response) VALUES (%s, %s, %s, %s)",
        (game_id, record.key, record.request_hash, Jsonb(dict(record.response))),
    )


def _write_game(conn: psycopg.Connection, game_id, row: Mapping[str, Any], *, new: bool) -> None:
    unknown = set(row) - set(GAME_COLUMNS)
    if unknown:
        raise ValueError(f"not columns of games: {sorted(unknown)}")
    columns = list(row)
    values = [
        Jsonb(row[c]) if GAME_COLUMNS[c] == "jsonb" and row[c] is not None else row[c]
        for c in columns
    ]
    placeholders = [sql.SQL("%s::" + GAME_COLUMNS[c]) for c in columns]
    if new:
        statement = sql.SQL("INSERT INTO games (id, {}) VALUES (%s::uuid, {})").format(
            sql.SQL(", ").join(map(sql.Identifier, columns)), sql.SQL(", ").join(placeholders)
        )
        conn.execute(statement, [game_id, *values])
        return
    assignments = [
        sql.SQL("{} = {}").format(sql.Identifier(c), p) for c, p in zip(columns, placeholders)
    ]
    if "updated_at" not in row:
        assignments.append(sql.SQL("updated_at = now()"))
    statement = sql.SQL("UPDATE games SET {} WHERE id = %s::uuid").format(
        sql.SQL(", ").join(assignments)
    )
    conn.execute(statement, [*values, game_id])


def _insert_seat_tokens(conn: psycopg.Connection, game_id, hashes: Mapping[int, str]) -> None:
    seats = list(hashes)
    conn.execute(
        "INSERT INTO seat_tokens (game_id, seat, token_hash)"
        " SELECT %s::uuid, seat, token_hash FROM unnest(%s::integer[], %s::text[]) AS t(seat, token_hash)",
        (game_id, seats, [hashes[seat] for seat in seats]),
    )


def _upsert_snapshot(conn: psycopg.Connection, game_id, snapshot: Snapshot) -> None:
    conn.execute(
        "INSERT INTO snapshots (game_id, version, code_version, state) VALUES (%s, %s, %s, %s)"
        " ON CONFLICT (game_id) DO UPDATE SET version = EXCLUDED.version,"
        " code_version = EXCLUDED.code_version, state = EXCLUDED.state",
        (game_id, snapshot.version, snapshot.code_version, snapshot.state),
    )

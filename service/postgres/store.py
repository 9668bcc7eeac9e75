"""The event store: games' events in PostgreSQL, appended atomically.

Every command's outcome is written by ``PostgresEventStore.append`` in one
transaction: its events, and with them the idempotency record, the ``games``
read-model row, new seat tokens and a state snapshot. Either all of it is
committed or none.

Global order
    ``events.position`` orders every game's events, and a catch-up reader
    paging with ``position > N`` must never miss one: no position may commit
    below one a reader has already seen. Positions come from the id of the
    appending transaction (``xid * 65536 + n``, assigned by the append's
    insert), so they follow transaction ids, and
    ``read_all`` takes only the positions below the oldest transaction still
    running: those have all committed or never will, and anything committed
    later lies above them. Positions skip numbers freely; order is what
    counts. Appends never wait for one another (their commits share disk
    flushes), and a reader waits at most for the oldest running transaction.

    On a Citus cluster each node numbers its own transactions: an event's
    position holds the id of the transaction on the node the service was
    connected to when it appended (its origin, named in the position's high
    bits: ``service.postgres.positions``), whichever node holds the game's
    shard, and that transaction ends only after the shard's commit. A
    reader's place is then one position per origin (``service.events.Cursor``),
    and of each origin it takes only the positions below that node's oldest
    running transaction (``_settled``). docs/design.md says why a cursor
    and not logical decoding.

One round trip per append
    The append is one prepared statement: the events' insert, with each of
    the append's writes (``service.writes``) a data-modifying CTE before it,
    as ``_MAPPED`` maps its kind. It is prepared once per connection (SQL
    ``PREPARE``) and run by one simple query, its argument bound by the
    client: ``BEGIN``, ``EXECUTE``, a setting that keeps the transaction's
    id, ``COMMIT``, then the notification of the channel of live streams,
    which carries the events, sealed, when they fit
    (``service.postgres.notifications``). One message, one answer, and none
    of the per-statement work of sending five statements. The argument is one JSON
    document holding everything the append writes (a snapshot's bytes, when
    there is one, are a second): one literal for the client to quote rather
    than a dozen, and the SQL of each write fixed. The explicit transaction
    keeps the notification out of it: a notification inside the transaction
    makes PostgreSQL serialise the commits of every append. The
    expected-version check, the positions and the refiling of an expired
    idempotency key are the statement's own (``_INSERT_EVENTS``,
    ``_INSERT_IDEMPOTENCY``), not triggers' (migration 0011 says why).

    On a Citus node the writes are statements of their own before the
    insert, which takes the shape Citus sends whole to the game's node
    (``_citus_events``), and the version is checked by a statement of its
    own: Citus would otherwise send the statement's parts one by one and
    commit in two phases. They are still one message, with the commit.

Synchronous standbys
    With a synchronous standby, PostgreSQL acknowledges a commit only once
    the standby has it, except when its wait is cancelled
    (``pg_cancel_backend``; ``statement_timeout`` does not end it): the
    commit then stays on the primary alone, with a warning. The append
    answers that as the database going away (``CommitNotConfirmed``, a 503): the client sends
    the command again under its key. And a retry that finds its first
    result filed (``find_idempotent``) waits for the standby to have
    everything committed so far before it answers, so no answer stands on
    a commit the standby never confirmed.

Hash chain and checkpoints
    Each event is stored with its hash (see ``service.chain``), chained to
    the hash of the game's event before it, and each append replaces the
    game's signed checkpoint (``service.checkpoints``) in the same
    statement. Both are made before the write, as for every store
    (``service.appends``): the caller passes the previous hash (the service
    keeps it next to its cached state), so the chain costs no extra round
    trip, and the moment the hash covers is the app's clock, not the
    database's; the read model's times are that moment too.
"""

from __future__ import annotations

import functools
import hashlib
import itertools
import logging
import os
import re
import time
import weakref
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, NamedTuple, NoReturn
from uuid import UUID

import psycopg
from psycopg import sql
from psycopg.pq import TransactionStatus
from psycopg.types.json import Jsonb
from psycopg_pool import ConnectionPool

from service import jsonio
from service.appends import AppendingStore, Chained
from service.auth import hash_token
from service.chain import CURRENT
from service.checkpoints import Checkpoint
from service.deadlines import Deadline
from service.events import (ORIGIN_SHIFT, ConcurrencyError, Cursor, Head, Horizon, RatingsMoved, SeveralOrigins,
                            StoredEvent, origin_of)
from service.turns import ComputerToMove
from service.postgres.database import on_citus, unconfirmed
from service.postgres.nodes import Nodes
from service.postgres.notifications import CHANNEL, Seal
from service.postgres.positions import PER_ORIGIN, PER_TRANSACTION, TRANSACTION
from service.writes import (NOW, GameRow, IdempotencyRecord, Paired, PlayerNotice, RatingChanged, SeatLeft,
                            SeatTaken, SeatToken, SeatTokenWithdrawn, Snapshot)

_log = logging.getLogger("casino.store")


class CommitNotConfirmed(psycopg.OperationalError):
    """The append committed on the primary, but the synchronous standby did
    not confirm it: it is not acknowledged (see "Synchronous standbys")."""

#: How an append's SQL reads the append's time (``service.events.NOW``).
_NOW = sql.SQL("($1 ->> 'at')::timestamptz")

# The SQL types of the games read model's columns (service.events.GAME_COLUMNS).
_COLUMN_TYPES = {
    "variant": "text",
    "status": "text",
    "player_names": "text[]",
    "version": "integer",
    "created_at": "timestamptz",
    "updated_at": "timestamptz",
    "finished_at": "timestamptz",
    "winner": "jsonb",
    "listed": "boolean",
    "lobby": "jsonb",
    "awaiting": "integer[]",
    "deadline": "timestamptz",
}

EVENT_COLUMNS = "position, game_id, version, type, schema_version, data, metadata, recorded_at, hash, chain"
_EVENT_COLUMNS_OF_E = ", ".join(f"e.{c}" for c in EVENT_COLUMNS.split(", "))

# Every write of an append reads its values from the append's argument, $1:
# one JSON document (built in PostgresEventStore._statement). The events are
# its array "events", the n-th element for version "after" + n. The insert
# gives each its position (see "Global order": its transaction's id, and its
# place "first" + n - 1 among the transaction's events) and checks the
# expected version: the game's last stored version must be "after", else
# the versions are NULL, which events.version refuses (NOT NULL): the
# statement fails, nothing of it is written, and the store answers
# ConcurrencyError. A game that moved on meanwhile, its commit not yet seen,
# is refused by the unique (game_id, version) key instead.
_INSERT_EVENTS = f"""
    INSERT INTO events (position, game_id, version, type, schema_version, data, metadata, hash, chain, recorded_at)
    SELECT $2 * {PER_TRANSACTION} + ($1 ->> 'first')::integer + e.n::integer - 1,
           ($1 ->> 'game')::uuid,
           CASE WHEN last.version = ($1 ->> 'after')::integer THEN last.version + e.n::integer END,
           e.event ->> 'type', (e.event ->> 'schema_version')::integer, e.event -> 'data', e.event -> 'metadata',
           e.event ->> 'hash', ($1 ->> 'chain')::smallint, (e.event ->> 'at')::timestamptz
    FROM jsonb_array_elements($1 -> 'events') WITH ORDINALITY AS e(event, n),
         (SELECT coalesce(max(version), 0) AS version FROM events WHERE game_id = ($1 ->> 'game')::uuid) AS last
    ORDER BY e.n
    RETURNING position, recorded_at
"""

# On a Citus node the events' insert above is not sent to the game's node
# whole: its SELECT reads a function's rows beside the events, so Citus
# runs it where the statement came in and copies the rows it made to the
# game's node (a COPY, which Citus always commits in two phases), after the
# appends' other writes, each a statement sent there of its own (Citus
# sends the parts of a statement with data-modifying CTEs one by one). On
# Citus the writes are statements of their own before it (what Citus did
# with them anyway), and the insert is its events as rows of VALUES,
# versions "after" + 1, + 2 ...: a statement Citus sends whole to the
# game's node (or runs there, when that is the node the service is
# connected to), with no copy and no second phase, and plans as its
# cheapest kind (an INSERT ... SELECT reading the game's last version, also
# sent whole, cost the nodes 0.1-0.4 ms more an append with the count
# below: docs/design.md).
# The version check is then two: the key (game_id, version), which a game
# that moved on breaks (at version 1 for a game that has events, on its
# first append), and, for the appends after a game's first, the count of
# the game's events at version "after", run before the insert in the same
# transaction, which must be 1: cast to the domain ``version_follows``
# (migration 0019), a false fails the statement with the domain's check,
# and nothing of the transaction is written (a game behind the version
# expected, which would otherwise be left with a gap in its versions).
_CITUS_VERSION_CHECK = """
    SELECT (count(*) = 1)::version_follows FROM events
    WHERE game_id = ($1 ->> 'game')::uuid AND version = ($1 ->> 'after')::integer
"""


@functools.cache
def _citus_events(count: int) -> str:
    """The events' insert as Citus sends it whole to the game's node (see above)."""
    rows = ",\n".join(
        f"($2 * {PER_TRANSACTION} + ($1 ->> 'first')::integer + {n}, ($1 ->> 'game')::uuid,"
        f" ($1 ->> 'after')::integer + {n + 1},"
        f" $1 -> 'events' -> {n} ->> 'type', ($1 -> 'events' -> {n} ->> 'schema_version')::integer,"
        f" $1 -> 'events' -> {n} -> 'data', $1 -> 'events' -> {n} -> 'metadata', $1 -> 'events' -> {n} ->> 'hash',"
        f" ($1 ->> 'chain')::smallint, ($1 -> 'events' -> {n} ->> 'at')::timestamptz)" for n in range(count))
    return ("INSERT INTO events AS inserted (position, game_id, version, type, schema_version, data, metadata, hash,"
            f" chain, recorded_at) VALUES {rows} RETURNING inserted.position, inserted.recorded_at")


# A key filed again once its record expired files anew: the expired record
# (the caller's own: nothing else shares the key) is replaced by the new one,
# every column of it (the times the table's defaults, as a new row's: "now"
# is the new row's created_at, as Citus takes no function in the update). A
# record not expired is not replaced: its request hash would be NULL, which
# the column refuses, so the statement fails, nothing of it is written, and
# the store answers ConcurrencyError, as for a key filed meanwhile
# (``_is_conflict``). One write, not a delete and then an insert reading the
# count of its rows: on Citus a part that reads another's rows has them sent
# to every worker first, and so every append would reach every node.
_INSERT_IDEMPOTENCY = """
    INSERT INTO idempotency AS i (game_id, actor, key, request_hash, response)
    VALUES (($1 -> 'idempotency' ->> 'scope')::uuid, $1 -> 'idempotency' ->> 'actor', $1 -> 'idempotency' ->> 'key',
            $1 -> 'idempotency' ->> 'request_hash', $1 -> 'idempotency' -> 'response')
    ON CONFLICT (game_id, actor, key) DO UPDATE
    SET request_hash = CASE WHEN i.expires_at <= EXCLUDED.created_at THEN EXCLUDED.request_hash END,
        response = EXCLUDED.response, created_at = EXCLUDED.created_at, expires_at = EXCLUDED.expires_at
"""

_INSERT_SEAT_TOKENS = """
    INSERT INTO seat_tokens (game_id, seat, token_hash)
    SELECT ($1 ->> 'game')::uuid, (t ->> 'seat')::integer, t ->> 'hash'
    FROM jsonb_array_elements($1 -> 'tokens') AS t
"""

_UPSERT_CHECKPOINT = """
    INSERT INTO checkpoints (game_id, version, head, signature)
    VALUES (($1 ->> 'game')::uuid, ($1 -> 'checkpoint' ->> 'version')::integer,
            $1 -> 'checkpoint' ->> 'head', $1 -> 'checkpoint' ->> 'signature')
    ON CONFLICT (game_id) DO UPDATE SET version = EXCLUDED.version, head = EXCLUDED.head,
        signature = EXCLUDED.signature
"""

# A game's deadline (service.deadlines): set or moved (a new claim may take it
# at once), or cleared when no clock runs.
_UPSERT_DEADLINE = """
    INSERT INTO deadlines (game_id, due_at) VALUES (($1 ->> 'game')::uuid, ($1 ->> 'deadline')::timestamptz)
    ON CONFLICT (game_id) DO UPDATE SET due_at = EXCLUDED.due_at, claimed_until = NULL
"""

_DELETE_DEADLINE = """
    DELETE FROM deadlines WHERE game_id = ($1 ->> 'game')::uuid
"""

# A computer seat is awaited (service.turns): since this append (a new claim
# may take it at once), or no more.
_UPSERT_COMPUTER_TURN = """
    INSERT INTO computer_turns (game_id, due_at) VALUES (($1 ->> 'game')::uuid, ($1 ->> 'computer')::timestamptz)
    ON CONFLICT (game_id) DO UPDATE SET due_at = EXCLUDED.due_at, claimed_until = NULL
"""

_DELETE_COMPUTER_TURN = """
    DELETE FROM computer_turns WHERE game_id = ($1 ->> 'game')::uuid
"""

_DELETE_SEAT_TOKENS = """
    DELETE FROM seat_tokens WHERE game_id = ($1 ->> 'game')::uuid
        AND seat IN (SELECT s::integer FROM jsonb_array_elements_text($1 -> 'tokens_gone') AS s)
"""

# A player's seats are listed in the order of their games' creation: the
# game's row (not yet visible to this statement for a new game, whose row
# is made at the append's time).
_INSERT_PLAYER_SEATS = """
    INSERT INTO player_seats (player_id, game_id, seat, created_at)
    SELECT (p ->> 'player')::uuid, ($1 ->> 'game')::uuid, (p ->> 'seat')::integer,
           coalesce((SELECT created_at FROM games WHERE id = ($1 ->> 'game')::uuid), ($1 ->> 'at')::timestamptz)
    FROM jsonb_array_elements($1 -> 'seated') AS p
"""

_DELETE_PLAYER_SEATS = """
    DELETE FROM player_seats WHERE game_id = ($1 ->> 'game')::uuid
        AND player_id IN (SELECT p::uuid FROM jsonb_array_elements_text($1 -> 'unseated') AS p)
"""

# A rated game's rating changes (service.ratings): a line per player, whose
# key another append decided on the same rating breaks (RATINGS_MOVED), and
# each player's new rating.
_INSERT_RATING_CHANGES = """
    INSERT INTO rating_changes (player_id, variant, games, game_id, seat, rating, deviation, recorded_at)
    SELECT (r ->> 'player')::uuid, r ->> 'variant', (r ->> 'games')::integer, ($1 ->> 'game')::uuid,
           (r ->> 'seat')::integer, (r ->> 'rating')::float8, (r ->> 'deviation')::float8, ($1 ->> 'at')::timestamptz
    FROM jsonb_array_elements($1 -> 'ratings') AS r
"""

_UPSERT_RATINGS = """
    INSERT INTO ratings (player_id, variant, rating, deviation, games, updated_at)
    SELECT (r ->> 'player')::uuid, r ->> 'variant', (r ->> 'rating')::float8, (r ->> 'deviation')::float8,
           (r ->> 'games')::integer, ($1 ->> 'at')::timestamptz
    FROM jsonb_array_elements($1 -> 'ratings') AS r
    ON CONFLICT (player_id, variant) DO UPDATE SET rating = EXCLUDED.rating, deviation = EXCLUDED.deviation,
        games = EXCLUDED.games, updated_at = EXCLUDED.updated_at
"""

# The pairings a new game ends (service.pairing): their waiting rows go, and
# each gets its result, whose key (the pairing) an ended one breaks.
_DELETE_PAIRINGS = """
    DELETE FROM pairings WHERE id IN (SELECT (p ->> 'pairing')::uuid FROM jsonb_array_elements($1 -> 'paired') AS p)
"""

_INSERT_PAIRING_RESULTS = """
    INSERT INTO pairing_results (pairing_id, player_id, ask, game_id, seat, ended_at)
    SELECT (p ->> 'pairing')::uuid, (p ->> 'player')::uuid, p -> 'ask', ($1 ->> 'game')::uuid,
           (p ->> 'seat')::integer, ($1 ->> 'at')::timestamptz
    FROM jsonb_array_elements($1 -> 'paired') AS p
"""

#: The key that a rating moved by another append breaks (migration 0012).
RATINGS_MOVED = "rating_changes_pkey"

# The snapshot's state is the third argument, $3.
_UPSERT_SNAPSHOT = """
    INSERT INTO snapshots (game_id, version, code_version, state)
    VALUES (($1 ->> 'game')::uuid, ($1 -> 'snapshot' ->> 'version')::integer,
            $1 -> 'snapshot' ->> 'code_version', $3)
    ON CONFLICT (game_id) DO UPDATE SET version = EXCLUDED.version,
        code_version = EXCLUDED.code_version, state = EXCLUDED.state
"""


class PostgresEventStore(AppendingStore):
    """The event store (``service.events.EventStore``) over a psycopg pool.

    The pool's connections must be in autocommit mode (as
    ``service.postgres.database`` makes them): reads are then one round trip each,
    and an append opens its own transaction. With ``checkpoint_key``, every
    append signs the game's new head (``service.appends``). Its
    notifications are sealed with ``seal`` (``service.postgres.notifications``);
    without one, under a key of this store's own, which only this process's
    listeners could open (the others read instead).
    """

    def __init__(self, pool: ConnectionPool, checkpoint_key: bytes | None = None, seal: Seal | None = None):
        super().__init__(checkpoint_key)
        self._pool = pool
        self._seal = seal or Seal(os.urandom(32))
        # On a Citus cluster: asked where the global log stands.
        self._nodes = Nodes(pool.conninfo if isinstance(pool.conninfo, str) else pool.conninfo())

    def _write(self, append: Chained) -> list[StoredEvent]:
        """The whole append in one transaction, in one statement (``_statement``).

        Raises ``ConcurrencyError``, with nothing written, when the game is
        not at the expected version or another append wins a unique key (the
        same version, idempotency key or seat).
        """
        asked = append.append
        with self._pool.connection() as conn:
            written = self._statement(append, citus=on_citus(self._pool))
            positions = _write(conn, [written], asked.game_id, asked.expected_version)
            if positions is None:  # committed; only the notification failed
                positions = [_positions(conn, append)]
        return _stored(append, positions[0])

    def _write_each(self, appends: Sequence[Chained]) -> list[list[StoredEvent] | ConcurrencyError]:
        """Every append in one transaction (each with its own version check,
        in the order of their games' ids, so that two such transactions never
        wait for each other's locks in a circle), one statement each sent in
        one message, and their notifications after its commit. If one
        conflicts, nothing of the transaction is written: the games no
        longer at their expected version are then left out (each gets its
        ``ConcurrencyError``) and the rest written together again; if that
        conflicts too, each is written by itself."""
        stored: list[list[StoredEvent] | ConcurrencyError] = [[] for _ in appends]
        todo = sorted(range(len(appends)), key=lambda i: str(appends[i].append.game_id))
        for _ in range(2):
            if len(todo) < 2:
                break
            try:
                for i, written in zip(todo, self._write_together([appends[i] for i in todo]), strict=True):
                    stored[i] = written
                return stored
            except ConcurrencyError:
                moved = self._moved([appends[i] for i in todo])
                for i in todo:
                    if appends[i].append.game_id in moved:
                        stored[i] = ConcurrencyError(appends[i].append.game_id, appends[i].append.expected_version)
                todo = [i for i in todo if appends[i].append.game_id not in moved]
        for i, outcome in zip(todo, super()._write_each([appends[i] for i in todo]), strict=True):
            stored[i] = outcome
        return stored

    def _write_together(self, appends: Sequence[Chained]) -> list[list[StoredEvent]]:
        """The appends (in their games' order) in one transaction, as ``_write_each`` says."""
        firsts = itertools.accumulate((len(a.rows) for a in appends[:-1]), initial=1)
        with self._pool.connection() as conn:
            statements = [self._statement(a, first, citus=on_citus(self._pool))
                          for a, first in zip(appends, firsts, strict=True)]
            positions = _write(conn, statements, f"(one of {len(statements)})", 0)
            if positions is None:  # committed; only the notifications failed
                positions = [_positions(conn, a) for a in appends]
        return [_stored(a, written) for a, written in zip(appends, positions, strict=True)]

    def _moved(self, appends: Sequence[Chained]) -> set[UUID]:
        """The games of ``appends`` that are no longer at the version their append expects."""
        expected = {UUID(str(a.append.game_id)): a.append.expected_version for a in appends}
        with self._pool.connection() as conn:
            # No join with the list of games: Citus runs this on each shard as it is.
            rows = conn.execute("SELECT game_id, max(version) FROM events WHERE game_id = ANY(%s::uuid[])"
                                " GROUP BY game_id", (list(expected),)).fetchall()
        last: dict[UUID, int] = dict(rows)
        return {game for game, version in expected.items() if last.get(game, 0) != version}

    def _statement(self, append: Chained, first: int = 1, *, citus: bool = False) -> _Statement:
        """The append as one prepared statement and its arguments: its events,
        and (as data-modifying CTEs before them) each of its writes, as
        ``_MAPPED`` maps its kind; with the notifications that tell of it.
        Its first event is its transaction's ``first``. On a Citus node
        (``citus``), the writes are statements of their own before the
        events' insert, which takes the shape Citus sends to the game's node
        whole (``_citus_events``)."""
        asked, rows = append.append, append.rows
        if first + len(rows) > PER_TRANSACTION:
            raise ValueError(f"one transaction may append at most {PER_TRANSACTION - 1} events")
        events_json = jsonio.dumps(rows)  # once, for the document and the notification
        parts = _Parts({"game": asked.game_id, "after": asked.expected_version, "first": first,
                        "events": jsonio.raw(events_json), "chain": CURRENT, "at": append.at.isoformat()},
                       new=asked.expected_version == 0, seal=self._seal)
        for kind, writes in append.writes:
            _MAPPED[kind](parts, writes)
        notice = self._seal.notification(asked.game_id, append.last_version, time.time(), CURRENT, events_json, first)
        if citus:
            # Made JSON once: each statement of the append takes the document.
            document = Jsonb(jsonio.dumps(parts.document), dumps=_as_made)
            checks = () if parts.new else (_CITUS_VERSION_CHECK,)
            before = tuple((q, [document, *parts.args] if "$3" in q else [document])
                           for q in (*checks, *(q for _, q in parts.queries)))
            return _Statement(_citus_events(len(rows)), [document], notice, parts.told, before)
        return _Statement(_with_writes(tuple(parts.queries)), [_json(parts.document), *parts.args], notice,
                          parts.told)

    def load(self, game_id: UUID | str, after_version: int = 0,
             until_version: int | None = None) -> list[StoredEvent]:
        """The game's events after ``after_version`` (up to ``until_version``), in version order."""
        with self._pool.connection() as conn:
            rows = conn.execute(
                f"SELECT {EVENT_COLUMNS} FROM events"
                " WHERE game_id = %s AND version > %s AND (%s::integer IS NULL OR version <= %s)"
                " ORDER BY version",
                (game_id, after_version, until_version, until_version),
            ).fetchall()
        return [StoredEvent(*row) for row in rows]

    def load_head(self, game_id: UUID | str, after_version: int = 0) -> tuple[list[StoredEvent], Checkpoint | None]:
        """``load``, and the game's checkpoint, in one statement (one snapshot of the database)."""
        with self._pool.connection() as conn:
            rows = conn.execute(
                f"SELECT {_EVENT_COLUMNS_OF_E}, c.version, c.head, c.signature FROM events e"
                " LEFT JOIN checkpoints c ON c.game_id = e.game_id"
                " WHERE e.game_id = %s AND e.version > %s ORDER BY e.version",
                (game_id, after_version),
            ).fetchall()
        if not rows:
            return [], None
        head = rows[0][-3:]
        return [StoredEvent(*row[:-3]) for row in rows], Checkpoint(*head) if head[0] is not None else None

    def load_heads(self, game_ids: Sequence[UUID], code_version: str | None) -> dict[UUID, Head]:
        """Each game's snapshot (its state on the row of its version only),
        the events from it on, and its checkpoint: one statement, one
        snapshot of the database."""
        with self._pool.connection() as conn:
            rows = conn.execute(
                # Each table read by its keys (game_id = ANY: one index scan
                # each, never a whole table), and joined on the game: a join
                # Citus runs on each shard as it is.
                f"SELECT {_EVENT_COLUMNS_OF_E}, c.version, c.head, c.signature, s.version, s.code_version,"
                " CASE WHEN e.version = s.version THEN s.state END"
                " FROM events e"
                " LEFT JOIN snapshots s ON s.game_id = e.game_id AND s.game_id = ANY(%(games)s)"
                "                      AND s.code_version = %(code)s"
                " LEFT JOIN checkpoints c ON c.game_id = e.game_id AND c.game_id = ANY(%(games)s)"
                " WHERE e.game_id = ANY(%(games)s) AND e.version >= coalesce(s.version, 1)"
                " ORDER BY e.game_id, e.version",
                # No code version is "": none asked, no snapshot matches (a
                # join on NULL would leave Citus a join it cannot run).
                {"games": list(game_ids), "code": code_version or ""},
            ).fetchall()
        heads: dict[UUID, Head] = {}
        for row in rows:
            event, head, (version, written_by, state) = StoredEvent(*row[:10]), row[10:13], row[13:]
            if event.game_id not in heads:
                heads[event.game_id] = Head(Snapshot(version, written_by, bytes(state)) if version is not None
                                            else None, [], Checkpoint(*head) if head[0] is not None else None)
            heads[event.game_id].events.append(event)
        return heads

    def read_all(self, after: Cursor | int = 0, limit: int = 100) -> list[StoredEvent]:
        """Up to ``limit`` events of every game after ``after``, in global
        order: only those below the oldest transaction still running (see
        "Global order" above); on a Citus cluster, of each origin, those
        below the oldest running on that origin's node (``_settled``)."""
        if limit < 1:
            raise ValueError("limit must be at least 1")
        cursor = after if isinstance(after, Cursor) else Cursor.at(after)
        with self._pool.connection() as conn:
            if on_citus(self._pool):
                origins = [[StoredEvent(*row) for row in conn.execute(
                            f"SELECT {EVENT_COLUMNS} FROM events WHERE position > %s AND position < %s"
                            " ORDER BY position LIMIT %s", (start, below, limit)).fetchall()]
                           for start, below in _settled(conn, cursor, self._nodes)]
                if not isinstance(after, Cursor) and after > 0 and any(
                        origin_of(events[0].position) != origin_of(after) for events in origins if events):
                    raise SeveralOrigins(after)
                return _in_game_order(conn, cursor, origins, limit)
            else:
                rows = conn.execute(
                    f"SELECT {EVENT_COLUMNS} FROM events"
                    " WHERE position > %s"
                    " AND position < pg_snapshot_xmin(pg_current_snapshot())::text::bigint * %s"
                    " ORDER BY position LIMIT %s",
                    (cursor.of(0), PER_TRANSACTION, limit),
                ).fetchall()
        return [StoredEvent(*row) for row in rows]

    def horizon(self) -> Horizon:
        """From the server's current snapshot: every transaction below its
        ``xmin`` has ended, and every one it sees is below its ``xmax``;
        events' positions are made from their transactions' ids (see
        "Global order"). A hot standby's snapshots say the same of what it
        has replayed."""
        with self._pool.connection() as conn:
            low, high = conn.execute(
                "SELECT pg_snapshot_xmin(s)::text::bigint, pg_snapshot_xmax(s)::text::bigint"
                " FROM pg_current_snapshot() AS s").fetchone() or (0, 0)
        return Horizon(low * PER_TRANSACTION, high * PER_TRANSACTION)

    def game_ids(self) -> list[UUID]:
        """Every game that has events, in id order."""
        with self._pool.connection() as conn:
            rows = conn.execute("SELECT DISTINCT game_id FROM events ORDER BY game_id").fetchall()
        return [game_id for (game_id,) in rows]

    def find_idempotent(self, game_id: UUID | str, actor: str, key: str) -> tuple[str, Any] | None:
        """``(request_hash, response)`` recorded for the caller's key and not
        expired, or None. A record found is confirmed by the synchronous
        standby, if there is one, before it is returned (``_replicated``)."""
        with self._pool.connection() as conn:
            row = conn.execute(
                "SELECT request_hash, response FROM idempotency"
                " WHERE game_id = %s AND actor = %s AND key = %s AND expires_at > now()",
                (game_id, actor, hash_token(key)),
            ).fetchone()
            if row is not None:
                _replicated(conn)
        return (row[0], row[1]) if row else None

    def seat_token_hashes(self, game_id: UUID | str) -> dict[int, str]:
        """Each seat's token hash (sha256 hex), by seat."""
        with self._pool.connection() as conn:
            rows = conn.execute("SELECT seat, token_hash FROM seat_tokens WHERE game_id = %s",
                                (game_id,)).fetchall()
        return dict(rows)

    def load_snapshot(self, game_id: UUID | str, code_version: str) -> Snapshot | None:
        """The game's snapshot if ``code_version`` wrote it; older code's state is ignored."""
        with self._pool.connection() as conn:
            row = conn.execute(
                "SELECT version, code_version, state FROM snapshots"
                " WHERE game_id = %s AND code_version = %s",
                (game_id, code_version),
            ).fetchone()
        return Snapshot(row[0], row[1], bytes(row[2])) if row else None


# Each node's oldest running transaction, and the Citus transactions
# prepared on it (a two-phase commit's: each named citus_<group of the node
# that began it>_...).
_XMIN = "SELECT pg_snapshot_xmin(pg_current_snapshot())::text::bigint"
_PREPARED_BY = ("SELECT coalesce(string_agg(split_part(gid, '_', 2), ' '), '') FROM pg_prepared_xacts"
                " WHERE gid LIKE 'citus\\_%'")


def _settled(conn: psycopg.Connection, cursor: Cursor, nodes: Nodes) -> list[tuple[int, int]]:
    """On a Citus cluster: for each origin, the range of positions after
    ``cursor`` that a reader may take, ``(after, below)``.

    An origin's positions come from its node's transaction ids, and every
    node's appends may be on any node's shards: an origin's events below
    its node's oldest running transaction (``pg_snapshot_xmin``, asked of
    every node on a connection kept to each: ``service.postgres.nodes``) have all committed
    or never will, wherever they are stored. Not quite: an append that
    wrote on two nodes (a rated game's last, which writes the ratings'
    reference tables) commits in two phases, its own node's transaction
    first and the others' prepared ones after; so an origin any of whose
    two-phase commits is still prepared somewhere, once the horizons are
    taken, is not read this time. Neither is the origin of a node that did
    not answer. An origin of a node no longer in the cluster (its events
    moved elsewhere) has nothing running: all of its band is settled. The
    reads that follow begin after these statements, so they see whatever
    committed below the horizons."""
    below, prepared = nodes.ask(conn, _XMIN, _PREPARED_BY)
    if None in prepared.values():
        return []  # a node that did not say: none of its prepared transactions may be passed
    held = {int(g) for text in prepared.values() for g in str(text).split() if g.isdigit()}
    ranges = []
    for origin in range(max(below) + 1):
        after, band = cursor.of(origin), (origin + 1) << ORIGIN_SHIFT
        if origin in held:
            continue
        if origin in below:
            xmin = below[origin]
            if not isinstance(xmin, int):
                continue  # its node did not answer
            until = (origin * PER_ORIGIN + xmin) * PER_TRANSACTION
        else:
            until = band  # no such node now: nothing of it runs
        if until > after + 1:
            ranges.append((after, min(until, band)))
    return ranges


def _in_game_order(conn: psycopg.Connection, cursor: Cursor, origins: list[list[StoredEvent]],
                   limit: int) -> list[StoredEvent]:
    """Up to ``limit`` of the events read of each origin after ``cursor``
    (``origins``: each origin's, in its order), merged so that each game's
    come in version order: a game appended through two nodes has its
    versions in two origins, and one origin's may be settled while the
    other's is still held back (``_settled``). An event whose game's
    version before it is neither read before (at or below the cursor of
    its origin) nor taken earlier in this page holds back the rest of its
    origin; of the events ready, the lowest position goes first."""
    queues = [list(reversed(events)) for events in origins if events]
    done = _read_before(conn, cursor, itertools.chain.from_iterable(queues))
    page: list[StoredEvent] = []
    while len(page) < limit:
        ready = [queue for queue in queues if queue and done.get(queue[-1].game_id, 0) == queue[-1].version - 1]
        if not ready:
            break
        event = min(ready, key=lambda queue: queue[-1].position).pop()
        done[event.game_id] = event.version
        page.append(event)
    return page


def _read_before(conn: psycopg.Connection, cursor: Cursor, events: Iterable[StoredEvent]) -> dict[UUID, int]:
    """Of the games of ``events``, those whose version before the first of
    them a reader at ``cursor`` has read: that version, by game."""
    firsts: dict[UUID, int] = {}
    for event in events:
        firsts[event.game_id] = min(event.version, firsts.get(event.game_id, event.version))
    before = {game: version - 1 for game, version in firsts.items() if version > 1}
    if not before:
        return {}
    rows = conn.execute("SELECT game_id, version, position FROM events WHERE game_id = ANY(%s) AND version = ANY(%s)",
                        (list(before), list(set(before.values())))).fetchall()
    return {game: version for game, version, position in rows
            if before.get(game) == version and position <= cursor.of(origin_of(position))}

@functools.cache
def _with_writes(queries: tuple[tuple[str, str], ...]) -> str:
    """The events' insert, with the append's other writes before it as
    data-modifying CTEs, each under its name: one statement for the whole
    append. (A handful of combinations occur, each prepared once per connection.)"""
    if not queries:
        return _INSERT_EVENTS
    return "WITH " + ", ".join(f"{name} AS ({q})" for name, q in queries) + _INSERT_EVENTS


@dataclass
class _Parts:
    """An append's statement as its writes are mapped into it: its CTEs
    (name, SQL) in order, the JSON document they read as $1, the arguments
    after it ($2, ...), and the players' notifications (``told``)."""

    document: dict[str, Any]
    new: bool  # the game's first append
    seal: Seal
    queries: list[tuple[str, str]] = field(default_factory=list)
    args: list[Any] = field(default_factory=list)
    told: list[str] = field(default_factory=list)

    def write(self, name: str, query: str, key: str | None = None, value: Any = None) -> None:
        """Add the CTE ``name``, reading ``value`` from the document's ``key``."""
        self.queries.append((name, query))
        if key is not None:
            self.document[key] = value


def _checkpoint(parts: _Parts, writes: list[Checkpoint]) -> None:
    [signed] = writes
    parts.write("checkpoint", _UPSERT_CHECKPOINT, "checkpoint",
                {"version": signed.version, "head": signed.head, "signature": signed.signature})


def _idempotency(parts: _Parts, writes: list[IdempotencyRecord]) -> None:
    [record] = writes
    parts.write("filed", _INSERT_IDEMPOTENCY, "idempotency",
                {"scope": record.scope or parts.document["game"], "actor": record.actor,
                 "key": hash_token(record.key), "request_hash": record.request_hash,
                 "response": dict(record.response)})


def _game_row(parts: _Parts, writes: list[GameRow]) -> None:
    [row] = writes
    parts.write("game_row", _write_game(row.columns, new=parts.new), "row",
                {c: v for c, v in row.columns.items() if v is not NOW})


def _deadline(parts: _Parts, writes: list[Deadline]) -> None:
    [deadline] = writes
    due = deadline.at
    parts.write("deadline", _UPSERT_DEADLINE if due is not None else _DELETE_DEADLINE, "deadline",
                due.isoformat() if due is not None else None)


def _computer_to_move(parts: _Parts, writes: list[ComputerToMove]) -> None:
    [turn] = writes
    due = turn.at
    parts.write("computer_turn", _UPSERT_COMPUTER_TURN if due is not None else _DELETE_COMPUTER_TURN, "computer",
                due.isoformat() if due is not None else None)


def _snapshot(parts: _Parts, writes: list[Snapshot]) -> None:
    [snapshot] = writes
    parts.write("snapshot", _UPSERT_SNAPSHOT, "snapshot",
                {"version": snapshot.version, "code_version": snapshot.code_version})
    parts.args.append(snapshot.state)


def _ratings(parts: _Parts, writes: list[RatingChanged]) -> None:
    parts.write("rating_changes", _INSERT_RATING_CHANGES, "ratings",
                [{"player": w.player, "variant": w.variant, "seat": w.seat, "rating": w.rating,
                  "deviation": w.deviation, "games": w.games} for w in writes])
    parts.write("ratings", _UPSERT_RATINGS)


def _paired(parts: _Parts, writes: list[Paired]) -> None:
    parts.write("pairings_gone", _DELETE_PAIRINGS, "paired",
                [{"pairing": w.pairing, "player": w.player, "ask": dict(w.ask), "seat": w.seat} for w in writes])
    parts.write("pairings_ended", _INSERT_PAIRING_RESULTS)


def _told(parts: _Parts, writes: list[PlayerNotice]) -> None:
    parts.told += [parts.seal.player_notification(w.player, jsonio.dumps(w.notices)) for w in writes]


# How each kind of write (service.writes) becomes part of the append's statement.
_MAPPED: dict[type, Callable[[_Parts, list[Any]], None]] = {
    Checkpoint: _checkpoint,
    IdempotencyRecord: _idempotency,
    GameRow: _game_row,
    Deadline: _deadline,
    ComputerToMove: _computer_to_move,
    SeatToken: lambda parts, writes: parts.write(
        "tokens", _INSERT_SEAT_TOKENS, "tokens", [{"seat": w.seat, "hash": w.token_hash} for w in writes]),
    SeatTokenWithdrawn: lambda parts, writes: parts.write(
        "tokens_gone", _DELETE_SEAT_TOKENS, "tokens_gone", [w.seat for w in writes]),
    SeatTaken: lambda parts, writes: parts.write(
        "seated", _INSERT_PLAYER_SEATS, "seated", [{"player": w.player, "seat": w.seat} for w in writes]),
    SeatLeft: lambda parts, writes: parts.write(
        "unseated", _DELETE_PLAYER_SEATS, "unseated", [w.player for w in writes]),
    Snapshot: _snapshot,
    RatingChanged: _ratings,
    Paired: _paired,
    PlayerNotice: _told,
}


class _Statement(NamedTuple):
    """One append's prepared statement (``statement``, prepared as needed),
    its arguments, and its notifications: the game's (the payload's two
    parts, see ``notifications.Seal.notification``) and the players' (whole
    payloads)."""

    statement: str
    args: list[Any]
    notice: tuple[str, str]
    told: list[str]
    #: On a Citus node: the append's other writes, each a statement (with
    #: its arguments) run before ``statement``, in the same transaction.
    before: tuple[tuple[str, list[Any]], ...] = ()


def _stored(append: Chained, written: Sequence[tuple[int, datetime]]) -> list[StoredEvent]:
    """The append's events as stored at the positions and times ``written``:
    the rest of each is what was sent, with no need to read it back."""
    asked = append.append
    game = UUID(str(asked.game_id))
    versions = itertools.count(asked.expected_version + 1)
    return [StoredEvent(position, game, version, row["type"], row["schema_version"], row["data"],
                        row["metadata"], recorded_at, row["hash"], CURRENT)
            for version, row, (position, recorded_at) in zip(versions, append.rows, written)]


def _positions(conn: psycopg.Connection, append: Chained) -> list[tuple[int, datetime]]:
    """The positions and times of a committed append's events, read back."""
    asked = append.append
    return conn.execute("SELECT position, recorded_at FROM events WHERE game_id = %s AND version > %s"
                        " ORDER BY version LIMIT %s",
                        (asked.game_id, asked.expected_version, len(append.rows))).fetchall()


# Prepared statement names per connection: an append's statement is prepared
# once on each connection (a rollback may deallocate them: see _write).
_PREPARED: weakref.WeakKeyDictionary[psycopg.Connection, set[str]] = weakref.WeakKeyDictionary()


def _prepare(conn: psycopg.Connection, statement: str) -> str:
    """The name ``statement`` is prepared under on ``conn``, preparing it if needed."""
    name, prepare = _preparation(statement)
    prepared = _PREPARED.setdefault(conn, set())
    if name not in prepared:
        try:
            conn.execute(prepare)
        except psycopg.errors.DuplicatePreparedStatement:
            pass  # prepared before a rollback made us forget it
        prepared.add(name)
    return name


@functools.cache
def _preparation(statement: str) -> tuple[str, sql.Composed]:
    """A name for ``statement``, and the PREPARE that makes it: its first
    parameter is the append's JSON document, its second the transaction's
    id (origin counted in: ``positions.TRANSACTION``), its third (if it
    has one) a snapshot's state."""
    name = "casino_append_" + hashlib.sha256(statement.encode()).hexdigest()[:16]
    types = "jsonb, bigint, bytea" if "$3" in statement else "jsonb, bigint"
    return name, sql.SQL("PREPARE {} ({}) AS ").format(sql.Identifier(name), sql.SQL(types)) + sql.SQL(statement)


@functools.cache
def _append_script(shapes: tuple[tuple[str, int, int, tuple[tuple[str, int], ...]], ...]) -> str:
    """Appends as one simple query, in one transaction: first the
    transaction's id (``positions.TRANSACTION``), kept in a setting of the
    session (``_APPENDED_IN``); for each append, its prepared statement (by
    name) with its ``count`` arguments, and that id as its second; then, after
    the commit, its game's notification (three arguments: the channel, and
    its payload's text before and after the transaction's id) and those of
    the ``told`` players (``service.notices``; two each, the channel and the
    payload); every argument is bound by the client. The notifications follow the COMMIT, in a
    transaction of their own: in the appends', they would make PostgreSQL
    serialise every append's commit; the setting keeps the id for them to carry.

    The id is taken by a statement of its own, and passed to the appends
    as an argument, so that it is always the id of the transaction on the
    node the service is connected to: on a Citus cluster, a function in a
    statement routed to another node's shard may be run there instead
    (``service.postgres.positions`` says why the node matters)."""
    xid = f"current_setting('{_APPENDED_IN}')::bigint"
    executes = "".join(f" EXECUTE {name}({', '.join(['%s', xid] + ['%s'] * (count - 1))});"
                       for main, count, _, before in shapes for name, count in (*before, (main, count)))
    notifies = "".join(f"; SELECT pg_notify(%s, %s || current_setting('{_APPENDED_IN}') || %s)"
                       + "; SELECT pg_notify(%s, %s)" * told for _, _, told, _ in shapes)
    return f"BEGIN; SELECT set_config('{_APPENDED_IN}', {TRANSACTION}::text, false);{executes} COMMIT" + notifies


#: The session setting holding the id of the connection's last append's transaction.
_APPENDED_IN = "casino.appended_in"


def _write(conn: psycopg.Connection, statements: Sequence[_Statement], game_id, expected_version: int, *,
           again: bool = True) -> list[list[tuple[int, datetime]]] | None:
    """Run the appends' ``statements`` (each prepared on ``conn`` as needed)
    in one transaction, then notify ``CHANNEL`` of each: the rows each
    insert returned, or None when only the notifications failed.

    Raises ConcurrencyError (naming ``game_id`` and ``expected_version``)
    when a statement broke a version or key.
    """
    shapes = _shapes(conn, statements)
    cursor = psycopg.ClientCursor(conn)
    arguments, notices = _arguments(statements)
    try:
        cursor.execute(_append_script(shapes), arguments + notices)
        rows = _inserted(cursor, statements)
    except psycopg.Error as error:
        if conn.info.transaction_status == TransactionStatus.IDLE:
            # Only the notifications run outside the transaction: the events
            # are committed. Streams poll too; go on without them.
            _log.warning("game %s: live streams not notified: %s", game_id, error)
            return None
        _abort(conn)
        if isinstance(error, psycopg.errors.InvalidSqlStatementName) and again:
            return _write(conn, statements, game_id, expected_version, again=False)
        _refused(conn, error, game_id, expected_version)
    if unconfirmed(conn):
        raise CommitNotConfirmed(f"game {game_id}: the synchronous standby did not confirm the commit")
    return rows


def _shapes(conn: psycopg.Connection, statements: Sequence[_Statement]
            ) -> tuple[tuple[str, int, int, tuple[tuple[str, int], ...]], ...]:
    """The appends' statements as ``_append_script`` takes them, each prepared on ``conn`` as needed."""
    return tuple((_prepare(conn, s.statement), len(s.args), len(s.told),
                  tuple((_prepare(conn, q), len(args)) for q, args in s.before)) for s in statements)


def _abort(conn: psycopg.Connection) -> None:
    """After a statement of the script failed and the rest was skipped: end
    the aborted transaction before the connection goes back to the pool. A
    rollback may deallocate every prepared statement."""
    if conn.info.transaction_status != TransactionStatus.IDLE:
        conn.rollback()
    _PREPARED.pop(conn, None)


def _arguments(statements: Sequence[_Statement]) -> tuple[list[Any], list[Any]]:
    """The arguments of the appends' statements (each write's before its
    insert's), and those of their notifications, in the script's order."""
    arguments: list[Any] = []
    notices: list[Any] = []
    for s in statements:
        for _, args in s.before:
            arguments += args
        arguments += s.args
        notices += [CHANNEL, *s.notice, *(part for payload in s.told for part in (CHANNEL, payload))]
    return arguments, notices


def _inserted(cursor: psycopg.ClientCursor, statements: Sequence[_Statement]) -> list[list[tuple[int, datetime]]]:
    """The rows each insert of the script just run returned, by position (the events' order)."""
    rows = []
    cursor.nextset()  # past BEGIN's result, to the transaction's id
    for s in statements:
        for _ in s.before:
            cursor.nextset()  # past a statement of its own (on Citus): the version check, or a write
        cursor.nextset()  # past the id (or the insert before), to the next insert's rows
        rows.append(sorted(cursor.fetchall()))
    return rows


def _refused(conn: psycopg.Connection, error: psycopg.Error, game_id, expected_version: int) -> NoReturn:
    """Raise what the appends' failed transaction means: a broken version or
    key (``ConcurrencyError``; ``RatingsMoved`` for a rating another game
    moved first), else ``error`` itself."""
    if _is_conflict(error):
        moved = _broke_key(error, RATINGS_MOVED)
        raise (RatingsMoved if moved else ConcurrencyError)(game_id, expected_version) from error
    if isinstance(error, psycopg.errors.ReadOnlySqlTransaction):
        conn.close()  # a server that no longer takes writes: the pool connects anew
    raise error


def _replicated(conn: psycopg.Connection) -> None:
    """Return once the synchronous standby, if the server has one, holds
    everything the server has committed so far: a transaction that writes
    commits, and its commit waits for the standby as any other's. What it
    writes is a message in the WAL, which nothing reads (a transaction that
    wrote nothing would not wait). Raises ``CommitNotConfirmed`` if that
    wait is cancelled."""
    with conn.transaction():
        conn.execute("SELECT pg_logical_emit_message(true, 'casino', 'replicated')")
    if unconfirmed(conn):
        raise CommitNotConfirmed("the synchronous standby did not confirm what the database holds")


def _json(value: Any) -> Jsonb:
    return Jsonb(value, dumps=jsonio.dumps)


def _as_made(text: str) -> str:
    """A JSON document's text, already made, as ``Jsonb`` sends it."""
    return text


# The version check's domain refusing (``_CITUS_VERSION_CHECK``).
_VERSION_BEHIND = re.compile(r'value for domain (public\.)?version_follows violates check constraint "version_follows"')
# What PostgreSQL says of a NULL version (Citus forwards the message of a
# shard's error, as events_102017's, without its table and column fields).
_REFUSED_VERSION = re.compile(r'column "version" of relation "events(_[0-9]+)?"')
# ... and of a key filed again before its record expired (``_INSERT_IDEMPOTENCY``).
_REFUSED_KEY = re.compile(r'column "request_hash" of relation "idempotency(_[0-9]+)?"')


def _broke_key(error: psycopg.Error, name: str) -> bool:
    """Whether ``error`` is the unique key ``name`` broken (on Citus, a
    shard's copy of it, ``name_102074``, which only the message names)."""
    if error.diag.constraint_name is not None:
        return re.fullmatch(f"{name}(_[0-9]+)?", error.diag.constraint_name) is not None
    return re.search(f'unique constraint "{name}(_[0-9]+)?"', error.diag.message_primary or "") is not None


def _is_conflict(error: BaseException) -> bool:
    """A unique key broken, the events' versions refused as not following
    the game's last (``_INSERT_EVENTS``; on Citus ``_CITUS_VERSION_CHECK``),
    or a key refiled before its record expired (``_INSERT_IDEMPOTENCY``).
    On Citus the table is a shard of events (``events_102017``), and a
    unique key broken on a worker may come back as an internal error that
    only its message names."""
    if isinstance(error, psycopg.errors.CheckViolation):
        return _VERSION_BEHIND.search(error.diag.message_primary or "") is not None
    if isinstance(error, psycopg.errors.NotNullViolation):
        message = error.diag.message_primary or ""
        return _REFUSED_VERSION.search(message) is not None or _REFUSED_KEY.search(message) is not None
    return isinstance(error, psycopg.errors.UniqueViolation) or (
        isinstance(error, psycopg.errors.InternalError_)
        and (error.diag.message_primary or "").startswith("duplicate key value violates unique constraint"))


def _write_game(row: Mapping[str, Any], *, new: bool) -> str:
    """The insert of a new game's row, or the update of its changed columns.
    A new row's times default to the append's (the table's own default is
    the database's clock, not the events')."""
    if new:
        row = {"created_at": NOW, "updated_at": NOW, **row}
    columns = tuple(row)
    now = tuple(row[c] is NOW for c in columns)
    return _game_insert(columns, now) if new else _game_update(columns, now)


# How a games column's value is read from the document's "row" (its key).
# An array is read by jsonb_populate_record, not ARRAY(SELECT ...): Citus
# takes no subquery in an UPDATE's SET or an INSERT's values.
_FROM_ROW = {
    "text": "$1 -> 'row' ->> {key}",
    "integer": "($1 -> 'row' ->> {key})::integer",
    "boolean": "($1 -> 'row' ->> {key})::boolean",
    "timestamptz": "($1 -> 'row' ->> {key})::timestamptz",
    "text[]": "(jsonb_populate_record(NULL::games, $1 -> 'row')).{column}",
    # JSON null is no winner (no lobby entry): SQL NULL.
    "jsonb": "nullif($1 -> 'row' -> {key}, 'null')",
    "integer[]": "(jsonb_populate_record(NULL::games, $1 -> 'row')).{column}",
}


def _values(columns: tuple[str, ...], now: tuple[bool, ...]) -> list[sql.Composable]:
    return [_NOW if is_now else
            sql.SQL(_FROM_ROW[_COLUMN_TYPES[c]]).format(key=sql.Literal(c), column=sql.Identifier(c))
            for c, is_now in zip(columns, now, strict=True)]


# A handful of column sets occur (a creation, a move, the last move): compose each once.
@functools.cache
def _game_insert(columns: tuple[str, ...], now: tuple[bool, ...]) -> str:
    return sql.SQL("INSERT INTO games (id, {}) VALUES (($1 ->> 'game')::uuid, {})").format(
        sql.SQL(", ").join(map(sql.Identifier, columns)), sql.SQL(", ").join(_values(columns, now))
    ).as_string()


@functools.cache
def _game_update(columns: tuple[str, ...], now: tuple[bool, ...]) -> str:
    assignments = [
        # A game is in the lobby only if it was created listed.
        sql.SQL("{} = CASE WHEN listed THEN {} END" if column == "lobby" else "{} = {}").format(
            sql.Identifier(column), value)
        for column, value in zip(columns, _values(columns, now), strict=True)
    ]
    if "updated_at" not in columns:
        assignments.append(sql.SQL("updated_at = {}").format(_NOW))
    return sql.SQL("UPDATE games SET {} WHERE id = ($1 ->> 'game')::uuid").format(
        sql.SQL(", ").join(assignments)).as_string()

"""The ``games`` read model in PostgreSQL (``service.readmodel.ReadModel``):
listing, auditing and rebuilding it.

The rows are written with each append by the event store; what a row
holds is ``service.projection``'s business. Here are the queries an
operator needs: a filtered listing paged by keyset, a game's events and row
read as of one moment, and the rebuild of one game's row from its events.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any
from uuid import UUID

from psycopg import sql
from psycopg.rows import dict_row
from psycopg.types.json import Jsonb
from psycopg_pool import ConnectionPool

from domain.rating import Rating

from service.checkpoints import Checkpoint
from service.events import StoredEvent
from service.writes import GAME_COLUMNS as ROW_COLUMNS
from service.postgres.store import EVENT_COLUMNS
from service.projection import PLAYER_SEATS, split_row
from service.readmodel import SEAT_RATINGS, Cursor, GameFilter, Kept, Row, held_ratings, page_of


#: The columns of ``games`` that hold JSON.
_JSON_COLUMNS = frozenset({"winner", "lobby"})


def _conditions(where: GameFilter) -> tuple[list[sql.Composable], list[Any]]:
    """``where`` in SQL: its conditions, and their parameters."""
    terms: list[tuple[str, Any]] = [
        ("status = ANY(%s)", list(where.statuses) or None),
        ("variant = ANY(%s)", list(where.variants) or None),
        # Uses the GIN index on player_names.
        ("player_names @> %s::text[]", list(where.players) or None),
        ("created_at >= %s", where.created_since),
        ("created_at < %s", where.created_before),
        ("finished_at >= %s", where.finished_since),
        ("finished_at < %s", where.finished_before),
    ]
    given = [(condition, value) for condition, value in terms if value is not None]
    return [sql.SQL(condition) for condition, _ in given], [value for _, value in given]


class PostgresReadModel:
    """The read model (``service.readmodel.ReadModel``): queries on the
    ``games`` table, and the events behind it, over a pool."""

    def __init__(self, pool: ConnectionPool):
        self._pool = pool

    def page(self, where: GameFilter, after: Cursor | None, limit: int) -> tuple[list[Row], Cursor | None]:
        """Up to ``limit`` rows newest first, after ``after``; and the cursor
        of the next page, None when there is none."""
        conditions, params = _conditions(where)
        if after is not None:
            conditions.append(sql.SQL("(created_at, id) < (%s, %s)"))
            params += [after.created_at, after.id]
        query = sql.SQL("SELECT id, {columns} FROM games {where}"
                        " ORDER BY created_at DESC, id DESC LIMIT %s").format(
            columns=sql.SQL(", ").join(map(sql.Identifier, ROW_COLUMNS)),
            where=sql.SQL("WHERE ") + sql.SQL(" AND ").join(conditions) if conditions else sql.SQL(""),
        )
        with self._pool.connection() as conn:
            rows = conn.cursor(row_factory=dict_row).execute(query, [*params, limit + 1]).fetchall()
        return page_of(rows, limit)

    def game_ids(self) -> list[UUID]:
        """Every game with events or a row, in id order."""
        with self._pool.connection() as conn:
            rows = conn.execute("SELECT DISTINCT game_id FROM events UNION SELECT id FROM games"
                                " UNION SELECT game_id FROM checkpoints ORDER BY 1").fetchall()
        return [game_id for (game_id,) in rows]

    def evidence(self, game_id: UUID) -> Kept:
        """The game's events, its row and its checkpoint, read as of one
        moment (an append between two separate reads would look like a stale
        row)."""
        with self._pool.connection() as conn:
            conn.execute("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY")
            try:
                events = _events(conn, game_id)
                row = _row(conn, game_id)
                if row is not None:
                    row[PLAYER_SEATS] = dict(conn.execute(
                        "SELECT player_id::text, seat FROM player_seats WHERE game_id = %s", (game_id,)).fetchall())
                found = conn.execute("SELECT version, head, signature FROM checkpoints WHERE game_id = %s",
                                     (game_id,)).fetchone()
            finally:
                conn.execute("ROLLBACK")
        return events, row, Checkpoint(*found) if found else None

    def heads(self) -> list[dict[str, Any]]:
        """Every game's last version and its hash, in game id order: what to
        keep outside the database (``casino heads``)."""
        with self._pool.connection() as conn:
            rows = conn.execute("SELECT DISTINCT ON (game_id) game_id, version, hash FROM events"
                                " ORDER BY game_id, version DESC").fetchall()
        return [{"game_id": str(game_id), "version": version, "head": head} for game_id, version, head in rows]

    def rebuild(self, game_id: UUID,
                project: Callable[[Sequence[StoredEvent]], Mapping[str, Any]]) -> None:
        """Replace the game's row by ``project(events)``, from its events alone.

        The row is locked first, so an append in flight on this game (which
        updates the row before it inserts its events) either commits before
        the events are read here or waits for this row to be written: the
        row never goes back to an older version. Other games are not held up.
        """
        with self._pool.connection() as conn, conn.transaction():
            conn.execute("SELECT 1 FROM games WHERE id = %s FOR UPDATE", (game_id,))
            row, seats = split_row(project(_events(conn, game_id)))
            values = [Jsonb(row[c]) if c in _JSON_COLUMNS and row[c] is not None else row[c]
                      for c in ROW_COLUMNS]
            conn.execute(
                sql.SQL("INSERT INTO games (id, {columns}) VALUES (%s, {values})"
                        " ON CONFLICT (id) DO UPDATE SET {updates}").format(
                    columns=sql.SQL(", ").join(map(sql.Identifier, ROW_COLUMNS)),
                    values=sql.SQL(", ").join(sql.Placeholder() * len(ROW_COLUMNS)),
                    updates=sql.SQL(", ").join(
                        sql.SQL("{0} = EXCLUDED.{0}").format(sql.Identifier(c)) for c in ROW_COLUMNS),
                ),
                [game_id, *values],
            )
            conn.execute("DELETE FROM player_seats WHERE game_id = %s", (game_id,))
            for player, seat in seats.items():
                conn.execute("INSERT INTO player_seats (player_id, game_id, seat, created_at) VALUES (%s, %s, %s, %s)",
                             (player, game_id, seat, row["created_at"]))

    def player_turns(self, player_id: UUID) -> list[Row]:
        with self._pool.connection() as conn:
            return conn.cursor(row_factory=dict_row).execute(
                "SELECT g.id, g.version, g.deadline, s.created_at FROM player_seats s JOIN games g ON g.id = s.game_id"
                " WHERE s.player_id = %s AND s.seat = ANY(g.awaiting) ORDER BY s.created_at DESC, s.game_id DESC",
                (player_id,)).fetchall()

    def player_games(self, player_id: UUID, statuses: tuple[str, ...], after: Cursor | None,
              limit: int) -> tuple[list[Row], Cursor | None]:
        """One query: the player's seats, joined to their games' rows, by the listing's index."""
        with self._pool.connection() as conn:
            rows = conn.cursor(row_factory=dict_row).execute(
                "SELECT g.id, g.variant, g.status, s.seat, g.version, g.awaiting, g.deadline, g.winner, g.player_names,"
                f" s.created_at, {_SEAT_RATINGS}"
                " FROM player_seats s JOIN games g ON g.id = s.game_id"
                " WHERE s.player_id = %(player)s"
                " AND (%(statuses)s::text[] IS NULL OR g.status = ANY(%(statuses)s::text[]))"
                " AND (%(at)s::timestamptz IS NULL OR (s.created_at, s.game_id) < (%(at)s, %(id)s::uuid))"
                " ORDER BY s.created_at DESC, s.game_id DESC LIMIT %(limit)s",
                {"player": player_id, "statuses": list(statuses) or None,
                 "at": after.created_at if after else None, "id": after.id if after else None,
                 "limit": limit + 1}).fetchall()
        return page_of(_rated(rows), limit)

    def lobby(self, variants: tuple[str, ...], after: Cursor | None, limit: int) -> tuple[list[Row], Cursor | None]:
        """The games in the lobby, by the partial index that holds only them."""
        with self._pool.connection() as conn:
            rows = conn.cursor(row_factory=dict_row).execute(
                f"SELECT g.id, g.variant, g.lobby, g.created_at, {_SEAT_RATINGS} FROM games g WHERE g.lobby IS NOT NULL"
                " AND (%(variants)s::text[] IS NULL OR g.variant = ANY(%(variants)s::text[]))"
                " AND (%(at)s::timestamptz IS NULL OR (g.created_at, g.id) < (%(at)s, %(id)s::uuid))"
                " ORDER BY g.created_at DESC, g.id DESC LIMIT %(limit)s",
                {"variants": list(variants) or None, "at": after.created_at if after else None,
                 "id": after.id if after else None, "limit": limit + 1}).fetchall()
        return page_of(_rated(rows), limit)

    def delete_rows_without_events(self) -> int:
        """Remove rows of games that have no events (a game's first events and
        its row are committed together, so a game being created is never one)."""
        with self._pool.connection() as conn:
            return conn.execute("DELETE FROM games g WHERE NOT EXISTS"
                                " (SELECT 1 FROM events e WHERE e.game_id = g.id)").rowcount


#: The ``SEAT_RATINGS`` of the game ``g`` of a listing's row, in the same
#: statement (one snapshot): each seat a player holds (by the seats' unique
#: key on game and seat), with the player's rating in the game's variant
#: (by its key), or nulls for none kept yet.
_SEAT_RATINGS = ("(SELECT jsonb_agg(jsonb_build_array(p.seat, r.rating, r.deviation, r.games))"
                 " FROM player_seats p LEFT JOIN ratings r ON r.player_id = p.player_id AND r.variant = g.variant"
                 f" WHERE p.game_id = g.id) AS {SEAT_RATINGS}")


def _rated(rows: list[Row]) -> list[Row]:
    """``rows`` with their ``SEAT_RATINGS`` as read (``_SEAT_RATINGS``) made ratings."""
    for row in rows:
        row[SEAT_RATINGS] = held_ratings(
            (seat, Rating(float(rating), float(deviation), games) if games is not None else None)
            for seat, rating, deviation, games in row[SEAT_RATINGS] or ())
    return rows


def _events(conn, game_id: UUID) -> list[StoredEvent]:
    rows = conn.execute(f"SELECT {EVENT_COLUMNS} FROM events WHERE game_id = %s ORDER BY version",
                        (game_id,)).fetchall()
    return [StoredEvent(*row) for row in rows]


def _row(conn, game_id: UUID) -> dict[str, Any] | None:
    query = sql.SQL("SELECT {columns} FROM games WHERE id = %s").format(
        columns=sql.SQL(", ").join(map(sql.Identifier, ROW_COLUMNS)))
    return conn.cursor(row_factory=dict_row).execute(query, (game_id,)).fetchone()

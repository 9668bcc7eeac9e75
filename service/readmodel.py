"""The ``games`` read model: what an operator asks of it, whatever keeps it.

One row per game (``service.events.GAME_COLUMNS``, written with each
append; what a row holds is ``service.projection``'s business). Two
adapters keep the contract of ``ReadModel``:
``service.postgres.readmodel.PostgresReadModel`` and
``service.memory.readmodel.MemoryReadModel``; tests/contract holds both to
it. Here are the listing's filter and cursor, which mean the same to both.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any, Protocol
from uuid import UUID

from domain.game_types import GAME_TYPES
from domain.rating import INITIAL, Rating

from service.checkpoints import Checkpoint
from service.events import StoredEvent
from service.ratings import shown_rating

#: Every status of every game type, each once.
STATUSES = tuple(dict.fromkeys(status for game in GAME_TYPES.values() for status in game.STATUSES))

#: A game's row: its ``GAME_COLUMNS`` (with ``id`` too, in a page of the listing).
Row = dict[str, Any]
#: A game's stored events, its row and its checkpoint, read as of one moment.
Kept = tuple[list[StoredEvent], Row | None, Checkpoint | None]


@dataclass(frozen=True)
class Cursor:
    """Where a page of the listing (newest first) ended: its last game's ``(created_at, id)``.

    Its code is ``<created_at in microseconds since 1970>.<id as 32 hex
    digits>``: a form the spec states exactly, so that every string of
    that form is a place in the listing."""

    created_at: datetime
    id: UUID

    @property
    def code(self) -> str:
        return f"{(self.created_at - _EPOCH) // _MICROSECOND}.{self.id.hex}"

    @classmethod
    def parse(cls, code: str) -> Cursor:
        """Raises ValueError unless ``code`` has a cursor's form."""
        match = _CURSOR.fullmatch(code)
        if not match:
            raise ValueError("not a cursor")
        return cls(_EPOCH + int(match.group(1)) * _MICROSECOND, UUID(hex=match.group(2)))

    @classmethod
    def of(cls, row: Row) -> Cursor:
        """The place of ``row`` in the listing."""
        return cls(row["created_at"], row["id"])


_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)
_MICROSECOND = timedelta(microseconds=1)
_CURSOR = re.compile(r"([0-9]{1,16})\.([0-9a-f]{32})")


@dataclass(frozen=True)
class GameFilter:
    """Which games to list; every given condition must hold.

    A game matches one of ``statuses`` and of ``variants``, has every one of
    ``players`` among its seats' names, and was created (finished) at or
    after ``*_since`` and before ``*_before``.
    """

    statuses: tuple[str, ...] = ()
    variants: tuple[str, ...] = ()
    players: tuple[str, ...] = ()
    created_since: datetime | None = None
    created_before: datetime | None = None
    finished_since: datetime | None = None
    finished_before: datetime | None = None

    def matches(self, row: Row) -> bool:
        """Whether the game of ``row`` is one to list."""
        return ((not self.statuses or row["status"] in self.statuses)
                and (not self.variants or row["variant"] in self.variants)
                and set(self.players) <= set(row["player_names"] or ())
                and _within(row["created_at"], self.created_since, self.created_before)
                and _within(row["finished_at"], self.finished_since, self.finished_before))


def _within(moment: datetime | None, since: datetime | None, before: datetime | None) -> bool:
    """``since <= moment < before``, each bound only when given; a missing
    moment is within no bound (as SQL's NULL compares)."""
    if since is None and before is None:
        return True
    return moment is not None and (since is None or moment >= since) and (before is None or moment < before)


def page_of(rows: list[Row], limit: int) -> tuple[list[Row], Cursor | None]:
    """``rows`` read one past ``limit``, as a page and the cursor of the next
    page (None when there is none)."""
    if len(rows) <= limit:
        return rows, None
    return rows[:limit], Cursor.of(rows[limit - 1])


def newest_first(rows: list[Row], after: Cursor | None, limit: int) -> tuple[list[Row], Cursor | None]:
    """A page of ``rows`` (each with its ``created_at`` and ``id``), newest
    first, after ``after``: what a keyset query answers, made in memory."""
    rows = sorted(rows, key=lambda row: (row["created_at"], row["id"]), reverse=True)
    if after is not None:
        rows = [row for row in rows if (row["created_at"], row["id"]) < (after.created_at, after.id)]
    return page_of(rows[:limit + 1], limit)


#: The key of a row of ``ReadModel.lobby`` and ``player_games`` that holds
#: the rating in the game's variant of each seat a registered player holds,
#: by seat: the player's as kept, or where everyone starts (``INITIAL``)
#: before a rated game moves it; a seat no player holds has none. Read with
#: the row, as of one moment, so a seat's rating is its holder's.
SEAT_RATINGS = "seat_ratings"


def seat_rating(row: Row, seat: int) -> dict[str, Any] | None:
    """The rating of ``row``'s ``seat`` as the listings show it beside its
    name (``service.ratings.shown_rating``), None for a seat no player holds."""
    return shown_rating(row[SEAT_RATINGS].get(seat))


def held_ratings(held: Iterable[tuple[int, Rating | None]]) -> dict[int, Rating]:
    """``SEAT_RATINGS`` from each seat a player holds, with the player's
    kept rating (None: none kept yet)."""
    return {seat: rating if rating is not None else INITIAL for seat, rating in held}


def outcome_of(winner: dict[str, Any] | None) -> dict[str, Any] | None:
    """Who won and how, as every game type's view says it (the read model's
    ``winner`` holds these beside the listing's former fields)."""
    return None if winner is None else {"winners": winner["winners"], "result": winner["result"]}


class ReadModel(Protocol):
    """Queries on the games read model, and the events behind it."""

    def page(self, where: GameFilter, after: Cursor | None, limit: int) -> tuple[list[Row], Cursor | None]:
        """Up to ``limit`` rows newest first (by ``created_at``, then ``id``),
        after ``after``; and the cursor of the next page, None when there is none."""

    def game_ids(self) -> list[UUID]:
        """Every game with events, a row or a checkpoint, in id order."""

    def evidence(self, game_id: UUID) -> Kept:
        """The game's events, its row (with the seats players hold in it,
        ``service.projection.PLAYER_SEATS``) and its checkpoint, read as of
        one moment (an append between two separate reads would look like a stale row)."""

    def heads(self) -> list[dict[str, Any]]:
        """Every game's last version and its hash, in game id order: what to
        keep outside the database (``casino heads``)."""

    def rebuild(self, game_id: UUID, project: Callable[[Sequence[StoredEvent]], Mapping[str, Any]]) -> None:
        """Replace the game's row, and the seats players hold in it, by
        ``project(events)`` (``service.projection.expected_row``), from its
        events alone; an append to the game meanwhile never leaves an older row behind."""

    def player_games(self, player_id: UUID, statuses: tuple[str, ...], after: Cursor | None,
                     limit: int) -> tuple[list[Row], Cursor | None]:
        """Up to ``limit`` of the games the player holds a seat in, newest
        first (by the game's ``created_at``, then id), after ``after``, each
        in one of ``statuses`` (any, when none is given); and the cursor of
        the next page. A row has the game's ``id``, ``variant``, ``status``,
        ``version``, ``awaiting`` (the seats it waits for), ``deadline``,
        ``winner``, ``player_names`` and ``created_at``, the player's
        ``seat``, and ``seat_ratings`` (``SEAT_RATINGS``)."""

    def player_turns(self, player_id: UUID) -> list[Row]:
        """The games that wait for the seat the player holds (it is one of
        their ``awaiting``), newest first: each row's ``id``, ``version`` and ``deadline``."""

    def lobby(self, variants: tuple[str, ...], after: Cursor | None, limit: int) -> tuple[list[Row], Cursor | None]:
        """Up to ``limit`` games in the lobby (those with a ``lobby`` entry),
        of one of ``variants`` (any, when none is given), newest first, after
        ``after``; each row has ``id``, ``variant``, ``lobby``, ``created_at``
        and ``seat_ratings`` (``SEAT_RATINGS``)."""

    def delete_rows_without_events(self) -> int:
        """Remove the rows of games that have no events; how many were removed."""

"""What an append writes beside its events: each kind a small type of its own.

A command's outcome is its events and a list of writes (``Append.writes``),
all of it or nothing. Each kind of write is a type here, listed in
``KINDS``; each store maps every kind to what it does with it:
``service.postgres.store`` to one part of the append's single statement
(a data-modifying CTE, or a notification after the commit),
``service.memory.store`` to its tables. tests/contract/test_writes.py runs
each kind on each store, with an example of it in ``EXAMPLES`` there. A new
kind is a type here, its place in ``KINDS``, its mapping in each store and
its example: no store grows a branch, and no append a field.

The kinds (one of each of ``SINGLE`` at most per append):

- ``IdempotencyRecord``: the answer to a retry of the command, filed under its key;
- ``GameRow``: the game's ``games`` row (the read model);
- ``SeatToken`` / ``SeatTokenWithdrawn``: a seat's token hash kept, or dropped;
- ``SeatTaken`` / ``SeatLeft``: a seat a player now holds in the game, or no more;
- ``PlayerNotice``: what the append tells a player's live stream (``service.notices``);
- ``Snapshot``: the game's folded state, sealed, replacing the one before;
- ``Deadline`` (``service.deadlines``): the game's deadline set, moved or cleared;
- ``ComputerToMove`` (``service.turns``): whether the game awaits one of
  its computer seats now, and since when;
- ``Checkpoint`` (``service.checkpoints``): the game's new head, signed; the
  store adds it itself (``service.appends``) when it has a key;
- ``RatingChanged`` (``service.ratings``): a player's new rating after a
  rated game, under the key (player, variant, games), which an append
  decided on the same rating breaks (``service.events.RatingsMoved``);
- ``Paired`` (``service.pairing``): a waiting pairing ended by the game the
  append creates, under the pairing's key, which an ended one breaks.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any
from uuid import UUID

from service.checkpoints import Checkpoint
from service.deadlines import Deadline
from service.turns import ComputerToMove

#: The columns of the ``games`` read model an append may write (``id`` is always the game's).
GAME_COLUMNS = ("variant", "status", "player_names", "version", "created_at", "updated_at",
                "finished_at", "winner", "listed", "lobby", "awaiting", "deadline")


class _AppendTime:
    """The value of a ``GameRow`` column that means "the append's time"."""

    def __repr__(self) -> str:
        return "NOW"


#: A ``GameRow`` value meaning the append's time: the same instant as its
#: events' ``recorded_at``, so the read model's times can be rebuilt from the
#: events alone. ``created_at`` and ``updated_at`` get it without asking.
NOW = _AppendTime()


@dataclass(frozen=True)
class IdempotencyRecord:
    """What it takes to answer a retry of a request sent with an
    ``Idempotency-Key`` as the first attempt was answered (``response``:
    which versions it appended, and for a creation which game it made).

    Keys are filed per game and per caller (``actor``, as ``Caller.actor``
    names it), so that no caller's key stands in another's way or tells
    them it exists; ``scope`` files one elsewhere than under the game (a
    creation's key, under the id made from it, ``service.auth.created_under``,
    which is the game's own unless that id's record had expired). Stores
    keep a key's sha256, not the key, and forget it after a day: a key
    filed again after that files anew.
    """

    key: str
    request_hash: str
    response: Mapping[str, Any]
    actor: str
    scope: UUID | None = None


@dataclass(frozen=True)
class Snapshot:
    """A game's folded state at ``version``, sealed (``service.snapshots``), valid only for ``code_version``."""

    version: int
    code_version: str
    state: bytes


@dataclass(frozen=True)
class GameRow:
    """The game's ``games`` row: the whole new row for the game's first
    append (expected version 0; columns not given are null, ``listed``
    false), the columns to change for a later one (a new ``lobby`` is kept
    only for a game created ``listed``). ``NOW`` is the append's time."""

    columns: Mapping[str, Any]

    def __post_init__(self) -> None:
        unknown = set(self.columns).difference(GAME_COLUMNS)
        if unknown:
            raise ValueError(f"not columns of games: {sorted(unknown)}")


@dataclass(frozen=True)
class SeatToken:
    """The seat's token is the one with this hash (sha256 hex, ``service.auth.hash_token``); a seat has one."""

    seat: int
    token_hash: str


@dataclass(frozen=True)
class SeatTokenWithdrawn:
    """The seat has no token any more (its holder left)."""

    seat: int


@dataclass(frozen=True)
class SeatTaken:
    """The player now holds this seat of the game (a player holds one seat of a game, a seat one player)."""

    player: UUID
    seat: int


@dataclass(frozen=True)
class SeatLeft:
    """The player holds no seat of the game any more."""

    player: UUID


@dataclass(frozen=True)
class PlayerNotice:
    """What the append tells the player (``service.notices``): a store whose
    appends other processes hear of tells them, once it has committed."""

    player: UUID
    notices: Sequence[Mapping[str, Any]]


@dataclass(frozen=True)
class RatingChanged:
    """The player's rating in ``variant`` after the game at ``seat`` (its
    ``games``-th rated game there): kept as the player's rating, and as the
    line of that game, whose key (player, variant, games) is taken once."""

    player: UUID
    variant: str
    seat: int
    rating: float
    deviation: float
    games: int


@dataclass(frozen=True)
class Paired:
    """A waiting pairing that the append creating a game ends, its player
    seated at ``seat`` (``service.pairing``): a pairing ends once, so an
    append that would end one that has ended (paired, or cancelled) writes
    nothing (a ``ConcurrencyError``)."""

    pairing: UUID
    player: UUID
    ask: Mapping[str, Any]
    seat: int


Write = (IdempotencyRecord | GameRow | SeatToken | SeatTokenWithdrawn | SeatTaken | SeatLeft | PlayerNotice
         | Snapshot | Deadline | ComputerToMove | Checkpoint | RatingChanged | Paired)

#: Every kind of write, in the order a store writes them.
KINDS: tuple[type, ...] = (Checkpoint, IdempotencyRecord, GameRow, Deadline, ComputerToMove, SeatToken,
                           SeatTokenWithdrawn, SeatTaken, SeatLeft, Snapshot, RatingChanged, Paired, PlayerNotice)
#: The kinds an append has one of at most.
SINGLE: frozenset[type] = frozenset({Checkpoint, IdempotencyRecord, GameRow, Deadline, ComputerToMove, Snapshot})


def by_kind(writes: Iterable[Write]) -> list[tuple[type, list[Any]]]:
    """``writes`` grouped by kind, the kinds in ``KINDS``' order (so that
    the same kinds always make the same statement). Raises ValueError for
    a kind not in ``KINDS``, or two of a kind of ``SINGLE``."""
    groups: dict[type, list[Any]] = {}
    for write in writes:
        groups.setdefault(type(write), []).append(write)
    unknown = set(groups).difference(KINDS)
    if unknown:
        raise ValueError(f"not kinds of write: {sorted(k.__name__ for k in unknown)}")
    doubled = [kind.__name__ for kind in SINGLE if len(groups.get(kind, ())) > 1]
    if doubled:
        raise ValueError(f"an append writes one of each of: {sorted(doubled)}")
    return [(kind, groups[kind]) for kind in KINDS if kind in groups]


def seat_tokens(hashes: Mapping[int, str | None]) -> list[Write]:
    """The writes of a mapping of seat to token hash (None: withdrawn)."""
    return [SeatTokenWithdrawn(seat) if h is None else SeatToken(seat, h) for seat, h in hashes.items()]


def player_seats(changes: Mapping[UUID, int | None]) -> list[Write]:
    """The writes of a mapping of player to the seat held (None: left)."""
    return [SeatLeft(player) if seat is None else SeatTaken(player, seat) for player, seat in changes.items()]


def player_notices(told: Mapping[UUID, Sequence[Mapping[str, Any]]]) -> list[Write]:
    """The writes of what an append tells players, by player."""
    return [PlayerNotice(player, said) for player, said in told.items()]

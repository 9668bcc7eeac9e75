"""Stored events: what an event store keeps, the contract every store keeps,
and the one place where stored rows become the domain's events again.

Two stores keep the contract: ``service.postgres.store.PostgresEventStore``
(the real one) and ``service.memory.store.MemoryEventStore`` (tests and
``make test-fast``); ``tests/contract`` holds both to it.

Which game a stored game is, its first event says
(:func:`domain.game_types.game_of_event`: the names of a game's own events
are unique across games), so folding a stored game needs no other clue; the
events every game shares are the kernel's, which any game reads
(:func:`domain.game_types.read_event`).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any, NamedTuple, Protocol, runtime_checkable
from uuid import UUID

from domain.game_types import State, game_of, game_of_event, read_event

from service.checkpoints import Checkpoint
from service.writes import Snapshot, Write, by_kind

class ConcurrencyError(Exception):
    """Another append got there first: the game is no longer at ``expected_version``
    (or a unique key the append files, such as an idempotency key, was filed before)."""

    def __init__(self, game_id: UUID | str, expected_version: int):
        super().__init__(f"game {game_id} is no longer at version {expected_version}")
        self.game_id = game_id
        self.expected_version = expected_version


class RatingsMoved(ConcurrencyError):
    """A rating the append was decided on was moved first by another game's
    append (``service.ratings``): decide the game again on the ratings as they are now."""


@dataclass(frozen=True)
class NewEvent:
    """An event to append; the store gives it its version, position and hash.

    ``metadata`` and ``recorded_at``, when given, replace the append's for
    this event (a replayed transcript keeps each event's own; a follow-up
    the service issued by itself names its own command).
    """

    type: str
    schema_version: int
    data: Any
    metadata: Mapping[str, Any] | None = None
    recorded_at: datetime | None = None


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
    hash: str
    chain: int  # which form of hash (service.chain)


@dataclass(frozen=True)
class Append:
    """One append: ``events`` as versions ``expected_version + 1``, ... of the
    game, and ``writes`` (``service.writes``: the idempotency record, the
    read model's row, seat tokens, players' seats and notices, the snapshot,
    the deadline) written with them, all of it or nothing.

    ``expected_version`` is 0 for a new game; otherwise ``previous_hash`` is
    the hash of the game's event at that version, which the new events'
    hashes chain to. ``metadata`` (actor, command, command id, request id)
    is stored with each event that has none of its own. ``at`` is the
    append's moment when the caller chose it (the moment its command was
    decided at, which the game's clock counts from); None: the store's clock.
    """

    game_id: UUID
    expected_version: int
    events: Sequence[NewEvent]
    metadata: Mapping[str, Any]
    previous_hash: str | None = None
    writes: Sequence[Write] = ()
    at: datetime | None = None

    def __post_init__(self) -> None:
        if not self.events:
            raise ValueError("append needs at least one event")
        if (self.previous_hash is None) != (self.expected_version == 0):
            raise ValueError("previous_hash is the hash of version expected_version, and only then")
        by_kind(self.writes)  # raises for a write of no kind, or two of one there is one of


class Head(NamedTuple):
    """What a game is read from (``EventStore.load_heads``): its snapshot,
    if there is one of the code version asked for, its events from the
    snapshot's version on (the snapshot holds no hash: its last event's is
    where the chain goes on from), or all of them, and its signed
    checkpoint as of the same moment."""

    snapshot: Snapshot | None
    events: list[StoredEvent]
    checkpoint: Checkpoint | None


class Horizon(NamedTuple):
    """Where the global order stands, as seen from one database server at one
    moment: every event at a position below ``settled`` is committed or
    never will be (a reader there has all of those that are), and every
    event it sees is below ``reached``. A client that was shown a read at
    ``reached`` has seen nothing another server cannot show once its
    ``settled`` is past it (``service.replicas``)."""

    settled: int
    reached: int


#: A position's origin (the node whose transaction ids numbered it: always 0
#: but on a Citus cluster appended to through several nodes) is its bits from this one up.
ORIGIN_SHIFT = 48
#: Origins a position can name (positions stay below 2**53).
ORIGINS = 32
_CURSOR = re.compile(r"[0-9]{1,16}(\.[0-9]{1,16}){0,31}")


def origin_of(position: int) -> int:
    return position >> ORIGIN_SHIFT


class SeveralOrigins(ValueError):
    """A read of the global log after one position (``read_all(int)``) that
    would give events of an origin other than that position's: one position
    places a reader in its own origin's order only, and cannot say which
    events of the others it has read (a ``Cursor`` can)."""

    def __init__(self, position: int):
        super().__init__(f"position {position} names a place in one origin's order only; the log has several")
        self.position = position


@dataclass(frozen=True)
class Cursor:
    """Where a reader of the global log stands: for each origin, the last
    position read of it (an origin not named: none read yet). Each origin's
    positions only grow, and a store's ``read_all`` gives none that could
    still commit below one it gave; the positions of different origins are
    not comparable, so a reader's place is one position per origin.

    A cursor of one position is that position (on one node, as on plain
    PostgreSQL and the memory store, the whole cursor); its ``code``, the
    positions joined by dots, is what ``/v1/events`` hands out."""

    positions: tuple[int, ...] = ()

    @classmethod
    def at(cls, position: int) -> Cursor:
        """The cursor of a reader past ``position`` in its origin, and at the start of every other."""
        return cls((position,) if position else ())

    @classmethod
    def parse(cls, code: str) -> Cursor:
        """The cursor ``code`` names; ValueError if it is not one. Of two
        positions of one origin the later counts, and one past every origin
        (2**53 or more) names nothing."""
        if not _CURSOR.fullmatch(code):
            raise ValueError(f"not a cursor: {code!r}")
        last: dict[int, int] = {}
        for position in map(int, code.split(".")):
            if 0 < position < ORIGINS << ORIGIN_SHIFT:
                last[origin_of(position)] = max(position, last.get(origin_of(position), 0))
        return cls(tuple(sorted(last.values())))

    def of(self, origin: int) -> int:
        """The last position read of ``origin``: where it begins, if none yet."""
        return next((p for p in self.positions if origin_of(p) == origin), origin << ORIGIN_SHIFT)

    def past(self, events: Iterable[StoredEvent]) -> Cursor:
        """This cursor moved past ``events`` (read after it)."""
        last = {origin_of(p): p for p in self.positions}
        for event in events:
            origin = origin_of(event.position)
            last[origin] = max(last.get(origin, 0), event.position)
        return Cursor(tuple(sorted(last.values())))

    @property
    def code(self) -> str:
        return ".".join(map(str, self.positions)) or "0"


@runtime_checkable
class EventStore(Protocol):
    """What the service layer and the read paths use of an event store.

    ``service.appends.AppendingStore`` does what every store does with an
    append (the time, the hash chain, the signed checkpoint); a store
    writes what it is handed and reads."""

    def now(self) -> datetime:
        """The store's clock: the moment an append without its own is recorded at."""

    def append(self, append: Append) -> list[StoredEvent]:
        """Write the append (see ``Append``), with its events as stored.
        Raises ``ConcurrencyError``, with nothing written, when the game is
        not at ``expected_version`` or a key filed here was filed before."""

    def append_each(self, appends: Sequence[Append]) -> list[list[StoredEvent] | ConcurrencyError]:
        """Write each of ``appends`` (of different games) as ``append`` would,
        each with its own version check, in as few transactions as the store
        can: for each, its events as stored, or the ``ConcurrencyError`` that
        kept it (and only it) from being written."""

    def load(self, game_id: UUID | str, after_version: int = 0,
             until_version: int | None = None) -> list[StoredEvent]:
        """The game's events after ``after_version`` (up to ``until_version``), in version order."""

    def load_head(self, game_id: UUID | str, after_version: int = 0) -> tuple[list[StoredEvent], Checkpoint | None]:
        """``load(game_id, after_version)``, and the game's signed checkpoint as
        of the same moment (None without one, or without events to read)."""

    def load_heads(self, game_ids: Sequence[UUID], code_version: str | None) -> dict[UUID, Head]:
        """Of each of ``game_ids`` that has events, its ``Head`` (with no
        snapshot when ``code_version`` is None), read in one go: by game."""

    def read_all(self, after: Cursor | int = 0, limit: int = 100) -> list[StoredEvent]:
        """Up to ``limit`` events of every game after ``after`` (a position:
        ``Cursor.at``), in a global order no reader paging by cursor
        (``Cursor.past``) can miss an event of: each origin's in order, each
        once, and none that commits later below the cursor. ``SeveralOrigins``
        for a position (an int above 0) when events of another origin than
        its own would be given: the position cannot say which of those the
        reader has read."""

    def horizon(self) -> Horizon:
        """Where the global order stands on this store's server now."""

    def game_ids(self) -> list[UUID]:
        """Every game that has events, in id order."""

    def find_idempotent(self, game_id: UUID | str, actor: str, key: str) -> tuple[str, Any] | None:
        """``(request_hash, response)`` filed for the caller's key and not expired, or None."""

    def seat_token_hashes(self, game_id: UUID | str) -> dict[int, str]:
        """Each seat's token hash (sha256 hex), by seat."""

    def load_snapshot(self, game_id: UUID | str, code_version: str) -> Snapshot | None:
        """The game's snapshot if ``code_version`` wrote it; older code's is ignored."""


# -- stored rows to the domain's events ------------------------------------


class Unfoldable(ValueError):
    """Stored events that do not fold into a game: ``version`` is the first that does not apply."""

    def __init__(self, version: int, event_type: str, cause: Exception):
        super().__init__(f"Version {version} ({event_type}) cannot be applied to the game before it: its"
                         " data was changed, or it does not follow from the events before it.")
        self.version = version
        self.cause = cause  # what the code that applied it raised, for the log


class Recorded(Protocol):
    """What decoding needs of a stored event (a transcript's events have it too)."""

    @property
    def version(self) -> int: ...

    @property
    def type(self) -> str: ...

    @property
    def schema_version(self) -> int: ...

    @property
    def data(self) -> Any: ...

    @property
    def recorded_at(self) -> datetime: ...

    @property
    def metadata(self) -> Mapping[str, Any]: ...


def stored_form(stored: Recorded) -> dict[str, Any]:
    """The event as its game's JSON codec reads it: ``type``, ``schema_version``, ``data``."""
    return {"type": stored.type, "schema_version": stored.schema_version, "data": stored.data}


def decode(stored: Recorded) -> Any:
    """A stored event as its game's event (upcast to the current schema)."""
    return read_event(stored_form(stored))


def refold(events: Iterable[Recorded], state: State | None = None) -> State:
    """The state after the stored ``events``, applied to ``state`` (or from
    the start), each at the time it was recorded (which a game's clock
    counts from); like the domain's ``fold``, it is a ValueError to fold nothing."""
    rest = iter(events)
    first = next(rest, None)
    if first is None:
        if state is None:
            raise ValueError("no events to fold, and no state to fold them into")
        return state
    game = game_of(state.variant) if state is not None else game_of_event(first.type)  # a game starts with its own
    later = list(rest)
    return game.fold([game.from_json(stored_form(e)) for e in later],
                     game.evolve(state, decode(first), first.recorded_at), [e.recorded_at for e in later])


def refold_checked(events: Iterable[Recorded], state: State | None = None) -> State:
    """``refold`` for events that may have been altered: raises ``Unfoldable``."""
    for event in events:
        try:
            game = game_of(state.variant) if state is not None else game_of_event(event.type)
            state = game.evolve(state, decode(event), event.recorded_at)
        # Altered data can fail anywhere in decoding or applying an event;
        # whatever it raises, the history does not hold together there.
        except Exception as error:
            raise Unfoldable(event.version, event.type, error) from error
    if state is None:
        raise ValueError("no events to fold, and no state to fold them into")
    return state

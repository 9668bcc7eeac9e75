"""The games this library knows, behind one interface a service can serve
without knowing any of them.

Each game is a module (a sibling package of :mod:`domain.cassino`) that
provides the names of :class:`GameType`; :data:`GAME_TYPES` maps a game type's
name to it. A service finds a game by a variant's name (:func:`game_of`,
for a new game or a stored state's ``variant``) or by the type of one of
the game's own events (:func:`game_of_event`: a log's first event names its
game), so adding a game touches :data:`GAME_TYPES` and nothing else of the
service (the web client's registry of game types and the spec name each
game type too: docs/design.md lists the steps).

What every game records the same way is the kernel's events
(:mod:`domain.kernel_events`), stored under names of their own and read by
any game: :func:`read_event` reads any stored event, and :func:`public_type`
is the name a reader outside the domain knows it by.

States, commands and events are each game's own types: a service holds
them without looking inside, except for ``state.version``, ``state.variant``
and ``state.status`` (:class:`State`). Everything it shows of them comes
from the game: views, redacted events, the read model's :class:`Summary`.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from datetime import datetime
from typing import Any, Protocol, TypeVar

from . import cassino, masscool
from .cards import Card
from .clocks import Clock, ClockRule
from . import kernel_events
from .codec import Event, EventCodec, public_name
from .errors import NotationError, RuleViolation
from .paging import Resume
from .rating import Rating
from .rematch import Rematch, Terms
from .seating import Holders
from .standing import FINISHED, Awaiting, Outcome, is_finished
from .summary import Summary
from .views import describe

__all__ = ["FINISHED", "GAME_TYPES", "AnyGameType", "GameType", "LegalMoves", "Move", "MoveList", "Options",
           "Preset", "State", "describe_event", "game_of", "game_of_event", "is_finished", "is_kernel_event",
           "public_event_types", "public_type", "read_event", "read_move"]

#: A stored event, a view, a ``/play`` body: JSON, as a dict of its fields.
Json = dict[str, Any]


class Options(Protocol):
    """A game's resolved options, as its first event stores them."""

    def to_dict(self) -> Json: ...


class State(Protocol):
    """What a service may read of any game's state."""

    @property
    def version(self) -> int:
        """How many events the state folds (the game's version)."""

    @property
    def variant(self) -> str:
        """The preset the game was created from; :func:`game_of` finds its game."""

    @property
    def rematch(self) -> Rematch | None:
        """Its rematch, once a seat of the finished game offered one (:mod:`domain.rematch`)."""

    @property
    def status(self) -> str:
        """Where the game stands; every game has ``"finished"`` (:data:`FINISHED`)."""

    @property
    def options(self) -> Options:
        """The game's resolved options, as its first event stored them."""

    @property
    def clock(self) -> Clock | None:
        """The game's clock as it stands (``domain.clocks``); None for a game without one."""


class Preset(Protocol):
    """A variant: a named preset of a game's options."""

    @property
    def name(self) -> str: ...

    @property
    def description(self) -> str: ...

    @property
    def players(self) -> tuple[int, ...]:
        """The seat counts it is played with."""


class Move(Protocol):
    """A move, whose ``to_dict()`` is a ``/play`` body that ``parse_move`` reads back."""

    def to_dict(self) -> Json: ...


class MoveList(Protocol):
    """A page of legal moves; ``truncated`` when more exist, and ``next``
    where the next page starts."""

    @property
    def moves(self) -> Sequence[Move]: ...

    @property
    def truncated(self) -> bool: ...

    @property
    def next(self) -> Resume | None: ...


class LegalMoves(Protocol):
    """The legal moves of a seat, as a lazy view."""

    def first(self, limit: int = ...) -> MoveList: ...

    def page(self, limit: int = ..., after: Resume | None = ...) -> MoveList:
        """The page of at most ``limit`` moves after ``after``: following
        each page's ``next`` from the first lists every legal move once."""

    def narrowed(self, card: str | None = ..., action: str | None = ..., targets: Iterable[str] = ...
                 ) -> LegalMoves:
        """Those of the moves with the hand card ``card``, of ``action``,
        naming every one of ``targets`` (each as the game's moves name
        them); :class:`~domain.errors.NotationError` for a name that is none."""


S = TypeVar("S", bound=State)
C = TypeVar("C")
E = TypeVar("E", bound=Event)
M = TypeVar("M", bound=Move)


class GameType(Protocol[S, C, E, M]):
    """A game as a module: commands are decided into events, and a state is
    the fold of its events. Every name a service needs to create, run, show
    and audit a game of this type, with no knowledge of its rules.

    Generic over the game's own types: its state ``S``, its commands ``C``,
    its events ``E`` and its moves ``M``. mypy checks each registered game
    against it with its own (:data:`GAME_TYPES`); a service holds any game
    as :data:`AnyGameType`."""

    # -- what it is ---------------------------------------------------------

    @property
    def GAME_TYPE(self) -> str:
        """The game type's name, the key of :data:`GAME_TYPES`."""

    @property
    def DESCRIPTION(self) -> str: ...

    @property
    def PLAYERS(self) -> tuple[int, ...]:
        """Every seat count some variant of the game is played with."""

    @property
    def STATUSES(self) -> tuple[str, ...]:
        """Every status a game of this type can be in (``state.status``), ``"finished"`` among them."""

    @property
    def VARIANTS(self) -> Mapping[str, Preset]:
        """The game's presets by name; variant names are unique across games."""

    @property
    def EVENT_TYPES(self) -> Mapping[str, type[E]]:
        """The game's own events by stored type name (not the kernel's, which
        every game has: :data:`domain.kernel_events.EVENT_TYPES`); names are
        unique across games."""

    @property
    def CODEC(self) -> EventCodec[E]:
        """Its events' stored forms: its own and the kernel's, under their
        names now and the names they were once stored under."""

    @property
    def STATE(self) -> type[S]:
        """The class of the game's state (a service writes snapshots of it by its fields' types)."""

    # -- commands -----------------------------------------------------------

    def resolve(self, variant: str, overrides: Json | None, players: int) -> Options:
        """The full options of a new game; :class:`~domain.errors.OptionError`
        for an unknown variant, seat count, option or value."""

    def create_command(self, variant: str, players: tuple[str | None, ...], first_dealer: int,
                       options: Json | None, seed: bytes | None, clock: ClockRule | None = None,
                       rated: bool = False) -> C:
        """The command that creates a game: seat names (seat 0 first; None
        for an open seat, which a player joins later), the first dealer,
        option overrides, the secret seed of its first shuffle (None: deals
        bring their own deck), its clock (None: none), and whether it is
        rated (every seat then a player's: ``unrated_seat``)."""

    def deal_command(self, seat: int | None, deck: tuple[Card, ...] | None, next_seed: bytes | None) -> C:
        """Deal: asked by ``seat`` (None: the operator), with the operator's
        fixed ``deck`` (top card first) or None for the committed seed's;
        ``next_seed`` is fresh entropy for the next commitment."""

    def parse_move(self, body: Any) -> M:
        """A ``/play`` body read as a move; :class:`~domain.errors.NotationError` if it is not one."""

    def command_for(self, seat: int, move: M, next_seed: bytes | None) -> C:
        """The command by which ``seat`` makes ``move`` (from ``parse_move``);
        ``next_seed`` is fresh entropy in case the move ends a hand."""

    def undo_command(self, seat: int | None) -> C:
        """Take back the latest move: asked by ``seat``, or forced by the operator (None)."""

    def answer_undo_command(self, seat: int, accept: bool) -> C:
        """``seat`` accepts or refuses a pending undo request."""

    def follow_up(self, state: S, next_seed: bytes | None) -> C | None:
        """The command the service must issue by itself after a command, or
        None; decide it, append it, and ask again until None."""

    # The kernel's seating and clock commands (``domain.seating``), which every game has.

    def join_command(self, seat: int | None, name: str, player: str | None) -> C:
        """``name`` (the player ``player``, or a guest) takes the open seat
        ``seat``, or the lowest open one; refused ``no_open_seat``,
        ``seat_taken``, ``already_seated``, ``not_a_seat``."""

    def leave_command(self, seat: int) -> C:
        """``seat`` gets up before the first deal (refused ``game_started`` after it)."""

    def resign_command(self, seat: int) -> C:
        """``seat`` gives the game up: its side loses (``seats_open`` while a seat is open)."""

    def abort_command(self, seat: int) -> C:
        """``seat`` calls the game off before the first play (``already_played`` after it)."""

    def time_out_command(self, next_seed: bytes | None) -> C:
        """The service claims the running clock's time-out; decided with the
        time it is claimed at (``not_due`` before the deadline)."""

    def computer_command(self, state: S, computers: tuple[int, ...],
                         next_seed: bytes | None) -> tuple[int, C] | None:
        """What one of the seats the service plays (``computers``) does next,
        as ``(seat, command)``; None while they wait for a person."""

    def rate_command(self, ratings: Mapping[str, Rating]) -> C:
        """The service rates the finished rated game: its players' ratings in
        its variant before it (:mod:`domain.rating`); refused ``not_rated``
        when it has nothing to rate (see ``players_to_rate``)."""

    def rematch_command(self, seat: int, game_id: str) -> C:
        """``seat`` offers, or accepts, a rematch of the finished game; ``game_id``
        names the new game should this answer complete it (:mod:`domain.rematch`)."""

    # Commands some games have and others refuse with a RuleViolation
    # (``not_in_this_game``): the service offers them to every game.

    def count_out_command(self, seat: int) -> C:
        """``seat`` claims its side has reached the target."""

    def void_command(self, reason: str, next_seed: bytes | None) -> C:
        """The operator voids the hand being played."""

    def client_seed_command(self, seat: int, seed: str) -> C:
        """``seat`` adds its own seed to the next shuffles."""

    # -- the rules ----------------------------------------------------------

    def decide(self, state: S | None, command: C, at: datetime | None = None) -> list[E]:
        """The events ``command`` brings in ``state`` (None before creation),
        decided at ``at`` (the moment the service handles it: a clock past
        its deadline refuses it, ``time_out``), or a
        :class:`~domain.errors.RuleViolation`."""

    def evolve(self, state: S | None, event: E, at: datetime | None = None) -> S:
        """The state after one event, recorded at ``at``."""

    def fold(self, events: Iterable[E], state: S | None = None, times: Iterable[datetime] | None = None) -> S:
        """The state after ``events``, applied to ``state`` (or from the start),
        each recorded at its time in ``times`` (None: clocks stand still); never None."""

    def legal_moves(self, state: S, seat: int) -> LegalMoves:
        """The moves ``seat`` may make now."""

    def to_json(self, event: E) -> Json:
        """The stored form of an event: ``{"type", "schema_version", "data"}``."""

    def from_json(self, stored: Json) -> E:
        """An event read back from its stored form (old versions upcast)."""

    # -- where a game stands -----------------------------------------------

    def awaiting(self, state: S) -> Awaiting | None:
        """What the game waits for now and from which seats; None once it is over."""

    def outcome(self, state: S) -> Outcome | None:
        """How the game ended and which seats won; None until it is over."""

    def players_to_rate(self, state: S) -> tuple[str, ...]:
        """The players whose ratings the game moves now: each seat's, once a
        rated game is over (not aborted) and not yet rated; else none."""

    def rematch_terms(self, state: S) -> Terms:
        """What the new game of the finished game's rematch is created with."""

    def seat_holders(self, state: S) -> Holders:
        """Who holds each seat (a name and a player id), None for an open seat."""

    def deadline(self, state: S) -> datetime | None:
        """When the running clock's time is up (the service claims the
        time-out after it); None when no clock runs."""

    # -- what a caller sees -------------------------------------------------

    def game_view(self, state: S, seat: int | None = None, operator: bool = False) -> Json:
        """The game as ``seat`` (or the operator, or with neither the public) may see it."""

    def event_view(self, stored: Json, seat: int | None = None, operator: bool = False,
                   reveal: bool = False) -> Json:
        """A stored event as that caller may see it; ``reveal`` shows everything."""

    def log_revealed(self, state: S) -> bool:
        """Whether the whole log is public now (the game is over and allows it)."""

    def seats(self, state: S) -> list[Json]:
        """The seats as a creation answer lists them (before their tokens)."""

    def describe_event(self, stored: Json) -> str:
        """One line saying what a stored event records, for a person reading a transcript."""

    def summary(self, state: S) -> Summary:
        """The read model's fields for the game at ``state``."""

    def audit(self, events: Iterable[E]) -> list[str]:
        """One sentence per unfair shuffle in a game's events; none for a fair game."""


#: Any game, as a service holds it: its state, commands, events and moves are the game's own.
AnyGameType = GameType[Any, Any, Any, Any]

def checked(game: GameType[S, C, E, M]) -> GameType[S, C, E, M]:
    """``game``, which mypy checks against the interface with the state,
    command, event and move types its own members agree on."""
    return game


#: Every game type, by name: a game is registered by one line here.
GAME_TYPES: dict[str, AnyGameType] = {game.GAME_TYPE: game for game in (
    checked(cassino),
    checked(masscool),
)}

_BY_VARIANT: dict[str, AnyGameType] = {v: game for game in GAME_TYPES.values() for v in game.VARIANTS}
_BY_EVENT: dict[str, AnyGameType] = {t: game for game in GAME_TYPES.values() for t in game.EVENT_TYPES}


def _readers() -> dict[str, EventCodec[Any]]:
    """The codec that reads each stored name (the kernel's for its own
    names); a name two codecs read differently is an error at import."""
    readers: dict[str, EventCodec[Any]] = dict.fromkeys(kernel_events.EVENT_TYPES, kernel_events.CODEC)
    for game in GAME_TYPES.values():
        for name in game.CODEC.reads():
            current = game.CODEC.current_name(name)
            if current in kernel_events.EVENT_TYPES:
                readers.setdefault(name, game.CODEC)
                continue
            if name in readers:
                raise ValueError(f"Two games store an event as {name}.")
            readers[name] = game.CODEC
    return readers


_READERS = _readers()


def is_kernel_event(event_type: str) -> bool:
    """Whether events stored as ``event_type`` are the kernel's (under its name now or an old one)."""
    reader = _READERS.get(event_type)
    return reader is not None and reader.current_name(event_type) in kernel_events.EVENT_TYPES


def read_event(stored: Json) -> Event:
    """Any game's stored event (``{"type", "schema_version", "data"}``), read
    under its current name and upcast; a :class:`KeyError` for a type no
    game has."""
    event: Event = _READERS[stored["type"]].from_json(stored)
    return event


def public_type(event_type: str) -> str:
    """The name an event stored as ``event_type`` is known by outside the
    domain: the public name (:func:`domain.codec.public_name`) of its
    current stored name, the same for every game; a type no game has, as it is."""
    reader = _READERS.get(event_type)
    return public_name(reader.current_name(event_type)) if reader is not None else event_type


def public_event_types(game: AnyGameType) -> list[str]:
    """The public names of every event a game of ``game`` records: its own, then the kernel's."""
    return [public_name(t) for t in (*game.EVENT_TYPES, *kernel_events.EVENT_TYPES)]


def describe_event(stored: Json) -> str:
    """One line saying what a stored event records, whatever its game."""
    reader = _READERS[stored["type"]]
    current = reader.to_json(reader.from_json(stored))
    if current["type"] in kernel_events.EVENT_TYPES:
        return describe(current, kernel_events.DESCRIBERS)
    return game_of_event(current["type"]).describe_event(current)


def game_of(variant: str) -> AnyGameType:
    """The game a variant belongs to; :class:`KeyError` for an unknown one."""
    return _BY_VARIANT[variant]


def game_of_event(event_type: str) -> AnyGameType:
    """The game whose own events include the stored type ``event_type``;
    :class:`KeyError` if none (the kernel's events are every game's)."""
    return _BY_EVENT[event_type]


def read_move(game: AnyGameType, body: Any) -> Move:
    """A ``/play`` body read as a move of ``game``. A body that is no move of
    it but is one of another game (a bet in Cassino, a trail in Mass Cool
    Casino) is a well-formed move of the wrong game: a
    :class:`~domain.errors.RuleViolation` ``not_in_this_game``, not a
    :class:`~domain.errors.NotationError`."""
    try:
        move: Move = game.parse_move(body)
    except NotationError as not_ours:
        for other in GAME_TYPES.values():
            if other is game:
                continue
            try:
                other.parse_move(body)
            except NotationError:
                continue
            raise RuleViolation("not_in_this_game", f"That is a move of another game ({other.GAME_TYPE}),"
                                " not of this one.") from not_ours
        raise
    return move


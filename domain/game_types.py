"""The games this library knows, behind one interface a service can serve
without knowing any of them.

Each game is a module (a sibling package of :mod:`domain.cassino`) that
provides the names of :class:`GameType`; :data:`GAME_TYPES` maps a game type's
name to it. A service finds a game by a variant's name (:func:`game_of`,
for a new game or a stored state's ``variant``) or by a stored event's type
(:func:`game_of_event`, for a log), so adding a game touches :data:`GAME_TYPES`
and nothing else of the service (the web client's pages and the spec name
each game type too: docs/design.md lists the steps).

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
from .codec import Event
from .errors import NotationError, RuleViolation
from .paging import Resume
from .rating import Rating
from .seating import Holders
from .standing import FINISHED, Awaiting, Outcome, is_finished
from .summary import Summary

__all__ = ["FINISHED", "GAME_TYPES", "AnyGameType", "GameType", "LegalMoves", "Move", "MoveList", "Options",
           "Preset", "State", "game_of", "game_of_event", "is_finished", "read_move"]

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
        """The game's events by stored type name; names are unique across games."""

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


def game_of(variant: str) -> AnyGameType:
    """The game a variant belongs to; :class:`KeyError` for an unknown one."""
    return _BY_VARIANT[variant]


def game_of_event(event_type: str) -> AnyGameType:
    """The game whose events include the stored type ``event_type``; :class:`KeyError` if none."""
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


"""The games this library knows, behind one interface a service can serve
without knowing any of them.

Each game is a module (a sibling package of :mod:`domain.cassino`) that
provides the names of :class:`GameType`; :data:`GAME_TYPES` maps a game type's
name to it. A service finds a game by a variant's name (:func:`game_of`,
for a new game or a stored state's ``variant``) or by a stored event's type
(:func:`game_of_event`, for a log), so adding a game touches :data:`GAME_TYPES`
and nothing else.

States, commands and events are each game's own types: a service holds
them without looking inside, except for ``state.version``, ``state.variant``
and ``state.status`` (:class:`State`). Everything it shows of them comes
from the game: views, redacted events, the read model's :class:`Summary`.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any, Protocol

from . import cassino, masscool
from .cards import Card
from .errors import NotationError, RuleViolation
from .standing import Awaiting, Outcome
from .summary import Summary


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


class Preset(Protocol):
    """A variant: a named preset of a game's options."""

    @property
    def name(self) -> str: ...

    @property
    def description(self) -> str: ...

    @property
    def players(self) -> tuple[int, ...]:
        """The seat counts it is played with."""


class Options(Protocol):
    """A game's resolved options, as its first event stores them."""

    def to_dict(self) -> dict[str, Any]: ...


class Move(Protocol):
    """A move, whose ``to_dict()`` is a ``/play`` body that ``parse_move`` reads back."""

    def to_dict(self) -> dict[str, Any]: ...


class MoveList(Protocol):
    """A bounded list of legal moves; ``truncated`` when more exist."""

    @property
    def moves(self) -> Sequence[Move]: ...

    @property
    def truncated(self) -> bool: ...


class LegalMoves(Protocol):
    """The legal moves of a seat, as a lazy view."""

    def first(self, limit: int = ...) -> MoveList: ...


class GameType(Protocol):
    """A game as a module: commands are decided into events, and a state is
    the fold of its events. Every name a service needs to create, run, show
    and audit a game of this type, with no knowledge of its rules."""

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
    def EVENT_TYPES(self) -> Mapping[str, type]:
        """The game's events by stored type name; names are unique across games."""

    # -- commands -----------------------------------------------------------

    def resolve(self, variant: str, overrides: dict[str, Any] | None, players: int) -> Options:
        """The full options of a new game; :class:`~domain.errors.OptionError`
        for an unknown variant, seat count, option or value."""

    def create_command(self, variant: str, players: tuple[str, ...], first_dealer: int,
                       options: dict[str, Any] | None, seed: bytes | None) -> Any:
        """The command that creates a game: seat names (seat 0 first), the
        first dealer, option overrides, and the secret seed of its first
        shuffle (None: deals bring their own deck)."""

    def deal_command(self, seat: int | None, deck: tuple[Card, ...] | None, next_seed: bytes | None) -> Any:
        """Deal: asked by ``seat`` (None: the operator), with the operator's
        fixed ``deck`` (top card first) or None for the committed seed's;
        ``next_seed`` is fresh entropy for the next commitment."""

    def parse_move(self, body: Any) -> Move:
        """A ``/play`` body read as a move; :class:`~domain.errors.NotationError` if it is not one."""

    def command_for(self, seat: int, move: Any, next_seed: bytes | None) -> Any:
        """The command by which ``seat`` makes ``move`` (from ``parse_move``);
        ``next_seed`` is fresh entropy in case the move ends a hand."""

    def undo_command(self, seat: int | None) -> Any:
        """Take back the latest move: asked by ``seat``, or forced by the operator (None)."""

    def answer_undo_command(self, seat: int, accept: bool) -> Any:
        """``seat`` accepts or refuses a pending undo request."""

    def follow_up(self, state: Any, next_seed: bytes | None) -> Any | None:
        """The command the service must issue by itself after a command, or
        None; decide it, append it, and ask again until None."""

    def computer_command(self, state: Any, computers: tuple[int, ...],
                         next_seed: bytes | None) -> tuple[int, Any] | None:
        """What one of the seats the service plays (``computers``) does next,
        as ``(seat, command)``; None while they wait for a person."""

    # Commands some games have and others refuse with a RuleViolation
    # (``not_in_this_game``): the service offers them to every game.

    def count_out_command(self, seat: int) -> Any:
        """``seat`` claims its side has reached the target."""

    def void_command(self, reason: str, next_seed: bytes | None) -> Any:
        """The operator voids the hand being played."""

    def client_seed_command(self, seat: int, seed: str) -> Any:
        """``seat`` adds its own seed to the next shuffles."""

    # -- the rules ----------------------------------------------------------

    def decide(self, state: Any, command: Any) -> list[Any]:
        """The events ``command`` brings in ``state`` (None before creation),
        or a :class:`~domain.errors.RuleViolation`."""

    def evolve(self, state: Any, event: Any) -> Any:
        """The state after one event."""

    def fold(self, events: Iterable[Any], state: Any = None) -> Any:
        """The state after ``events``, applied to ``state`` (or from the start); never None."""

    def legal_moves(self, state: Any, seat: int) -> LegalMoves:
        """The moves ``seat`` may make now."""

    def to_json(self, event: Any) -> dict[str, Any]:
        """The stored form of an event: ``{"type", "schema_version", "data"}``."""

    def from_json(self, stored: dict[str, Any]) -> Any:
        """An event read back from its stored form (old versions upcast)."""

    # -- where a game stands -----------------------------------------------

    def awaiting(self, state: Any) -> Awaiting | None:
        """What the game waits for now and from which seats; None once it is over."""

    def outcome(self, state: Any) -> Outcome | None:
        """How the game ended and which seats won; None until it is over."""

    # -- what a caller sees -------------------------------------------------

    def game_view(self, state: Any, seat: int | None = None, operator: bool = False) -> dict[str, Any]:
        """The game as ``seat`` (or the operator, or with neither the public) may see it."""

    def event_view(self, stored: dict[str, Any], seat: int | None = None, operator: bool = False,
                   reveal: bool = False) -> dict[str, Any]:
        """A stored event as that caller may see it; ``reveal`` shows everything."""

    def log_revealed(self, state: Any) -> bool:
        """Whether the whole log is public now (the game is over and allows it)."""

    def seats(self, state: Any) -> list[dict[str, Any]]:
        """The seats as a creation answer lists them (before their tokens)."""

    def describe_event(self, stored: dict[str, Any]) -> str:
        """One line saying what a stored event records, for a person reading a transcript."""

    def summary(self, state: Any) -> Summary:
        """The read model's fields for the game at ``state``."""

    def audit(self, events: Iterable[Any]) -> list[str]:
        """One sentence per unfair shuffle in a game's events; none for a fair game."""


#: The status every game ends in, whatever it calls its other ones.
FINISHED = "finished"


def is_finished(state: State) -> bool:
    """Whether the game is over: nothing more will be appended to it."""
    return state.status == FINISHED


#: Every game type, by name.
GAME_TYPES: dict[str, GameType] = {cassino.GAME_TYPE: cassino, masscool.GAME_TYPE: masscool}

_BY_VARIANT: dict[str, GameType] = {v: game for game in GAME_TYPES.values() for v in game.VARIANTS}
_BY_EVENT: dict[str, GameType] = {t: game for game in GAME_TYPES.values() for t in game.EVENT_TYPES}


def game_of(variant: str) -> GameType:
    """The game a variant belongs to; :class:`KeyError` for an unknown one."""
    return _BY_VARIANT[variant]


def game_of_event(event_type: str) -> GameType:
    """The game whose events include the stored type ``event_type``; :class:`KeyError` if none."""
    return _BY_EVENT[event_type]


def read_move(game: GameType, body: Any) -> Move:
    """A ``/play`` body read as a move of ``game``. A body that is no move of
    it but is one of another game (a bet in Cassino, a trail in Mass Cool
    Casino) is a well-formed move of the wrong game: a
    :class:`~domain.errors.RuleViolation` ``not_in_this_game``, not a
    :class:`~domain.errors.NotationError`."""
    try:
        return game.parse_move(body)
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


"""Deciding commands: the one ``decide(state, command) -> list[Event]`` every
game uses, from the game's own handler for each command type.

What is the same in every game is decided here: a game is created once,
by its creation command, every other command needs a game that is not
over (but the rating of a finished one, :mod:`domain.rating`), and a
command decided at a time (``at``) past the running clock's deadline is
refused, while the service's claim of the time-out is refused before it
(:mod:`domain.clocks`). The rest is the game's: a handler checks the
command against the rules and returns the events it brings, or raises a
:class:`~domain.errors.RuleViolation`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from datetime import datetime
from typing import Any, Generic, Protocol, TypeVar

from .clocks import Clock, check_time
from .codec import Event
from .errors import RuleViolation
from .rating import Rate
from .seating import TimeOut
from .standing import FINISHED


class Table(Protocol):
    """What the kernel reads of any game's state: where it stands and its clock."""

    @property
    def status(self) -> str: ...

    @property
    def clock(self) -> Clock | None: ...


S = TypeVar("S", bound=Table)
C = TypeVar("C")
E = TypeVar("E", bound=Event)


class Decider(Generic[S, C, E]):
    """A game's ``decide``: ``create(command)`` decides its creation command
    (of type ``creation``), and ``handlers[type(command)](state, command)``
    every other command."""

    def __init__(self, creation: type, create: Callable[[Any], list[E]],
                 handlers: Mapping[type, Callable[[S, Any], list[E]]]):
        self.creation = creation
        self.create = create
        self.handlers = dict(handlers)

    def decide(self, state: S | None, command: C, at: datetime | None = None) -> list[E]:
        """The events ``command``, decided at ``at``, brings in ``state`` (None
        before the game is created), or a :class:`~domain.errors.RuleViolation`;
        it never changes ``state``. Without ``at`` no clock is checked (a
        time-out cannot be claimed)."""
        if isinstance(command, self.creation):
            if state is not None:
                raise RuleViolation("game_exists", "This game has already been created.")
            return self.create(command)
        if state is None:
            raise RuleViolation("no_game", "There is no such game yet.")
        if state.status == FINISHED and not isinstance(command, Rate):  # a finished game is rated once
            raise RuleViolation("game_over", "The game is over.")
        if at is not None or isinstance(command, TimeOut):
            check_time(state.clock, at, isinstance(command, TimeOut))
        handler = self.handlers.get(type(command))
        if handler is None:
            raise TypeError(f"decide() does not know {type(command).__name__}")
        return handler(state, command)

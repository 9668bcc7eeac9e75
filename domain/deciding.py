"""Deciding commands: the one ``decide(state, command) -> list[Event]`` every
game uses, from the game's own handler for each command type.

What is the same in every game is decided here: a game is created once,
by its creation command, and every other command needs a game that is not
over. The rest is the game's: a handler checks the command against the
rules and returns the events it brings, or raises a
:class:`~domain.errors.RuleViolation`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, Generic, TypeVar

from .codec import Event
from .errors import RuleViolation
from .standing import FINISHED, HasStatus

S = TypeVar("S", bound=HasStatus)
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

    def decide(self, state: S | None, command: C) -> list[E]:
        """The events ``command`` brings in ``state`` (None before the game is
        created), or a :class:`~domain.errors.RuleViolation`; it never changes ``state``."""
        if isinstance(command, self.creation):
            if state is not None:
                raise RuleViolation("game_exists", "This game has already been created.")
            return self.create(command)
        if state is None:
            raise RuleViolation("no_game", "There is no such game yet.")
        if state.status == FINISHED:
            raise RuleViolation("game_over", "The game is over.")
        handler = self.handlers.get(type(command))
        if handler is None:
            raise TypeError(f"decide() does not know {type(command).__name__}")
        return handler(state, command)

"""A state is the fold of its game's events: the one ``evolve`` and ``fold``
every game uses, from the game's own way of applying each event type.

Applying trusts its events (they were checked when they were decided), so
it never refuses one: an event of a type the game does not apply is a
``KeyError``, and a first event that does not create a game a
``ValueError``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Any, Generic, TypeVar

from .codec import Event

S = TypeVar("S")
E = TypeVar("E", bound=Event)


class Evolver(Generic[S, E]):
    """A game's ``evolve`` and ``fold``: ``begin`` makes the state from the
    game's first event (of type ``first``), and ``apply[type(event)](state,
    event)`` gives the state after each later one, its version counted."""

    def __init__(self, first: type[E], begin: Callable[[Any], S], apply: Mapping[type[E], Callable[[S, Any], S]]):
        self.first = first
        self.begin = begin
        self.apply = dict(apply)

    def evolve(self, state: S | None, event: E) -> S:
        """The state after one event (the first one: the game's first state)."""
        if state is None:
            if not isinstance(event, self.first):
                raise ValueError(f"A game starts with {self.first.__name__}, not {type(event).__name__}.")
            return self.begin(event)
        return self.apply[type(event)](state, event)

    def fold(self, events: Iterable[E], state: S | None = None) -> S:
        """The state after ``events``, applied to ``state`` or to no game at
        all; there is no game without events, so none is a ``ValueError``."""
        events = iter(events)
        if state is None:
            first = next(events, None)
            if first is None:
                raise ValueError(f"A game starts with {self.first.__name__}; there are no events to fold.")
            state = self.evolve(None, first)
        apply = self.apply  # evolve() without its check for a first event: this loop is every load
        for event in events:
            state = apply[type(event)](state, event)
        return state

"""A state is the fold of its game's events: the one ``evolve`` and ``fold``
every game uses, from the game's own way of applying each event type.

Applying trusts its events (they were checked when they were decided), so
it never refuses one: an event of a type the game does not apply is a
``KeyError``, and a first event that does not create a game a
``ValueError``.

Events may come with their times (``at``, the moment each was recorded):
a game with a clock then has it moved on by each event
(:func:`domain.clocks.tick`, for the seat the game's ``clock_seat`` says
the clock runs for). The clock is the kernel's, not the game's. A move
taken back gives no time back: the clock goes back to where it stood before
the move (the state the undo restores holds it), still running for the
mover since it started, so the time the move and its undo took is the
mover's and no increment is left behind. A take-back stored before that rule
(its ``restores_clock`` false) left the clock as it stood, and replays so.
Without times a clock stands still.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping
from datetime import datetime
from typing import Any, Generic, TypeVar

from .clocks import Clock, tick
from .codec import Event

S = TypeVar("S")
E = TypeVar("E", bound=Event)

#: A game's clock is set by its creation's events (its first command), so a
#: game with none after this version never gets one.
_CLOCK_SET_BY = 2


class Evolver(Generic[S, E]):
    """A game's ``evolve`` and ``fold``: ``begin`` makes the state from the
    game's first event (of type ``first``), and ``apply[type(event)](state,
    event)`` gives the state after each later one, its version counted.
    ``clock_seat(state)`` is the seat a clock runs for in ``state`` (None:
    nobody); every state has a ``clock`` (None: the game has none). An event
    of type ``take_back`` takes a move back, with the move's clock when its
    ``restores_clock`` says so."""

    def __init__(self, first: type[E], begin: Callable[[Any], S], apply: Mapping[type[E], Callable[[S, Any], S]],
                 clock_seat: Callable[[S], int | None], take_back: type[E]):
        self.first = first
        self.begin = begin
        self.apply = dict(apply)
        self.clock_seat = clock_seat
        self.take_back = take_back

    def evolve(self, state: S | None, event: E, at: datetime | None = None) -> S:
        """The state after one event (the first one: the game's first state), recorded at ``at``."""
        if state is None:
            if not isinstance(event, self.first):
                raise ValueError(f"A game starts with {self.first.__name__}, not {type(event).__name__}.")
            return self.begin(event)
        after = self.apply[type(event)](state, event)
        before: Clock | None = state.clock  # type: ignore[attr-defined]
        if before is None and after.clock is None:  # type: ignore[attr-defined]
            return after
        restored = isinstance(event, self.take_back) and event.restores_clock  # type: ignore[attr-defined]
        return self._timed(None if restored else before, after, at)

    def _timed(self, before: Clock | None, after: S, at: datetime | None) -> S:
        """``after`` with its clock: the one before the event, or (None) the
        one the event set or restored, moved on to ``at``."""
        clock: Clock = after.clock if before is None else before  # type: ignore[attr-defined]
        if at is not None:
            clock = tick(clock, self.clock_seat(after), at)
        return after if after.clock is clock else after._replace(clock=clock)  # type: ignore[attr-defined]

    def fold(self, events: Iterable[E], state: S | None = None, times: Iterable[datetime] | None = None) -> S:
        """The state after ``events`` (recorded at ``times``, one each, when
        given), applied to ``state`` or to no game at all; there is no game
        without events, so none is a ``ValueError``."""
        events = iter(events)
        at: Iterator[datetime | None] = iter(times) if times is not None else _never()
        if state is None:
            first = next(events, None)
            if first is None:
                raise ValueError(f"A game starts with {self.first.__name__}; there are no events to fold.")
            state = self.evolve(None, first, next(at))
        # A game with no clock, or events without times: no clock moves.
        while times is not None and (state.clock is not None  # type: ignore[attr-defined]
                                     or state.version < _CLOCK_SET_BY):  # type: ignore[attr-defined]
            event = next(events, None)
            if event is None:
                return state
            state = self.evolve(state, event, next(at))
        apply = self.apply  # evolve() without its checks: this loop is every load
        for event in events:
            state = apply[type(event)](state, event)
        return state


def _never() -> Iterator[None]:
    while True:
        yield None

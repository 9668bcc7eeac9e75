"""The kernel's events: what every game records the same way.

Seats taken and left, a game given up, called off or run out of time, its
clock and whether it is rated, the ratings it moved and its rematch's
answers, and the asking, answering and taking back of a move: every game
has these facts, and records them with these classes, whatever it calls
its moves. Each game folds them with the kernel's handlers
(:mod:`domain.kernel_rules`).

They are stored under names scoped to the kernel (:data:`EVENT_TYPES`:
``kernel.SeatJoined`` ...), declared here and not read off the classes, so
a class can be renamed without touching a stored game. Their public name
(:func:`domain.codec.public_name`) is the name without its scope::

    >>> e = SeatJoined(seat=1, name="Bob")
    >>> CODEC.to_json(e)
    {'type': 'kernel.SeatJoined', 'schema_version': 1, 'data': {'seat': 1, 'name': 'Bob', 'player': None}}
    >>> CODEC.from_json(CODEC.to_json(e)) == e
    True

Games stored before the kernel had these events stored them under names
of their own (Cassino's ``SeatJoined``, Mass Cool Casino's
``PlayerSeated``); each game registers those as renames of the kernel's
names (:func:`legacy_upcasters`), so they are read as the kernel's events
for good, and never rewritten.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

from . import clocks
from .clocks import ClockRule
from .codec import Codec, Event, EventCodec, Upcasters
from .rating import CHANGES_CODEC, RatingChange, rating_describers
from .rematch import rematch_describer
from .views import Describer, seating_describers


@dataclass(frozen=True, slots=True)
class SeatJoined(Event):
    """``name`` took the open seat ``seat``; ``player`` is its player id, if any."""

    seat: int
    name: str
    player: str | None = None


@dataclass(frozen=True, slots=True)
class SeatLeft(Event):
    """The holder of ``seat`` got up before the first deal: the seat is open again."""

    seat: int


@dataclass(frozen=True, slots=True)
class SeatResigned(Event):
    """``seat`` gave the game up; the game's end follows."""

    seat: int


@dataclass(frozen=True, slots=True)
class GameAborted(Event):
    """``seat`` called the game off before the first play; the game's end (no winner) follows."""

    seat: int


@dataclass(frozen=True, slots=True)
class ClockSet(Event):
    """The game's clock, given at its creation (right after its first event)."""

    clock: ClockRule


@dataclass(frozen=True, slots=True)
class TimedOut(Event):
    """``seat``'s clock ran out. With ``computer`` the service moves for it
    (the move's events follow), else the game's end follows: its side lost,
    or (its first action) nobody did."""

    seat: int
    computer: bool = False


@dataclass(frozen=True, slots=True)
class RatedSet(Event):
    """The game is rated (given at its creation, after its first event and
    any ``ClockSet``): its seats are registered players', and its result
    moves their ratings."""


@dataclass(frozen=True, slots=True)
class RatingsChanged(Event):
    """The finished rated game moved each seat's player's rating (:mod:`domain.rating`)."""

    changes: tuple[RatingChange, ...]


@dataclass(frozen=True, slots=True)
class RematchAnswered(Event):
    """After the game, ``seat`` offered a rematch, or accepted the one offered
    (:mod:`domain.rematch`); ``game_id``: the new game, once every seat has."""

    seat: int
    game_id: str | None


@dataclass(frozen=True, slots=True)
class UndoRequested(Event):
    """``seat`` asks the others to let it take its latest move back."""

    seat: int


@dataclass(frozen=True, slots=True)
class UndoAnswered(Event):
    """``seat`` accepts or refuses the pending request."""

    seat: int
    accepted: bool


@dataclass(frozen=True, slots=True)
class PlayUndone(Event):
    """The latest move (``seat``'s) is taken back: the game is as it was
    before it, its clock too (``restores_clock``: the time since is the
    mover's). The move's own event stays in the log.

    Version 2 added ``restores_clock``: a version 1 take-back left the clock
    as it stood."""

    schema_version: ClassVar[int] = 2

    seat: int
    forced: bool = False  # by the operator, without asking
    restores_clock: bool = True


#: The kernel's events by stored name. A name, once stored, is never reused
#: for another event; a class may be renamed at will.
EVENT_TYPES: dict[str, type[Event]] = {
    "kernel.SeatJoined": SeatJoined,
    "kernel.SeatLeft": SeatLeft,
    "kernel.SeatResigned": SeatResigned,
    "kernel.GameAborted": GameAborted,
    "kernel.ClockSet": ClockSet,
    "kernel.TimedOut": TimedOut,
    "kernel.RatedSet": RatedSet,
    "kernel.RatingsChanged": RatingsChanged,
    "kernel.RematchAnswered": RematchAnswered,
    "kernel.UndoRequested": UndoRequested,
    "kernel.UndoAnswered": UndoAnswered,
    "kernel.PlayUndone": PlayUndone,
}
#: The stored name of each kernel event class.
STORED_AS: dict[type[Event], str] = {cls: name for name, cls in EVENT_TYPES.items()}

#: The field types of the kernel's events beyond the shared ones.
CODECS: dict[Any, Codec] = {tuple[RatingChange, ...]: CHANGES_CODEC}

#: The kernel's upcasters, which every game's include.
UPCASTERS = Upcasters()
UPCASTERS.register("kernel.PlayUndone", 1)(clocks.kept_on_take_back)

#: The kernel's events alone (every game's codec holds them too).
CODEC: EventCodec[Event] = EventCodec(EVENT_TYPES, CODECS, UPCASTERS)


def legacy_upcasters(old_names: Mapping[str, type[Event]]) -> Upcasters:
    """A game's upcasters: the kernel's, and the names the game stored the
    kernel's events under before (old name -> the kernel's class), read as the
    kernel's names from now on. An old name's versions are the kernel
    event's: the data it stored is the kernel event's, field for field."""
    upcasters = Upcasters(UPCASTERS)
    for old, cls in old_names.items():
        upcasters.rename(old, STORED_AS[cls])
    return upcasters


def codec(own: Mapping[str, type[Event]], codecs: Mapping[Any, Codec], upcasters: Upcasters) -> EventCodec[Event]:
    """A game's codec: its own events (``own``, by stored name, none of them
    the kernel's) and the kernel's."""
    clash = set(own) & set(EVENT_TYPES)
    if clash or set(own.values()) & set(STORED_AS):
        raise ValueError(f"A game's own events may not take the kernel's names or classes: {sorted(clash)}")
    return EventCodec({**own, **EVENT_TYPES}, {**CODECS, **codecs}, upcasters)


def _undo_describers() -> dict[str, Describer]:
    return {
        "kernel.UndoRequested": lambda d: f"seat {d['seat']} asks to take back its move",
        "kernel.UndoAnswered": lambda d: f"seat {d['seat']} {'agrees' if d['accepted'] else 'refuses'}",
        "kernel.PlayUndone": lambda d: (f"seat {d['seat']}'s move is taken back"
                                        + (" by the operator" if d["forced"] else "")),
    }


#: One line for each kernel event (current form), by stored name.
DESCRIBERS: dict[str, Describer] = {
    **seating_describers(joined="kernel.SeatJoined", left="kernel.SeatLeft", resigned="kernel.SeatResigned",
                         aborted="kernel.GameAborted", timed_out="kernel.TimedOut", clock="kernel.ClockSet"),
    **rating_describers(rated="kernel.RatedSet", changed="kernel.RatingsChanged"),
    **rematch_describer("kernel.RematchAnswered"),
    **_undo_describers(),
}

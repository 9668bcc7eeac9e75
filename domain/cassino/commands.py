"""Commands: what someone asks the game to do, in the imperative.

``decide(state, command)`` turns a command into events or refuses it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..cards import Card
from ..clocks import ClockRule
from ..rating import Rate
from ..seating import Abort, Join, Leave, Resign, TimeOut
from .moves import Move


@dataclass(frozen=True, slots=True)
class CreateGame:
    """Start a game. ``seed`` is the secret from which the first hand's deck
    will be derived (see :mod:`domain.shuffle`); without one, every deal must
    bring its own deck."""

    variant: str
    players: tuple[str | None, ...]  # seat names, seat 0 first; None for an open seat
    first_dealer: int
    options: dict[str, Any] = field(default_factory=dict)  # overrides of the variant
    seed: bytes | None = None
    clock: ClockRule | None = None
    rated: bool = False  # every seat a registered player's, and the result moves their ratings


@dataclass(frozen=True, slots=True)
class Deal:
    """Start the next hand. Without ``deck`` the cards come from the
    committed seed; a ``deck`` (top card first) fixes the order instead (the
    operator's, for duplicate play). ``seat`` is the dealer asking, or None
    for the operator."""

    deck: tuple[Card, ...] | None = None
    seat: int | None = None


@dataclass(frozen=True, slots=True)
class Play:
    """One move. ``next_seed`` is fresh secret entropy for the next hand's
    commitment, used only if this play ends the hand."""

    seat: int
    move: Move
    next_seed: bytes | None = None


@dataclass(frozen=True, slots=True)
class CountOut:
    """Claim that ``seat``'s side has reached the target score now."""

    seat: int


@dataclass(frozen=True, slots=True)
class SetClientSeed:
    """A seat adds its own seed to the derivation of the next deals."""

    seat: int
    seed: str


@dataclass(frozen=True, slots=True)
class Undo:
    """Take back the last play: asked by the seat that made it, or forced by
    the operator (``seat`` None)."""

    seat: int | None


@dataclass(frozen=True, slots=True)
class AnswerUndo:
    """Another seat accepts or refuses a pending undo request."""

    seat: int
    accept: bool


@dataclass(frozen=True, slots=True)
class VoidHand:
    """The operator voids the hand being played (a misdeal ruling, say)."""

    reason: str
    next_seed: bytes | None = None


#: Every command ``decide`` knows: Cassino's, and the kernel's seating and clock commands.
Command = (CreateGame | Deal | Play | CountOut | SetClientSeed | Undo | AnswerUndo | VoidHand | Join | Leave | Resign
           | Abort | TimeOut | Rate)

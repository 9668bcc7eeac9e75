"""Commands to a game of Mass Cool Casino, in the imperative.

``next_seed`` is fresh secret entropy from the service: a command that
shuffles (the deal, a reshuffle) commits to it as the seed of the shuffle
after, so every seeded shuffle is committed one command ahead of its use.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..cards import Card
from ..clocks import ClockRule
from ..rating import Rate
from ..seating import Abort, Join, Leave, Resign, TimeOut
from .moves import BET, Move
from .rules import GAME_TYPE


@dataclass(frozen=True, slots=True)
class CreateGame:
    """Seat the players (seat 0 first). ``seed`` is the secret of the first
    shuffle; without one the deal must bring its deck. ``variant`` is the
    game's one preset."""

    players: tuple[str | None, ...]  # None: an open seat
    first_dealer: int
    options: dict[str, Any] = field(default_factory=dict)
    seed: bytes | None = None
    variant: str = GAME_TYPE
    clock: ClockRule | None = None
    rated: bool = False  # every seat a registered player's, and the result moves their ratings


@dataclass(frozen=True, slots=True)
class Deal:
    """Deal the money and the first hands. Without ``deck`` it comes from the
    committed seed; an operator's ``deck`` (top card first) fixes it. ``seat``
    is the dealer asking, None for the operator."""

    deck: tuple[Card, ...] | None = None
    seat: int | None = None
    next_seed: bytes | None = None


@dataclass(frozen=True, slots=True)
class Bet:
    seat: int
    cards: tuple[Card, ...]


@dataclass(frozen=True, slots=True)
class Stop:
    seat: int


@dataclass(frozen=True, slots=True)
class Reshuffle:
    """After a tie: shuffle the gathered cards into the stock. Without
    ``deck`` the committed seed gives the order (the service issues this by
    itself, see :func:`domain.masscool.decide.follow_up`); an operator's
    ``deck`` (top card first) fixes it."""

    deck: tuple[Card, ...] | None = None
    next_seed: bytes | None = None


@dataclass(frozen=True, slots=True)
class Undo:
    """Take back the latest bet or stop: asked by the seat that made it, or
    forced by the operator (``seat`` None)."""

    seat: int | None


@dataclass(frozen=True, slots=True)
class AnswerUndo:
    seat: int
    accept: bool


#: Every command ``decide`` knows: the game's, and the kernel's seating and clock commands.
Command = (CreateGame | Deal | Bet | Stop | Reshuffle | Undo | AnswerUndo | Join | Leave | Resign | Abort | TimeOut
           | Rate)


def command_for(seat: int, move: Move, next_seed: bytes | None = None) -> Bet | Stop:
    """The command a ``/play`` body stands for. A bet or a stop never
    shuffles (a tie's reshuffle is a :func:`~.decide.follow_up`), so
    ``next_seed``, which the game-type interface passes, is not needed."""
    return Bet(seat, move.cards) if move.action == BET else Stop(seat)

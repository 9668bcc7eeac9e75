"""Commands: what someone asks the game to do, in the imperative.

``decide(state, command)`` turns a command into events or refuses it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .cards import Card
from .moves import Move


@dataclass(frozen=True, slots=True)
class CreateGame:
    variant: str
    players: tuple[str, ...]  # seat names, seat 0 first
    first_dealer: int
    options: dict[str, Any] = field(default_factory=dict)  # overrides of the variant


@dataclass(frozen=True, slots=True)
class Deal:
    """Start the next hand with ``deck`` (top card first). ``seat`` is the
    dealer asking, or None for the operator; ``fixed`` marks a deck order
    chosen by the operator rather than shuffled."""

    deck: tuple[Card, ...]
    seat: int | None = None
    fixed: bool = False


@dataclass(frozen=True, slots=True)
class Play:
    seat: int
    move: Move


@dataclass(frozen=True, slots=True)
class CountOut:
    """Claim that ``seat``'s side has reached the target score now."""

    seat: int

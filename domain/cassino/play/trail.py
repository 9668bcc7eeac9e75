"""Trailing: laying a card on the table, and nothing else; or, with
``spade_five_sweeps`` (004), trailing the five of spades, which sweeps the
table."""

from __future__ import annotations

from collections.abc import Iterable

from ...cards import Card, full_deck
from ...errors import RuleViolation
from ..moves import Action, Move
from ..state import GameState
from ..table import TableItem
from .kind import MoveKind, Phase
from .listing import Lister
from .turn import Play, counts_as_sweep

FIVE_OF_SPADES = Card.parse("5S")
_TRAILS = {c: Move.trail(c) for c in full_deck()}  # the trail of each card, made once


class Trail(MoveKind):
    """A card laid on the table; ``sweeper``, trailed, takes the table instead."""

    action = Action.TRAIL
    phases = (Phase.TRAIL,)

    def __init__(self, sweeper: Card | None = None):
        self.sweeper = sweeper

    def moves(self, lister: Lister, card: Card, phase: Phase) -> Iterable[Move]:
        """The trail of ``card``: a card of the hand, naming nothing, which
        only the owner's duty may refuse."""
        return lister.checked(_TRAILS[card], proven=True)

    def play(self, state: GameState, seat: int, move: Move, items: tuple[TableItem, ...]) -> Play:
        if items or move.value is not None or move.groups is not None:
            raise RuleViolation("illegal_trail", "A trail only lays a card on the table; it names nothing else.")
        if move.card is self.sweeper and state.table:
            return Play(seat, move, state.table, sweep=counts_as_sweep(state, seat, len(state.table)))
        return Play(seat, move, ())

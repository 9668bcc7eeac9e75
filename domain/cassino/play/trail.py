"""Trailing: laying a card on the table, and nothing else; or, with
``spade_five_sweeps`` (004), trailing the five of spades, which sweeps the
table."""

from __future__ import annotations

from ...cards import Card
from ...errors import RuleViolation
from ..moves import Move
from ..state import GameState
from ..table import TableItem
from .turn import Play, counts_as_sweep

FIVE_OF_SPADES = Card.parse("5S")


def resolve_trail(state: GameState, seat: int, move: Move, items: tuple[TableItem, ...]) -> Play:
    if items or move.value is not None or move.groups is not None:
        raise RuleViolation("illegal_trail", "A trail only lays a card on the table; it names nothing else.")
    if state.options.spade_five_sweeps and move.card is FIVE_OF_SPADES and state.table:
        return Play(seat, move, state.table, sweep=counts_as_sweep(state, seat, len(state.table)))
    return Play(seat, move, ())

"""Plucking (``pluck``): once a deal, a non-point card from the table."""

from __future__ import annotations

from ...errors import RuleViolation
from ..moves import Move
from ..scoring import is_point_card
from ..state import GameState
from .turn import Play, is_last_play


def resolve_pluck(state: GameState, seat: int, move: Move) -> Play:
    """``pluck``: once a deal, a player takes a non-point card from the table
    into their pile, on their turn before their play or just after it."""
    opts, card = state.options, move.card
    if not opts.pluck:
        raise RuleViolation("pluck_not_allowed", "This game has no plucking.")
    if move.targets or move.value is not None or move.groups is not None:
        raise RuleViolation("illegal_pluck", "A pluck names only the table card it takes.")
    if seat != state.turn and seat != state.last_player:
        raise RuleViolation("not_your_turn", "You may pluck on your turn, before or just after your play.")
    if seat in state.plucked:
        raise RuleViolation("already_plucked", "You have already plucked since the last deal.")
    if card not in state.table:
        raise RuleViolation("target_not_on_table", f"{card.code} is not loose on the table.")
    if is_point_card(card, opts):
        raise RuleViolation("pluck_point_card", f"{card.code} scores points; it cannot be plucked.")
    if len(state.table) < 2:
        raise RuleViolation("pluck_last_card", "The last card on the table cannot be plucked.")
    if not state.stock and not opts.pluck_after_stock:
        raise RuleViolation("pluck_after_stock", "Once the stock is dealt out no one may pluck.")
    if opts.pluck_after_stock and seat == state.turn and is_last_play(state, seat):
        raise RuleViolation("pluck_last_trick", "A pluck cannot help decide the last trick: not on the hand's "
                            "last play.")
    if seat == state.last_player and card is state.just_played:
        raise RuleViolation("pluck_own_card", "You cannot pluck the card you have just played.")
    return Play(seat, move, (card,))

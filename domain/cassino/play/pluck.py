"""Plucking (``pluck``): once a deal, a non-point card from the table."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from ...cards import Card
from ...errors import RuleViolation
from ..moves import Action, Move
from ..options import Options
from ..scoring import is_point_card
from ..state import GameState
from ..table import TableItem
from .kind import MoveKind, Phase
from .listing import Lister
from .turn import Play, is_last_play


class Pluck(MoveKind):
    """``pluck``: once a deal, a player takes a non-point card from the table
    into their pile, on their turn before their play or just after it; with
    ``pluck_after_stock`` (004) also once the stock is out, but not on the
    hand's last play."""

    action = Action.PLUCK
    phases = (Phase.PLUCK,)
    on_turn = False  # also just after one's own play
    on_table = False  # the card it takes is the move's card
    bound_by_duty = False

    def __init__(self, options: Options):
        self.after_stock = options.pluck_after_stock

    def cards(self, lister: Lister) -> Sequence[Card]:
        return [it for it in lister.state.table if isinstance(it, Card)]

    def moves(self, lister: Lister, card: Card, phase: Phase) -> Iterable[Move]:
        return lister.checked(Move(card, Action.PLUCK))

    def play(self, state: GameState, seat: int, move: Move, items: tuple[TableItem, ...]) -> Play:
        card = move.card
        if move.targets or move.value is not None or move.groups is not None:
            raise RuleViolation("illegal_pluck", "A pluck names only the table card it takes.")
        if seat != state.turn and seat != state.last_player:
            raise RuleViolation("not_your_turn", "You may pluck on your turn, before or just after your play.")
        if seat in state.plucked:
            raise RuleViolation("already_plucked", "You have already plucked since the last deal.")
        if card not in state.table:
            raise RuleViolation("target_not_on_table", f"{card.code} is not loose on the table.")
        if is_point_card(card, state.options):
            raise RuleViolation("pluck_point_card", f"{card.code} scores points; it cannot be plucked.")
        self._check_when(state, seat, card)
        return Play(seat, move, (card,))

    def _check_when(self, state: GameState, seat: int, card: Card) -> None:
        """A pluck leaves a card on the table, comes before the stock is out
        (or, ``pluck_after_stock``, before the hand's last play), and does not
        take back the card just played."""
        if len(state.table) < 2:
            raise RuleViolation("pluck_last_card", "The last card on the table cannot be plucked.")
        if not state.stock and not self.after_stock:
            raise RuleViolation("pluck_after_stock", "Once the stock is dealt out no one may pluck.")
        if self.after_stock and seat == state.turn and is_last_play(state, seat):
            raise RuleViolation("pluck_last_trick", "A pluck cannot help decide the last trick: not on the hand's "
                                "last play.")
        if seat == state.last_player and card is state.just_played:
            raise RuleViolation("pluck_own_card", "You cannot pluck the card you have just played.")

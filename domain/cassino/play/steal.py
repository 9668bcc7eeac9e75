"""Stealing a bundle (``steal_bundles``, Stealing Bundles of 003): a card
takes an opponent's whole capture pile whose top card is of its rank."""

from __future__ import annotations

from collections.abc import Iterator

from ...cards import Card
from ...errors import RuleViolation
from ..moves import Action, Move, pile_seat, pile_target
from ..state import GameState
from ..table import TableItem
from .kind import MoveKind, Phase
from .listing import Lister
from .turn import Play


class Steal(MoveKind):
    """A card takes an opponent's bundle whose top card is of its rank."""

    action = Action.STEAL
    phases = (Phase.STEAL,)
    on_table = False  # its target is a seat's pile, not a table item

    def moves(self, lister: Lister, card: Card, phase: Phase) -> Iterator[Move]:
        for victim, pile in enumerate(lister.state.captured):
            if pile and pile[-1].rank == card.rank:
                yield from lister.checked(Move(card, Action.STEAL, (pile_target(victim),)))

    def play(self, state: GameState, seat: int, move: Move, items: tuple[TableItem, ...]) -> Play:
        if move.value is not None or move.groups is not None or len(move.targets) != 1:
            raise RuleViolation("illegal_steal", "A steal names one opponent's bundle, like seat:1, and nothing else.")
        victim = pile_seat(move.targets[0])
        if victim is None or not 0 <= victim < state.players:
            raise RuleViolation("illegal_steal", f"{move.targets[0]} is not a seat's bundle; name one like seat:1.")
        if state.team_of(victim) == state.team_of(seat):
            raise RuleViolation("illegal_steal", "You steal an opponent's bundle, not your own side's.")
        pile = state.captured[victim]
        if not pile:
            raise RuleViolation("illegal_steal", f"Seat {victim} has no bundle to steal.")
        if pile[-1].rank != move.card.rank:
            raise RuleViolation("illegal_steal", f"Seat {victim}'s bundle shows {pile[-1].code}; your "
                                f"{move.card.code} does not match it.")
        return Play(seat, move, (), stolen=pile)

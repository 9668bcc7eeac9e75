"""Stealing a bundle (``steal_bundles``, Stealing Bundles of 003): a card
takes an opponent's whole capture pile whose top card is of its rank."""

from __future__ import annotations

from ...errors import RuleViolation
from ..moves import Move, pile_seat
from ..state import GameState
from .turn import Play


def resolve_steal(state: GameState, seat: int, move: Move) -> Play:
    if not state.options.steal_bundles:
        raise RuleViolation("illegal_steal", "This game has no stealing of bundles.")
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

"""Augmenting with captured cards (``augment_from_piles``, 003 African): a
build move that adds to a build of one's own side may also use the top card
of an opponent's capture pile, and the cards beneath it in turn.

A move names a pile's top card as ``seat:N``; naming the same pile k times
uses its top k cards, top first. Every card so taken must join the build.
"""

from __future__ import annotations

from ...cards import Card
from ...errors import RuleViolation
from ..moves import Move, pile_counts
from ..state import GameState
from ..table import Build, TableItem


def pile_cards(state: GameState, seat: int, move: Move) -> tuple[Card, ...]:
    """The captured cards a build move uses, top first per pile; refused
    unless the options allow them and each pile is an opponent's and deep enough."""
    refs = pile_counts(move.targets)
    if not refs:
        return ()
    if not state.options.augment_from_piles:
        raise RuleViolation("target_not_on_table", "Capture piles are not played from in this game.")
    if move.groups is not None:
        raise RuleViolation("illegal_build", "A build that uses captured cards is named without groups.")
    out: list[Card] = []
    for victim, k in sorted(refs.items()):
        if not 0 <= victim < state.players or state.team_of(victim) == state.team_of(seat):
            raise RuleViolation("illegal_build", f"seat:{victim} is not an opponent's capture pile.")
        pile = state.captured[victim]
        if len(pile) < k:
            raise RuleViolation("illegal_build", f"Seat {victim}'s pile holds {len(pile)} cards, not {k}.")
        out.extend(reversed(pile[len(pile) - k:]))
    return tuple(out)


def check_augment(state: GameState, seat: int, target: int, items: tuple[TableItem, ...]) -> None:
    """Captured cards only add to a build of the mover's side of that value."""
    builds = [it for it in items if isinstance(it, Build)]
    side = state.team_of(seat)
    if not builds or any(b.value != target or state.team_of(b.owner) != side for b in builds):
        raise RuleViolation("illegal_build", "A captured card may only be added to a build of your own side, "
                            "of the same value.")

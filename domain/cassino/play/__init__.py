"""Checking one move against the rules, and working out what it does.

:func:`resolve_play` is the single place where the rules of a turn live: it
either returns a :class:`Play` (what leaves the hand, what leaves the table,
what build appears) or raises :class:`RuleViolation` naming the broken rule.
Both ``decide`` and ``legal_moves`` rely on it, so they cannot disagree.

The rules of each action live in a module of their own (:mod:`.trail`,
:mod:`.capture`, :mod:`.build`, :mod:`.pluck`, :mod:`.steal`), the owner's duty that
applies to them all in :mod:`.duty`, and what cards are worth in
:mod:`.values`.
"""

from __future__ import annotations

from ...errors import RuleViolation
from ..moves import Action, Move, pile_seat
from ..state import FINISHED, IN_PROGRESS, GameState
from ..table import TableItem
from .build import resolve_build
from .capture import in_sum, resolve_capture, takes_the_table
from .duty import builds_to_touch, check_owner_duty, covers
from .piles import check_augment, pile_cards
from ..scoring import is_point_card
from .pluck import resolve_pluck
from .steal import resolve_steal
from .trail import resolve_trail
from .turn import Play
from .values import assignments, can_make, holds_value, values_of

__all__ = ["Play", "assignments", "builds_to_touch", "can_make", "covers", "holds_value", "in_sum", "is_point_card",
           "resolve_play", "takes_the_table", "values_of"]


def _targets(state: GameState, move: Move) -> tuple[TableItem, ...]:
    on_table = {it.id: it for it in state.table}  # one pass, not one per target
    items = []
    seen = set()
    for ident in move.targets:
        if move.action == Action.BUILD and pile_seat(ident) is not None:
            continue  # a captured card (augment_from_piles): see .piles
        if ident in seen:
            raise RuleViolation("duplicate_target", f"You named {ident} twice.")
        seen.add(ident)
        it = on_table.get(ident)
        if it is None:
            raise RuleViolation("target_not_on_table", f"{ident} is not on the table.")
        items.append(it)
    return tuple(items)


def resolve_play(state: GameState, seat: int, move: Move) -> Play:
    """Check ``move`` by ``seat`` now; return what it does or raise RuleViolation."""
    if state.status == FINISHED:
        raise RuleViolation("game_over", "The game is over.")
    if state.status != IN_PROGRESS:
        raise RuleViolation("no_hand_in_progress", "No hand is being played: the dealer deals next.")
    if not 0 <= seat < state.players:
        raise RuleViolation("not_a_seat", f"There is no seat {seat}.")
    if move.action == Action.PLUCK:
        return resolve_pluck(state, seat, move)
    if state.turn != seat:
        raise RuleViolation("not_your_turn", f"It is seat {state.turn}'s turn, not yours.")
    hand = state.hands[seat]
    if move.card not in hand:
        raise RuleViolation("card_not_in_hand", f"{move.card.code} is not in your hand.")
    if move.action == Action.STEAL:  # its target is a seat's pile, not a table item
        return check_owner_duty(state, seat, resolve_steal(state, seat, move))
    items = _targets(state, move)
    if move.action == Action.TRAIL:
        play = resolve_trail(state, seat, move, items)
    elif move.action == Action.CAPTURE:
        play = resolve_capture(state, seat, move, items)

    else:
        taken = pile_cards(state, seat, move)
        if taken and move.value is not None:
            check_augment(state, seat, move.value or 0, items)
        play = resolve_build(state, seat, move, items + taken)
    return check_owner_duty(state, seat, play)

"""Capturing: a card takes builds of its value and loose cards in groups
that each make it; a court without a value takes courts of its rank."""

from __future__ import annotations


from ...cards import Card
from ...errors import RuleViolation
from ...groups import _sub_multisets, can_split, counts_of
from ..moves import Move
from ..state import GameState
from ..table import Build, TableItem, item_id
from .turn import Play, is_last_play
from .values import assignments, can_make, is_court_build, values_of


def resolve_capture(state: GameState, seat: int, move: Move, items: tuple[TableItem, ...]) -> Play:
    opts = state.options
    card = move.card
    if not items:
        raise RuleViolation("illegal_capture", "Say what your card takes: a capture names its targets.")
    choices = values_of(card, opts)
    if move.value is not None and move.value not in choices:
        shown = " or ".join(map(str, choices)) or "its rank only"
        raise RuleViolation("illegal_capture", f"{card.code} captures as {shown}.")
    if not choices:
        _court_capture(state, card, items)
    else:
        _sum_capture(state, move, [move.value] if move.value is not None else list(choices), items)
    remaining = len(state.table) - len(items)
    last_play = is_last_play(state, seat)
    sweep = (remaining == 0 and opts.sweeps > 0 and (opts.sweep_on_last_play or not last_play))
    return Play(seat, move, items, sweep=sweep)


def _court_capture(state: GameState, card: Card, items: tuple[TableItem, ...]) -> None:
    rank_word = card.name.split()[0]
    if any(not (isinstance(it, Card) and it.rank == card.rank or is_court_build(it, card.rank, state.options))
           for it in items):
        raise RuleViolation("illegal_capture", f"A {rank_word} takes only {rank_word}s.")
    on_table = sum(1 for it in state.table if isinstance(it, Card) and it.rank == card.rank)
    rule = state.options.court_capture
    taken = len(items)
    if rule == "one" and taken != 1:
        raise RuleViolation("court_capture", f"A {rank_word} takes one {rank_word} at a time.")
    if rule == "one_or_three" and not (taken == 1 or (taken == 3 and on_table == 3)):
        raise RuleViolation("court_capture",
                            f"A {rank_word} takes one {rank_word}, or all three when three lie on the table.")


def _sum_capture(state: GameState, move: Move, choices: list[int], items: tuple[TableItem, ...]) -> None:
    """A capture by a card with a number value: try each value it may take."""
    opts = state.options
    loose = [it for it in items if isinstance(it, Card)]
    for it in loose:
        if not values_of(it, opts):
            raise RuleViolation("illegal_capture", f"{it.code} is taken only by a card of its rank.")
    builds = [it for it in items if isinstance(it, Build)]
    refusal: RuleViolation | None = None
    for v in choices:
        wrong = next((b for b in builds if b.value != v), None)
        if wrong is not None:
            refusal = RuleViolation("illegal_capture", f"Your {move.card.code} cannot take {wrong.id}: "
                                    f"a build of {wrong.value} is taken only by a {wrong.value}.")
            continue
        if move.groups is not None:
            refusal = _capture_groups_refusal(state, move, v)
        elif not any(can_split(a, v) for a in assignments(loose, opts)):
            refusal = RuleViolation("illegal_capture",
                                    f"{' '.join(move.targets)} cannot be split into groups that each make {v}.")
        else:
            refusal = None
        if refusal is None:
            if not opts.partial_capture:
                _check_maximal(state, v, items)
            return
    assert refusal is not None, "a card has at least one value to try"
    raise refusal


def _capture_groups_refusal(state: GameState, move: Move, v: int) -> RuleViolation | None:
    """What is wrong with a capture's stated groups for value ``v``, if anything."""
    stated = move.groups or ()
    named = [t for g in stated for t in g if t != move.card.code]
    if sorted(named) != sorted(move.targets):
        return RuleViolation("invalid_groups", "The groups must hold each target exactly once.")
    for group in stated:
        parts = [it for t in group if t != move.card.code and (it := state.item(t)) is not None]
        if len(parts) > 1 and any(isinstance(p, Build) for p in parts):
            return RuleViolation("invalid_groups", "A build is taken as a group of its own.")
        builds = sum(p.value for p in parts if isinstance(p, Build))
        if not can_make([p for p in parts if isinstance(p, Card)], v - builds, state.options):
            return RuleViolation("illegal_capture", f"The group {' '.join(group)} does not make {v}.")
    return None


def _check_maximal(state: GameState, v: int, items: tuple[TableItem, ...]) -> None:
    taken = {item_id(it) for it in items}
    rest = [it for it in state.table if item_id(it) not in taken]
    if any(isinstance(it, Build) and it.value == v for it in rest):
        raise RuleViolation("capture_not_maximal", "You must take every build and group your card can take.")
    loose = [c for c in rest if isinstance(c, Card) and values_of(c, state.options)]
    for values in assignments(loose, state.options):
        counts = counts_of([x for x in values if x <= v], v)
        if counts is not None and _sub_multisets(counts, v, v):
            raise RuleViolation("capture_not_maximal", "You must take every group your card can take.")

"""Capturing: a card takes builds of its value and loose cards in groups
that each make it; a court without a value takes courts of its rank. With
``builds_in_sums`` an opponent's single build may count as a number in a
group; with ``jack_takes_all`` a jack takes the whole table."""

from __future__ import annotations

from collections.abc import Iterator

from ...cards import Card
from ...errors import RuleViolation
from ...groups import _sub_multisets, can_split, counts_of
from ..moves import Move
from ..options import Options
from ..state import GameState
from ..table import Build, TableItem, item_id
from .turn import Play, counts_as_sweep
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
    if takes_the_table(card, opts):
        _whole_table(state, items)
        return Play(seat, move, items)  # not a sweep: the jack takes the table by right
    if not choices:
        _court_capture(state, card, items)
        return _taking(state, seat, move, items)
    total = _sum_capture(state, seat, move, [move.value] if move.value is not None else list(choices), items)
    if opts.sweep_pips and len(choices) > 1:  # what a sweep scores does not hang on the value stated
        total = max(_totals(state, seat, move, choices, items))
    return _taking(state, seat, move, items, total)


def _totals(state: GameState, seat: int, move: Move, choices: tuple[int, ...],
            items: tuple[TableItem, ...]) -> Iterator[int]:
    """What the targets add up to at each value the card may take them at."""
    for v in choices:
        try:
            yield _sum_capture(state, seat, move, [v], items)
        except RuleViolation:
            continue


def takes_the_table(card: Card, options: Options) -> bool:
    """``jack_takes_all`` (Tablanette): a jack takes every item on the table."""
    return options.jack_takes_all and card.rank == 11


def _whole_table(state: GameState, items: tuple[TableItem, ...]) -> None:
    if len(items) != len(state.table):
        raise RuleViolation("illegal_capture", "A jack takes the whole table: name every card and build on it.")


def _taking(state: GameState, seat: int, move: Move, items: tuple[TableItem, ...], total: int = 0) -> Play:
    """The play of a legal capture: whether it sweeps, and with ``sweep_pips``
    what its sweep scores, the ``total`` its targets make (every card has a
    number where that option is allowed)."""
    sweep = counts_as_sweep(state, seat, len(items))
    return Play(seat, move, items, sweep=sweep, pips=total if sweep and state.options.sweep_pips else 0)


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


def _sum_capture(state: GameState, seat: int, move: Move, choices: list[int], items: tuple[TableItem, ...]) -> int:
    """A capture by a card with a number value: try each value it may take.
    Returns the total the targets make at the value that took them (a
    multiple of it), which a sweep scores with ``sweep_pips``."""
    opts = state.options
    loose = [it for it in items if isinstance(it, Card)]
    for it in loose:
        if not values_of(it, opts):
            raise RuleViolation("illegal_capture", f"{it.code} is taken only by a card of its rank.")
    builds = [it for it in items if isinstance(it, Build)]
    refusal: RuleViolation | None = None
    for v in choices:
        summed = [b for b in builds if b.value != v]
        wrong = next((b for b in summed if not in_sum(state, seat, b, v)), None)
        if wrong is not None:
            refusal = RuleViolation("illegal_capture", f"Your {move.card.code} cannot take {wrong.id}: "
                                    f"a build of {wrong.value} is taken only by a {wrong.value}.")
            continue
        if move.groups is not None:
            refusal = _capture_groups_refusal(state, seat, move, v)
            total = v * len(move.groups)
        else:
            extra = [b.value for b in summed]
            splits = (sum(a) for a in assignments(loose, opts) if can_split([*a, *extra] if extra else a, v))
            found = max(splits, default=None) if opts.sweep_pips else next(splits, None)  # the most, or any
            refusal = None if found is not None else RuleViolation(
                "illegal_capture", f"{' '.join(move.targets)} cannot be split into groups that each make {v}.")
            total = (found or 0) + sum(b.value for b in builds)
        if refusal is None:
            if not opts.partial_capture:
                _check_maximal(state, seat, v, items)
            return total
    assert refusal is not None, "a card has at least one value to try"
    raise refusal


def in_sum(state: GameState, seat: int, build: Build, v: int) -> bool:
    """``builds_in_sums`` (004): whether ``build`` may be taken by ``seat`` as
    a number in a capture at ``v``: a single build of the other side, worth less."""
    return (state.options.builds_in_sums and not build.multiple and build.value < v
            and state.team_of(build.owner) != state.team_of(seat))


def _capture_groups_refusal(state: GameState, seat: int, move: Move, v: int) -> RuleViolation | None:
    """What is wrong with a capture's stated groups for value ``v``, if anything."""
    stated = move.groups or ()
    named = [t for g in stated for t in g if t != move.card.code]
    if sorted(named) != sorted(move.targets):
        return RuleViolation("invalid_groups", "The groups must hold each target exactly once.")
    for group in stated:
        parts = [it for t in group if t != move.card.code and (it := state.item(t)) is not None]
        builds = [p for p in parts if isinstance(p, Build)]
        if len(parts) > 1 and any(not in_sum(state, seat, b, v) for b in builds):
            return RuleViolation("invalid_groups", "A build is taken as a group of its own.")
        in_builds = sum(b.value for b in builds)
        if not can_make([p for p in parts if isinstance(p, Card)], v - in_builds, state.options):
            return RuleViolation("illegal_capture", f"The group {' '.join(group)} does not make {v}.")
    return None


def _check_maximal(state: GameState, seat: int, v: int, items: tuple[TableItem, ...]) -> None:
    taken = {item_id(it) for it in items}
    rest = [it for it in state.table if item_id(it) not in taken]
    if any(isinstance(it, Build) and it.value == v for it in rest):
        raise RuleViolation("capture_not_maximal", "You must take every build and group your card can take.")
    loose = [c for c in rest if isinstance(c, Card) and values_of(c, state.options)]
    summed = [b.value for b in rest if isinstance(b, Build) and in_sum(state, seat, b, v)]
    for values in assignments(loose, state.options):
        counts = counts_of([x for x in (*values, *summed) if x <= v], v)
        if counts is not None and _sub_multisets(counts, v, v):
            raise RuleViolation("capture_not_maximal", "You must take every group your card can take.")

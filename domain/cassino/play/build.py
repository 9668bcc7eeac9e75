"""Building: a new build, a multiple build, a raise, or (``court_builds``)
courts gathered in multiples of their rank."""

from __future__ import annotations

from collections.abc import Iterable

from ...cards import Card
from ...errors import RuleViolation
from ...groups import split, splits_with
from ..moves import Move
from ..options import Options
from ..state import GameState
from ..table import Build, TableItem, item_id
from .turn import Play
from .values import assignments, can_make, holds_value, is_court_build, values_of


def resolve_build(state: GameState, seat: int, move: Move, items: tuple[TableItem, ...]) -> Play:
    opts = state.options
    card, target = move.card, move.value
    if opts.capture_by == "rank":
        raise RuleViolation("illegal_build", "There are no builds in this game: cards pair by rank only.")
    if not opts.builds:
        raise RuleViolation("illegal_build", "There are no builds in this game: trail or capture.")
    if target is None:
        raise RuleViolation("illegal_build", "Say what value you are building.")
    if opts.court_builds and card.is_court:
        return _court_build(state, seat, move, items)
    if not values_of(card, opts):
        raise RuleViolation("illegal_build", f"{card.code} has no number value and cannot be built with.")
    if not 1 <= target <= opts.highest_value:
        raise RuleViolation("illegal_build", f"A build is worth 1 to {opts.highest_value}, not {target}.")
    if not items:
        raise RuleViolation("illegal_build", "A build puts your card with cards or builds on the table.")
    hand_after = tuple(h for h in state.hands[seat] if h is not card)
    for it in items:
        if isinstance(it, Card) and not values_of(it, opts):
            raise RuleViolation("illegal_build", f"{it.code} has no number value and cannot be built on.")
    # The cards' sum first: a build that does not add up is refused for that,
    # whatever the hand holds.
    groups = _named_groups(move, items) if move.groups is not None else _find_groups(state, move, target, items)
    merged = _check_build_groups(state, seat, move, target, groups, hand_after)
    if not holds_value(hand_after, target, opts):
        raise RuleViolation("build_needs_card",
                            f"You can build {target} only while keeping a {target} in your hand to take it.")
    builds = [it for it in items if isinstance(it, Build)]
    raised = [b for b in builds if b.value != target]
    keep = (raised or [b for b in builds])
    build_id = keep[0].id if keep else f"B{state.next_build}"
    return Play(seat, move, items, build=Build(build_id, target, merged, seat))


def _named_groups(move: Move, items: tuple[TableItem, ...]) -> list[list[TableItem]]:
    stated = move.groups or ()
    named = [t for g in stated for t in g]
    expected = sorted([move.card.code, *move.targets])
    if sorted(named) != expected:
        raise RuleViolation("invalid_groups", "The groups must hold your card and each target exactly once.")
    by_id: dict[str, TableItem] = {it.id: it for it in items}
    by_id[move.card.code] = move.card
    return [[by_id[t] for t in g] for g in stated]


def _find_groups(state: GameState, move: Move, target: int, items: tuple[TableItem, ...]) -> list[list[TableItem]]:
    """Find a grouping of the card and targets into groups of the build's value,
    trying each value the cards may take."""
    opts, card = state.options, move.card
    builds = [it for it in items if isinstance(it, Build)]
    loose = [it for it in items if isinstance(it, Card)]
    whole: list[list[TableItem]] = [[b] for b in builds if b.value == target]
    raised = [b for b in builds if b.value != target]
    if len(raised) > 1:
        raise RuleViolation("illegal_build", "Only one build can be raised at a time.")
    if raised:
        b = raised[0]
        for values in assignments([card, *loose], opts):
            need = target - b.value - values[0]
            pick = splits_with(values[1:], target, need)
            if pick is not None:
                rest = [x for i, x in enumerate(loose) if i not in pick]
                rest_values = [x for i, x in enumerate(values[1:]) if i not in pick]
                rest_groups = split(rest_values, target) or []
                raise_group: list[TableItem] = [b, card, *(loose[i] for i in pick)]
                return [raise_group, *whole, *(_items(rest[i] for i in g) for g in rest_groups)]
        raise RuleViolation("illegal_build", f"Raising {b.id} with your {card.code} does not make {target}.")
    pool = [*loose, card]
    for values in assignments(pool, opts):
        found = split(values, target)
        if found is not None:
            return [*whole, *(_items(pool[i] for i in g) for g in found)]
    raise RuleViolation("illegal_build", _why_no_build([card, *loose], target, opts))


def _why_no_build(cards: list[Card], target: int, options: Options) -> str:
    """Why ``cards`` make no build of ``target``: their sum, when they have
    one sum and it is not a multiple of ``target``."""
    named = [c.code for c in cards]
    listed = f"{', '.join(named[:-1])} and {named[-1]}"
    sums = {sum(values) for values in assignments(cards, options)}
    if len(sums) == 1 and (total := sums.pop()) % target:
        return f"{listed} make {total}, not {target}."
    return f"{listed} cannot be grouped to make {target}."


def _items(cards: Iterable[Card]) -> list[TableItem]:
    return list(cards)


def _check_build_groups(state: GameState, seat: int, move: Move, target: int, groups: list[list[TableItem]],
                        hand_after: tuple[Card, ...]) -> tuple[tuple[Card, ...], ...]:
    """Check each group of a build; return the new build's groups of cards."""
    opts, card = state.options, move.card
    place = {it.id: i for i, it in enumerate(state.table)}  # a group's cards in table order
    out: list[tuple[Card, ...]] = []
    for group in groups:
        builds = [g for g in group if isinstance(g, Build)]
        if len(builds) > 1:
            raise RuleViolation("illegal_build", "Two builds cannot be added together into one group.")
        in_builds = sum(g.value for g in builds)
        if not can_make([g for g in group if isinstance(g, Card)], target - in_builds, opts):
            shown = " ".join(item_id(g) for g in group)
            raise RuleViolation("illegal_build", f"The group {shown} does not make {target}.")
        if builds and builds[0].value == target:
            _check_addition(state, seat, builds[0])
            if len(group) > 1:
                raise RuleViolation("illegal_build",
                                    f"{builds[0].id} already makes {target}; it is a group of its own.")
            out.extend(builds[0].groups)
            continue
        if builds:
            _check_raise(state, seat, move, builds[0], group, hand_after)
        laid = sorted((g for g in group if g is not card), key=lambda g: place.get(g.id, 0))
        cards = [c for g in laid for c in (g.cards if isinstance(g, Build) else (g,))]
        out.append((*cards, card) if card in group else tuple(cards))
    return tuple(out)


def _check_addition(state: GameState, seat: int, build: Build) -> None:
    """``add_to_others: false`` (African): a build of the other side is added to
    only by taking it, so a build move adds to one's own side's builds only."""
    if not state.options.add_to_others and state.team_of(build.owner) != state.team_of(seat):
        raise RuleViolation("add_to_others", f"{build.id} is the other side's build: you may take it, not "
                            "add to it.")


def _check_raise(state: GameState, seat: int, move: Move, build: Build, group: list[TableItem],
                 hand_after: tuple[Card, ...]) -> None:
    opts = state.options
    if build.multiple:
        raise RuleViolation("multiple_build_fixed",
                            f"{build.id} is a multiple build of {build.value}s; its value cannot change.")
    if move.card not in group:
        raise RuleViolation("illegal_build", "A build is raised with a card from your hand.")
    if len(group) > 2 and not opts.raise_with_table_cards:
        raise RuleViolation("raise_with_table_cards",
                            "A build's value changes only by the card you play, not by cards from the table.")
    if build.owner == seat:
        if opts.raise_own_build == "forbidden":
            raise RuleViolation("raise_own_build", "You may not raise your own build.")
        if opts.raise_own_build == "needs_both" and not holds_value(hand_after, build.value, opts):
            raise RuleViolation("raise_own_build",
                                f"To raise your own build of {build.value} you must still hold a {build.value} "
                                "as well.")


def _court_build(state: GameState, seat: int, move: Move, items: tuple[TableItem, ...]) -> Play:
    """``court_builds`` (Trailing-royals): a court laid on courts of its rank
    (loose, or already built) makes a multiple build of that rank, to be taken
    by a further court of the rank, which the builder must hold."""
    card, rank_word = move.card, move.card.name.split()[0]
    if move.value != card.rank:
        raise RuleViolation("illegal_build",
                            f"Courts are built only with their own rank: a {rank_word} builds {card.rank}.")
    if not items or any(not (isinstance(it, Card) and it.rank == card.rank or
                             is_court_build(it, card.rank, state.options)) for it in items):
        raise RuleViolation("illegal_build", f"A {rank_word} is built only on {rank_word}s.")
    hand_after = tuple(h for h in state.hands[seat] if h is not card)
    if not holds_value(hand_after, card.rank, state.options):
        raise RuleViolation("build_needs_card",
                            f"You can build {rank_word}s only while keeping a {rank_word} to take them.")
    groups = [g for it in items for g in (it.groups if isinstance(it, Build) else ((it,),))]
    keep = [it for it in items if isinstance(it, Build)]
    build_id = keep[0].id if keep else f"B{state.next_build}"
    return Play(seat, move, items, build=Build(build_id, card.rank, (*groups, (card,)), seat))

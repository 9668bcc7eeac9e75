"""Building with numbers: a new build, a multiple build, or a raise. The
pieces a game plugs in: whether one's own build may be raised
(``raise_own_build``), whether a raise may use table cards
(``raise_with_table_cards``) and whether another side's build may be added
to (``add_to_others``). Courts built by rank are in :mod:`.court`."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from itertools import product

from ...cards import Card
from ...errors import RuleViolation
from ...groups import Counts, _sub_multisets, split, splits_with
from ..moves import Action, Move
from ..options import Options
from ..state import GameState
from ..table import Build, TableItem, item_id
from .court import check_build_value
from .kind import MoveKind, Phase
from .listing import Lister, Template, choices
from .turn import Play
from .values import assignments, can_make, holds_value, values_of

Groups = list[list[TableItem]]
_ONE_RAISE = "Only one build can be raised at a time."
#: Whether ``seat`` may raise its own build (``raise_own_build``): the rule broken, or None.
OwnRaise = Callable[[GameState, int, Build, tuple[Card, ...]], "RuleViolation | None"]


def _forbidden(state: GameState, seat: int, build: Build, hand_after: tuple[Card, ...]) -> RuleViolation | None:
    return RuleViolation("raise_own_build", "You may not raise your own build.")


def _needs_both(state: GameState, seat: int, build: Build, hand_after: tuple[Card, ...]) -> RuleViolation | None:
    if holds_value(hand_after, build.value, state.options):
        return None
    return RuleViolation("raise_own_build", f"To raise your own build of {build.value} you must still hold a "
                         f"{build.value} as well.")


OWN_RAISES: dict[str, OwnRaise] = {"forbidden": _forbidden, "needs_both": _needs_both}


class NumberBuild(MoveKind):
    """A build of a number value, made, added to or raised with the played card."""

    action = Action.BUILD
    phases = (Phase.BUILD, Phase.BUILD_MORE)

    def __init__(self, options: Options):
        self.own_raise = OWN_RAISES.get(options.raise_own_build)
        self.with_table = options.raise_with_table_cards
        self.to_others = options.add_to_others

    # -- the check ----------------------------------------------------------

    def shape(self, state: GameState, seat: int, move: Move, items: tuple[TableItem, ...]) -> None:
        _check_build_of(state.options, move, items)
        if move.groups is None and sum(1 for it in items if isinstance(it, Build) and it.value != move.value) > 1:
            raise RuleViolation("illegal_build", _ONE_RAISE)

    def play(self, state: GameState, seat: int, move: Move, items: tuple[TableItem, ...]) -> Play:
        opts, card = state.options, move.card
        target = _check_build_of(opts, move, items)
        hand_after = tuple(h for h in state.hands[seat] if h is not card)
        # The cards' sum first: a build that does not add up is refused for that,
        # whatever the hand holds.
        groups = _named_groups(move, items) if move.groups is not None else _find_groups(state, move, target, items)
        for group in groups:
            self._check_group(state, seat, move, target, group, hand_after)
        if not holds_value(hand_after, target, opts):
            raise RuleViolation("build_needs_card",
                                f"You can build {target} only while keeping a {target} in your hand to take it.")
        return _building(state, seat, move, items, target, groups)

    def made(self, state: GameState, seat: int, move: Move, items: tuple[TableItem, ...]) -> Play:
        """A build the generator has made adds up, keeps a card to take it,
        and raises or adds to only what it may: what is left is to lay its
        cards out in groups, as the check does."""
        if move.groups is not None or move.value is None:
            return self.play(state, seat, move, items)
        return _building(state, seat, move, items, move.value, _find_groups(state, move, move.value, items))

    def _check_group(self, state: GameState, seat: int, move: Move, target: int, group: list[TableItem],
                     hand_after: tuple[Card, ...]) -> None:
        """Check one group of a build: it makes the build's value, and a build
        in it is one that may be added to whole or raised."""
        build = _check_group_sum(state, target, group)
        if build is not None and build.value == target:
            self._added(state, seat, build, group, target)
        elif build is not None:
            self._check_raise(state, seat, move, build, group, hand_after)

    def raises(self, state: GameState, seat: int, build: Build, hand_after: tuple[Card, ...]) -> bool:
        """Whether ``seat`` may raise ``build`` as far as whose it is goes
        (``raise_own_build``); the generator's side of :meth:`_check_raise`."""
        return build.owner != seat or self.own_raise is None or self.own_raise(state, seat, build, hand_after) is None

    def adds(self, state: GameState, seat: int, build: Build) -> bool:
        """Whether ``seat`` may add to ``build`` whole (``add_to_others``); the
        generator's side of :meth:`_added`."""
        return self.to_others or state.team_of(build.owner) == state.team_of(seat)

    def _added(self, state: GameState, seat: int, build: Build, group: list[TableItem], target: int) -> None:
        """A build of the target's value, added whole to the new one.
        ``add_to_others: false`` (African): a build of the other side is added
        to only by taking it, so a build move adds to one's own side's builds only."""
        if not self.adds(state, seat, build):
            raise RuleViolation("add_to_others", f"{build.id} is the other side's build: you may take it, not "
                                "add to it.")
        if len(group) > 1:
            raise RuleViolation("illegal_build", f"{build.id} already makes {target}; it is a group of its own.")

    def _check_raise(self, state: GameState, seat: int, move: Move, build: Build, group: list[TableItem],
                     hand_after: tuple[Card, ...]) -> None:
        if build.multiple:
            raise RuleViolation("multiple_build_fixed",
                                f"{build.id} is a multiple build of {build.value}s; its value cannot change.")
        if move.card not in group:
            raise RuleViolation("illegal_build", "A build is raised with a card from your hand.")
        if len(group) > 2 and not self.with_table:
            raise RuleViolation("raise_with_table_cards",
                                "A build's value changes only by the card you play, not by cards from the table.")
        refusal = self.own_raise(state, seat, build, hand_after) if build.owner == seat and self.own_raise else None
        if refusal is not None:
            raise refusal

    # -- the generator --------------------------------------------------------

    def moves(self, lister: Lister, card: Card, phase: Phase) -> Iterator[Move]:
        """The builds of ``card``: in :attr:`Phase.BUILD` those of its own
        group alone, in :attr:`Phase.BUILD_MORE` those that gather more. A
        targeted generation makes both in the first pass: it looks for one
        move, whichever pass lists it."""
        targeted = lister.target is not None
        if targeted and phase is Phase.BUILD_MORE:
            return
        alone, more = phase is Phase.BUILD, targeted or phase is Phase.BUILD_MORE
        for cv, target in self._targets(lister, card):
            yield from self._moves_to(lister, card, cv, target, alone, more)

    @staticmethod
    def _targets(lister: Lister, card: Card) -> Iterator[tuple[int, int]]:
        """Each value the card may take, with each value it can build: one
        the rest of the hand can take (as the check has it), no lower than
        the card; in a targeted generation, the targeted move's value only."""
        opts, worth = lister.state.options, lister.rules.worth
        hand_after = list(lister.state.hands[lister.seat])
        hand_after.remove(card)
        shown = {x for h in hand_after for x in (*worth[h], h.rank)}
        if lister.target is not None:
            shown &= {lister.target.move.value}
        held = sorted(x for x in shown if x <= opts.highest_value and holds_value(hand_after, x, opts))
        for cv, target in product(worth[card], held):
            if cv <= target:
                yield cv, target

    def _moves_to(self, lister: Lister, c: Card, cv: int, target: int, alone: bool, more: bool
                  ) -> Iterator[Move]:
        """The builds of ``target`` with ``c`` counting ``cv``: of its own
        group ``alone``, and with ``more`` groups and builds."""
        must = lister.must_touch(c)
        # The builds the move must touch: those of the target's value are
        # added whole; at most one other can be touched, by raising it.
        added = tuple(ident for ident in must if lister.value_of(ident) == target)
        raised = must.difference(added)
        alone = alone and not added
        if len(raised) > 1 or not (alone or more) or not lister.adds_up(cv, target):
            return
        template = (c, Action.BUILD, target)
        for vec, ids in self._card_groups(lister, c, cv, target):
            if not raised <= set(ids) or not lister.within(vec, ids):
                continue
            if alone and (vec or ids):
                yield from lister.emit(template, [vec], ids)
            if more:
                yield from self._with_more(lister, template, vec, ids, added)

    def _with_more(self, lister: Lister, template: Template, vec: Counts, ids: tuple[str, ...],
                   added: tuple[str, ...]) -> Iterator[Move]:
        """The builds that gather more groups of the target, and builds of it
        (those the seat may add to), than the card's own group."""
        target = template[2] or 0
        state, seat = lister.state, lister.seat
        whole = tuple(b.id for b in lister.among(lister.builds) if b.value == target and b.id not in ids
                      and b.id not in added and self.adds(state, seat, b))
        rest = lister.counts(target) - vec if lister.target is None else 0  # a targeted one names its cards
        for more, _ in lister.unions(rest, target, _more_wanted(lister, vec), maximal=False):
            for chosen in choices(whole):
                if more or chosen or added:  # else no extra groups: listed in the first pass
                    yield from lister.emit(template, [vec, more], ids + added + chosen)

    def _card_groups(self, lister: Lister, card: Card, cv: int, target: int
                     ) -> Iterator[tuple[Counts, tuple[str, ...]]]:
        """The ways the played card's own group can make ``target``: alone,
        with loose cards, or raising a single build the seat may raise (with
        loose cards too where the options allow). In a targeted generation,
        only of the cards and builds the move names."""
        counts = lister.drawn(target)
        if counts is None:
            return
        if cv == target:
            yield 0, ()
        elif cv < target:
            for sub in _sub_multisets(counts, target - cv, target):
                yield sub, ()
        yield from self._raising(lister, card, cv, target, counts)

    def _raising(self, lister: Lister, card: Card, cv: int, target: int, counts: Counts
                 ) -> Iterator[tuple[Counts, tuple[str, ...]]]:
        """The card's groups that raise a single build the seat may raise."""
        state, seat = lister.state, lister.seat
        hand_after = tuple(h for h in state.hands[seat] if h is not card)
        for b in lister.among(lister.builds):
            if b.multiple or b.value == target or not self.raises(state, seat, b, hand_after):
                continue
            need = target - b.value - cv
            if need == 0:
                yield 0, (b.id,)
            elif need > 0 and self.with_table:
                for sub in _sub_multisets(counts, need, target):
                    yield sub, (b.id,)


def _more_wanted(lister: Lister, vec: Counts) -> Counts | None:
    """In a targeted generation, the loose cards the targeted move gathers
    beyond the card's own group ``vec`` (which :meth:`Lister.within` holds
    to lie in them): its one union of further groups."""
    named = lister.wanted([b.id for b in lister.builds])
    return named - vec if named is not None else None


def _building(state: GameState, seat: int, move: Move, items: tuple[TableItem, ...], target: int,
              groups: Groups) -> Play:
    """The play of a build of ``target`` whose groups are ``groups``: the
    build keeps the id of a build it adds to (one of its value first)."""
    place = {it.id: i for i, it in enumerate(state.table)}  # a group's cards in table order
    merged = tuple(laid for group in groups for laid in _laid(move.card, target, group, place))
    builds = [it for it in items if isinstance(it, Build)]
    keep = [b for b in builds if b.value != target] or builds
    build_id = keep[0].id if keep else f"B{state.next_build}"
    return Play(seat, move, items, build=Build(build_id, target, merged, seat))


def _laid(card: Card, target: int, group: list[TableItem], place: dict[str, int]) -> tuple[tuple[Card, ...], ...]:
    """The build's groups one group of a build makes: a build of the value
    keeps its own groups; other cards are laid in table order, the played card last."""
    build = next((g for g in group if isinstance(g, Build)), None)
    if build is not None and build.value == target:
        return build.groups
    laid = sorted((g for g in group if g is not card), key=lambda g: place.get(g.id, 0))
    cards = [c for g in laid for c in (g.cards if isinstance(g, Build) else (g,))]
    return ((*cards, card) if card in group else tuple(cards),)


def _check_build_of(opts: Options, move: Move, items: tuple[TableItem, ...]) -> int:
    """What a number build needs whatever its groups: a value to build, a
    card and table cards with numbers, and a value in range. Returns the value."""
    card, target = move.card, move.value
    check_build_value(move)
    assert target is not None
    if not values_of(card, opts):
        raise RuleViolation("illegal_build", f"{card.code} has no number value and cannot be built with.")
    if not 1 <= target <= opts.highest_value:
        raise RuleViolation("illegal_build", f"A build is worth 1 to {opts.highest_value}, not {target}.")
    if not items:
        raise RuleViolation("illegal_build", "A build puts your card with cards or builds on the table.")
    for it in items:
        if isinstance(it, Card) and not values_of(it, opts):
            raise RuleViolation("illegal_build", f"{it.code} has no number value and cannot be built on.")
    return target


def _check_group_sum(state: GameState, target: int, group: list[TableItem]) -> Build | None:
    """A group of a build makes its value, with one build in it at most; returns that build."""
    builds = [g for g in group if isinstance(g, Build)]
    if len(builds) > 1:
        raise RuleViolation("illegal_build", "Two builds cannot be added together into one group.")
    in_builds = sum(g.value for g in builds)
    if not can_make([g for g in group if isinstance(g, Card)], target - in_builds, state.options):
        shown = " ".join(item_id(g) for g in group)
        raise RuleViolation("illegal_build", f"The group {shown} does not make {target}.")
    return builds[0] if builds else None


def _named_groups(move: Move, items: tuple[TableItem, ...]) -> Groups:
    stated = move.groups or ()
    named = [t for g in stated for t in g]
    expected = sorted([move.card.code, *move.targets])
    if sorted(named) != expected:
        raise RuleViolation("invalid_groups", "The groups must hold your card and each target exactly once.")
    by_id: dict[str, TableItem] = {it.id: it for it in items}
    by_id[move.card.code] = move.card
    return [[by_id[t] for t in g] for g in stated]


def _find_groups(state: GameState, move: Move, target: int, items: tuple[TableItem, ...]) -> Groups:
    """Find a grouping of the card and targets into groups of the build's value,
    trying each value the cards may take."""
    builds = [it for it in items if isinstance(it, Build)]
    loose = [it for it in items if isinstance(it, Card)]
    whole: Groups = [[b] for b in builds if b.value == target]
    raised = [b for b in builds if b.value != target]
    if len(raised) > 1:
        raise RuleViolation("illegal_build", _ONE_RAISE)
    if raised:
        raise_group, rest = _raise_groups(state, move.card, raised[0], target, loose)
        return [raise_group, *whole, *rest]
    pool = [*loose, move.card]
    for values in assignments(pool, state.options):
        found = split(values, target)
        if found is not None:
            return [*whole, *(_items(pool[i] for i in g) for g in found)]
    raise RuleViolation("illegal_build", _why_no_build([move.card, *loose], target, state.options))


def _raise_groups(state: GameState, card: Card, build: Build, target: int,
                  loose: list[Card]) -> tuple[list[TableItem], Groups]:
    """The groups of a raise: ``build`` with the card and some loose cards,
    and the other loose cards in groups of their own."""
    for values in assignments([card, *loose], state.options):
        need = target - build.value - values[0]
        pick = splits_with(values[1:], target, need)
        if pick is not None:
            rest = [x for i, x in enumerate(loose) if i not in pick]
            rest_values = [x for i, x in enumerate(values[1:]) if i not in pick]
            rest_groups = split(rest_values, target) or []
            raise_group: list[TableItem] = [build, card, *(loose[i] for i in pick)]
            return raise_group, [_items(rest[i] for i in g) for g in rest_groups]
    raise RuleViolation("illegal_build", f"Raising {build.id} with your {card.code} does not make {target}.")


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

"""Capturing by sums: a card with a number value takes builds of its value
and loose cards in groups that each make it. The pieces a game plugs in:
``partial_capture`` (a capture may leave groups behind, or must take all),
``builds_in_sums`` (an opponent's single build may count as a number in a
group) and ``sweep_pips`` (a sweep scores the total it takes). Courts
without a value capture by rank: see :mod:`.court`."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator

from ...cards import Card, full_deck
from ...errors import RuleViolation
from ...groups import Counts, _sub_multisets, can_split, counts_of, one
from ..moves import Action, Move
from ..options import Options
from ..state import GameState
from ..table import Build, TableItem, item_id
from .kind import MoveKind, Phase
from .listing import Lister, choices
from .turn import Play, counts_as_sweep
from .values import assignments, can_make, values_of

Summable = dict[int, list[Build]]  # the builds a capture may take as numbers, by value
At = tuple[frozenset[str], tuple[Build, ...], Summable, Counts, "Counts | None"]  # see SumCapture._at
#: The builds a capture takes with its groups (its groups, whether they are a largest union, the builds of
#: its value, those it must take): :func:`_largest` or :func:`_smaller`.
Pick = Callable[[Counts, bool, tuple[Build, ...], frozenset[str]], Iterable[tuple[Build, ...]]]


def check_capture_shape(state: GameState, move: Move, items: tuple[TableItem, ...]) -> tuple[int, ...]:
    """What every capture needs: targets, and a stated value the card has.
    Returns the values the card may capture at."""
    card = move.card
    if not items:
        raise RuleViolation("illegal_capture", "Say what your card takes: a capture names its targets.")
    choices = values_of(card, state.options)
    if move.value is not None and move.value not in choices:
        shown = " or ".join(map(str, choices)) or "its rank only"
        raise RuleViolation("illegal_capture", f"{card.code} captures as {shown}.")
    return choices


def taking(state: GameState, seat: int, move: Move, items: tuple[TableItem, ...], pips: int = 0) -> Play:
    """The play of a legal capture, and whether it sweeps; a sweep scores
    ``pips`` where the game scores them."""
    sweep = counts_as_sweep(state, seat, len(items))
    return Play(seat, move, items, sweep=sweep, pips=pips if sweep else 0)


class SumCapture(MoveKind):
    """A capture by a card with a number value."""

    action = Action.CAPTURE

    def __init__(self, options: Options):
        self.partial = options.partial_capture
        self.sums_builds = options.builds_in_sums
        self.pips = options.sweep_pips
        self.phases = (Phase.CAPTURE, Phase.PARTIAL) if self.partial else (Phase.CAPTURE,)
        self.numbered = frozenset(c for c in full_deck() if values_of(c, options))

    def takes(self, card: Card) -> bool:
        return card in self.numbered

    def in_sum(self, state: GameState, seat: int, build: Build, v: int) -> bool:
        """``builds_in_sums`` (004): whether ``build`` may be taken by ``seat``
        as a number in a capture at ``v``: a single build of the other side, worth less."""
        return (self.sums_builds and not build.multiple and build.value < v
                and state.team_of(build.owner) != state.team_of(seat))

    # -- the check ----------------------------------------------------------

    def shape(self, state: GameState, seat: int, move: Move, items: tuple[TableItem, ...]) -> None:
        check_capture_shape(state, move, items)
        self._loose(items)

    def play(self, state: GameState, seat: int, move: Move, items: tuple[TableItem, ...]) -> Play:
        choices = check_capture_shape(state, move, items)
        total = self._total(state, seat, move, [move.value] if move.value is not None else list(choices), items)
        if self.pips and len(choices) > 1:  # what a sweep scores does not hang on the value stated
            total = max(self._totals(state, seat, move, choices, items))
        return taking(state, seat, move, items, total if self.pips else 0)

    def made(self, state: GameState, seat: int, move: Move, items: tuple[TableItem, ...]) -> Play:
        """A capture the generator has made takes groups of a value of its
        card (and builds it may take): nothing to check again but what a
        sweep scores, with ``sweep_pips``."""
        if self.pips:
            return self.play(state, seat, move, items)
        return taking(state, seat, move, items)

    def _totals(self, state: GameState, seat: int, move: Move, choices: tuple[int, ...],
                items: tuple[TableItem, ...]) -> Iterator[int]:
        """What the targets add up to at each value the card may take them at."""
        for v in choices:
            try:
                yield self._total(state, seat, move, [v], items)
            except RuleViolation:
                continue

    def _total(self, state: GameState, seat: int, move: Move, choices: list[int], items: tuple[TableItem, ...]) -> int:
        """Try each value the card may take. Returns the total the targets
        make at the value that took them (a multiple of it), which a sweep
        scores with ``sweep_pips``."""
        loose = self._loose(items)
        builds = [it for it in items if isinstance(it, Build)]
        refusal: RuleViolation | None = None
        for v in choices:
            refusal, total = self._at_value(state, seat, move, v, loose, builds)
            if refusal is None:
                if not self.partial:
                    _check_maximal(state, v, items, self._summed(state, seat, v))
                return total
        assert refusal is not None, "a card has at least one value to try"
        raise refusal

    def _at_value(self, state: GameState, seat: int, move: Move, v: int, loose: list[Card],
                  builds: list[Build]) -> tuple[RuleViolation | None, int]:
        """Why the targets are not taken at ``v`` (None if they are), and their total."""
        summed = [b for b in builds if b.value != v]
        wrong = next((b for b in summed if not self.in_sum(state, seat, b, v)), None)
        if wrong is not None:
            return RuleViolation("illegal_capture", f"Your {move.card.code} cannot take {wrong.id}: "
                                 f"a build of {wrong.value} is taken only by a {wrong.value}."), 0
        if move.groups is not None:
            return self._groups_refusal(state, seat, move, v), v * len(move.groups)
        extra = [b.value for b in summed]
        splits = (sum(a) for a in assignments(loose, state.options) if can_split([*a, *extra] if extra else a, v))
        found = max(splits, default=None) if self.pips else next(splits, None)  # the most, or any
        if found is None:
            return RuleViolation("illegal_capture",
                                 f"{' '.join(move.targets)} cannot be split into groups that each make {v}."), 0
        return None, found + sum(b.value for b in builds)

    def _groups_refusal(self, state: GameState, seat: int, move: Move, v: int) -> RuleViolation | None:
        """What is wrong with a capture's stated groups for value ``v``, if anything."""
        stated = move.groups or ()
        named = [t for g in stated for t in g if t != move.card.code]
        if sorted(named) != sorted(move.targets):
            return RuleViolation("invalid_groups", "The groups must hold each target exactly once.")
        for group in stated:
            refusal = self._group_refusal(state, seat, move, v, group)
            if refusal is not None:
                return refusal
        return None

    def _group_refusal(self, state: GameState, seat: int, move: Move, v: int,
                       group: tuple[str, ...]) -> RuleViolation | None:
        parts = [it for t in group if t != move.card.code and (it := state.item(t)) is not None]
        builds = [p for p in parts if isinstance(p, Build)]
        if len(parts) > 1 and any(not self.in_sum(state, seat, b, v) for b in builds):
            return RuleViolation("invalid_groups", "A build is taken as a group of its own.")
        in_builds = sum(b.value for b in builds)
        if not can_make([p for p in parts if isinstance(p, Card)], v - in_builds, state.options):
            return RuleViolation("illegal_capture", f"The group {' '.join(group)} does not make {v}.")
        return None

    def _loose(self, items: tuple[TableItem, ...]) -> list[Card]:
        """The loose cards of ``items``, which a capture takes in sums: each has a number."""
        loose = [it for it in items if type(it) is Card]
        for it in loose:
            if it not in self.numbered:
                raise RuleViolation("illegal_capture", f"{it.code} is taken only by a card of its rank.")
        return loose

    def _summed(self, state: GameState, seat: int, v: int) -> list[Build]:
        """The builds on the table a capture at ``v`` may take as numbers."""
        return [b for b in state.builds() if self.in_sum(state, seat, b, v)]

    # -- the generator --------------------------------------------------------

    def moves(self, lister: Lister, card: Card, phase: Phase) -> Iterator[Move]:
        asks = self.maximal(lister)
        if phase is Phase.PARTIAL and not asks:
            return  # a generation that does not tell the largest from the smaller made them all in the first pass
        pick = _largest if phase is Phase.CAPTURE and asks else _smaller
        for v in lister.rules.worth[card]:
            yield from self._moves_at(lister, card, v, asks, pick)

    def _summable(self, lister: Lister) -> Summable:
        """The builds this seat may take as numbers, by value (at any higher value)."""
        def make() -> Summable:
            out: Summable = {}
            for b in lister.builds:
                if self.in_sum(lister.state, lister.seat, b, b.value + 1):
                    out.setdefault(b.value, []).append(b)
            return out
        return lister.memo("summable", make) if self.sums_builds else {}

    def _moves_at(self, lister: Lister, c: Card, v: int, asks: bool, pick: Pick) -> Iterator[Move]:
        """The captures of ``c`` at ``v`` whose builds ``pick`` chooses (the
        largest, or the smaller); ``asks`` is :meth:`maximal`."""
        at = lister.memo((self, c, v), self._at, lister, c, v, asks)
        if at is None:
            return  # a build the move must take is not taken by this value
        must, builds, summable, counts, only = at
        template, proven = (c, Action.CAPTURE, None), self.partial or not lister.several
        for vec, is_max in lister.unions(counts, v, only, asks):
            for chosen in pick(vec, is_max, builds, must):
                yield from lister.emit(template, [vec], tuple([b.id for b in chosen]), summable, proven)

    # Listing's walk asks maximality in its run, where a Royal ace counts one
    # value: where captures must be maximal and the table holds such a card,
    # the check has the last word on a listed capture (proven is False).

    def maximal(self, lister: Lister) -> bool:
        """Whether a generation asks if a capture leaves nothing its card could
        also take: listing does, to list it in its pass; a targeted one only
        where partial captures are refused (with them, it makes the largest
        and the smaller captures alike, in the first pass)."""
        return lister.target is None or not self.partial

    def _at(self, lister: Lister, c: Card, v: int, asks: bool) -> At | None:
        """What the captures of ``c`` at ``v`` are made from: the builds they
        must take, the builds of ``v``, the builds they may take as numbers,
        the counts their groups come from (where maximality is asked:
        ``asks``), and a targeted generation's one union; None when a build
        they must take is not of ``v``."""
        must = lister.must_touch(c)
        if must and any(lister.value_of(ident) != v for ident in must):
            return None
        builds = tuple([b for b in lister.builds if b.value == v]) if lister.builds else ()
        summable = {x: bs for x, bs in self._summable(lister).items() if x < v} if self.sums_builds else {}
        counts: Counts = lister.counts(v) if asks else 0
        if summable and asks:
            counts += sum(len(bs) * one(x) for x, bs in summable.items())
        return must, builds, summable, counts, lister.wanted([b.id for b in builds], summable)


def _largest(vec: Counts, is_max: bool, builds: tuple[Build, ...], must: frozenset[str]
             ) -> Iterable[tuple[Build, ...]]:
    """The builds a largest capture takes with the groups ``vec``: all of them."""
    return (builds,) if is_max and (vec or builds) else ()


def _smaller(vec: Counts, is_max: bool, builds: tuple[Build, ...], must: frozenset[str]
             ) -> list[tuple[Build, ...]]:
    """The builds a smaller capture may take with the groups ``vec``: any
    choice holding those it must take, but not all of them with a largest
    union (that is a largest capture)."""
    largest = len(builds) if is_max else -1
    return [chosen for chosen in choices(builds) if len(chosen) != largest and (vec or chosen)
            and (not must or must.issubset([b.id for b in chosen]))]


def _check_maximal(state: GameState, v: int, items: tuple[TableItem, ...], summable: list[Build]) -> None:
    """Without ``partial_capture``: a capture leaves no build of its value
    and no group its card could also take."""
    taken = {item_id(it) for it in items}
    rest = [it for it in state.table if item_id(it) not in taken]
    if any(isinstance(it, Build) and it.value == v for it in rest):
        raise RuleViolation("capture_not_maximal", "You must take every build and group your card can take.")
    summed = [b.value for b in summable if b.id not in taken]
    if _group_left(state, v, [c for c in rest if isinstance(c, Card)], summed):
        raise RuleViolation("capture_not_maximal", "You must take every group your card can take.")


def _group_left(state: GameState, v: int, rest: list[Card], summed: list[int]) -> bool:
    """Whether the loose cards ``rest`` and the builds worth ``summed`` hold a group of ``v``."""
    loose = [c for c in rest if values_of(c, state.options)]
    for values in assignments(loose, state.options):
        counts = counts_of([x for x in (*values, *summed) if x <= v], v)
        if counts is not None and _sub_multisets(counts, v, v):
            return True
    return False

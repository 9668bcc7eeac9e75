"""Listing a seat's legal moves: the kinds of :mod:`.rules`, pass by pass.

A crowded table can allow exponentially many captures, so generation never
tries subsets of cards. It works on *templates*: a card, an action, a value,
how many loose cards of each value, and which builds. Whether a move is
legal depends only on its template (two 5s are interchangeable for the
rules), so each template is checked once, by the same check ``decide`` uses,
and then spelled out into concrete moves. A :class:`Lister` holds what the
kinds share while they generate: the loose cards by value, the budget of
work, the moves already given, and memos of one position.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from itertools import combinations, product
from typing import TYPE_CHECKING, Any, TypeVar

from ...cards import Card
from ...groups import Counts, _sub_multisets, fitting, one, value_counts
from ..moves import Action, Move
from ..state import IN_PROGRESS, GameState
from ..table import Build, TableItem
from .kind import MoveKind, Phase

if TYPE_CHECKING:
    from .rules import Rules

T = TypeVar("T")
Template = tuple[Card, Action, "int | None"]  # a move's card, action and value


class OutOfWork(Exception):
    """The budget of a bounded listing is spent."""


class Budget:
    """How many templates may still be examined (None: no limit)."""

    def __init__(self, work: int | None):
        self.work = work

    def spend(self) -> None:
        if self.work is not None:
            self.work -= 1
            if self.work < 0:
                raise OutOfWork


class Lister:
    """One pass of generation, with each loose card given one of its values."""

    def __init__(self, rules: Rules, state: GameState, seat: int, budget: Budget, seen: set[Move],
                 values: dict[Card, int]):
        self.rules, self.state, self.seat, self.budget, self.seen = rules, state, seat, budget, seen
        self.by_value: dict[int, list[Card]] = {}
        for c, x in values.items():
            self.by_value.setdefault(x, []).append(c)
        self.builds = state.builds()
        self.hand: tuple[Card, ...] = tuple(dict.fromkeys(state.hands[seat]))
        self._memo: dict[object, Any] = {}
        self._must: dict[Card, frozenset[str]] = {}

    def moves(self) -> Iterator[Move]:
        state = self.state
        if state.status != IN_PROGRESS:
            return
        if state.turn != self.seat:
            if self.seat == state.last_player:  # just after one's own play
                yield from self._pass(Phase.PLUCK, self.rules.listing.get(Phase.PLUCK, ()))
            return
        for phase, kinds in self.rules.listing.items():
            yield from self._pass(phase, kinds)

    def _pass(self, phase: Phase, kinds: Sequence[MoveKind]) -> Iterator[Move]:
        """Each card of the pass, by the first of ``kinds`` that takes it."""
        if not kinds:
            return
        for card in kinds[0].cards(self):
            kind = next((k for k in kinds if k.takes(card)), None)
            if kind is not None:
                yield from kind.moves(self, card, phase)

    # -- what the kinds share ---------------------------------------------

    def memo(self, key: object, make: Callable[[], T]) -> T:
        """``make()``, once per position and key."""
        if key not in self._memo:
            self._memo[key] = make()
        found: T = self._memo[key]
        return found

    def must_touch(self, card: Card) -> frozenset[str]:
        """The ids of the builds a move with ``card`` must take or add to (the owner's duty)."""
        found = self._must.get(card)
        if found is None:
            found = self._must[card] = frozenset(b.id for b in self.rules.duty.to_touch(self.state, self.seat, card))
        return found

    def legal(self, move: Move) -> bool:
        self.budget.spend()
        return self.rules.is_legal(self.state, self.seat, move)

    def checked(self, move: Move) -> Iterator[Move]:
        """``move``, if legal and not given before."""
        if move not in self.seen and self.legal(move):
            self.seen.add(move)
            yield move

    def pool(self, x: int, summable: dict[int, list[Build]] | None = None) -> Sequence[TableItem]:
        """The items that count as ``x`` in a sum: loose cards, and the builds
        ``summable`` lets a capture take as numbers."""
        cards = self.by_value.get(x, [])
        if not summable or x not in summable:
            return cards
        return [*cards, *summable[x]]

    def spell(self, vectors: list[Counts], summable: dict[int, list[Build]] | None = None
              ) -> Iterator[tuple[str, ...]]:
        """Concrete ids for count vectors (added together)."""
        choices = [combinations(self.pool(x, summable), k) for x, k in value_counts(sum(vectors))]
        for picked in product(*choices):
            yield tuple(it.id for group in picked for it in group)

    def emit(self, template: Template, vectors: list[Counts], ids: tuple[str, ...],
             summable: dict[int, list[Build]] | None = None) -> Iterator[Move]:
        """Check one template (its card, action and value, the counts of
        loose cards it takes and the ids it names besides); if legal, yield
        each concrete move it stands for."""
        card, action, value = template
        first = True
        for codes in self.spell(vectors, summable):
            move = Move(card, action, codes + ids, value)
            if first:
                if not self.legal(move):
                    return
                first = False
            if move not in self.seen:
                self.seen.add(move)
                yield move

    def counts(self, v: int) -> Counts:
        """The loose cards of values up to ``v``."""
        return sum(len(cs) * one(x) for x, cs in self.by_value.items() if x <= v)

    def value_of(self, ident: str) -> int:
        return next(b.value for b in self.builds if b.id == ident)

    def unions(self, counts: Counts, v: int) -> Iterator[tuple[Counts, bool]]:
        """Every distinct sub-multiset of ``counts`` that splits into groups of
        ``v`` (the empty one included), with whether nothing more could be
        added. Depth-first, one group at a time; a union is known by what it
        leaves behind, so each is visited once whatever order its groups were
        found in. The groups that fit in what is left are among those that
        fitted before, so each step sifts its parent's few groups rather
        than searching afresh."""
        visited: set[Counts] = set()

        def walk(rest: Counts, groups: tuple[Counts, ...]) -> Iterator[tuple[Counts, bool]]:
            visited.add(rest)
            self.budget.spend()
            yield counts - rest, not groups
            for g in groups:
                smaller = rest - g
                if smaller not in visited:
                    yield from walk(smaller, fitting(groups, smaller))

        yield from walk(counts, _sub_multisets(counts, v, v))


def choices(items: Sequence[T], smallest: int = 0) -> Iterator[tuple[T, ...]]:
    """Every choice of ``items`` of at least ``smallest`` of them, fewest first."""
    for k in range(smallest, len(items) + 1):
        yield from combinations(items, k)

"""Legal moves, as a lazy view in the manner of python-chess::

    moves = legal_moves(state, seat)
    for move in moves: ...          # every legal move, generated as needed
    move in moves                   # one move checked, cheaply
    moves.count()                   # how many there are
    listed = moves.first(200)       # a bounded list, and whether it was cut

A crowded table can allow exponentially many captures, so generation never
tries subsets of cards. It works on *templates*: a card, an action, a value,
how many loose cards of each value, and which builds. Whether a move is
legal depends only on its template (two 5s are interchangeable for the
rules), so each template is checked once by :func:`domain.play.resolve_play`
(the same check ``decide`` uses) and then spelled out into concrete moves.

The order puts what a player most likely wants first: trails, the largest
captures, steals, every build, and then the smaller captures. :meth:`first` also
stops after a fixed amount of work and says the list was cut, so that no
table makes the engine work for long; a move left out of a cut list is
still accepted when played.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from itertools import combinations, product

from ..cards import Card
from ..errors import RuleViolation
from ..groups import Counts, _sub_multisets, fitting, one, value_counts
from .moves import Action, Move, pile_target
from .options import Options
from .play import assignments, builds_to_touch, in_sum, resolve_play, takes_the_table, values_of
from .state import IN_PROGRESS, GameState
from .table import Build, TableItem

DEFAULT_LIMIT = 200
DEFAULT_WORK = 4000  # templates examined before first() gives up and marks the list cut


@dataclass(frozen=True, slots=True)
class MoveList:
    """A bounded list of legal moves; ``truncated`` when more exist than listed."""

    moves: tuple[Move, ...]
    truncated: bool


class _OutOfWork(Exception):
    pass


class LegalMoves:
    """The legal moves of ``seat`` in ``state``: a lazy, re-iterable view."""

    def __init__(self, state: GameState, seat: int):
        self.state = state
        self.seat = seat

    def __contains__(self, move: object) -> bool:
        return isinstance(move, Move) and is_legal(self.state, self.seat, move)

    def __iter__(self) -> Iterator[Move]:
        return _generate(self.state, self.seat, _Budget(None))

    def __bool__(self) -> bool:
        return any(True for _ in self)

    def count(self) -> int:
        return sum(1 for _ in self)

    def first(self, limit: int = DEFAULT_LIMIT, work: int = DEFAULT_WORK) -> MoveList:
        """At most ``limit`` moves in the view's order, within ``work`` templates."""
        out: list[Move] = []
        try:
            for move in _generate(self.state, self.seat, _Budget(work)):
                if len(out) == limit:
                    return MoveList(tuple(out), True)
                out.append(move)
        except _OutOfWork:
            return MoveList(tuple(out), True)
        return MoveList(tuple(out), False)


def _sums(cards: Sequence[Card], opts: Options) -> set[int]:
    """Every total the cards can make, each taking one of its values."""
    return {sum(a) for a in assignments(cards, opts)}


def _reachable(pile: tuple[Card, ...], target: int, opts: Options) -> int:
    """How deep into ``pile`` (from the top) captured cards can be of use to a
    build of ``target``: down to the first card worth more than it."""
    depth = 0
    for card in reversed(pile):
        if not any(0 < x <= target for x in values_of(card, opts)):
            break
        depth += 1
    return depth


def legal_moves(state: GameState, seat: int) -> LegalMoves:
    return LegalMoves(state, seat)


def is_legal(state: GameState, seat: int, move: Move) -> bool:
    try:
        resolve_play(state, seat, move)
    except RuleViolation:
        return False
    return True


class _Budget:
    """How many templates may still be examined (None: no limit)."""

    def __init__(self, work: int | None):
        self.work = work

    def spend(self) -> None:
        if self.work is not None:
            self.work -= 1
            if self.work < 0:
                raise _OutOfWork


def _generate(state: GameState, seat: int, budget: _Budget) -> Iterator[Move]:
    """Every legal move once. Cards with a choice of values (a Royal ace, say)
    are given each of their values in turn, one generator per choice."""
    loose = [it for it in state.table if isinstance(it, Card) and values_of(it, state.options)]
    seen: set[Move] = set()
    for values in assignments(loose, state.options):
        yield from _Generator(state, seat, budget, seen, dict(zip(loose, values))).moves()


class _Generator:
    def __init__(self, state: GameState, seat: int, budget: _Budget, seen: set[Move], values: dict[Card, int]):
        self.state, self.seat, self.budget, self.seen = state, seat, budget, seen
        self.opts = state.options
        self.by_value: dict[int, list[Card]] = {}
        for c, x in values.items():
            self.by_value.setdefault(x, []).append(c)
        self.builds = state.builds()
        # builds_in_sums: the builds this seat may take as numbers, by value (at any higher value)
        self.summable: dict[int, list[TableItem]] = {}
        if self.opts.builds_in_sums:
            for b in self.builds:
                if in_sum(state, seat, b, b.value + 1):
                    self.summable.setdefault(b.value, []).append(b)
        # Per hand card, the own builds its move must take or add to (the
        # owner's duty), so templates that leave one behind are never grouped.
        self.must: dict[Card, frozenset[str]] = {}
        self.loose_sums: list[tuple[tuple[Card, ...], set[int]]] | None = None  # augment_from_piles

    # -- bookkeeping --------------------------------------------------------

    def _spend(self) -> None:
        self.budget.spend()

    def _legal(self, move: Move) -> bool:
        self._spend()
        return is_legal(self.state, self.seat, move)

    def _pool(self, x: int, sums_below: int | None) -> Sequence[TableItem]:
        """The items that count as ``x`` in a sum: loose cards, and for a
        capture at ``sums_below`` the builds it may take as numbers."""
        cards = self.by_value.get(x, [])
        if sums_below is None or x >= sums_below or x not in self.summable:
            return cards
        return [*cards, *self.summable[x]]

    def _counts(self, v: int, sums: bool = False) -> Counts:
        """The loose cards of values up to ``v`` (and with ``sums`` the builds
        a capture at ``v`` may take as numbers)."""
        counts = sum(len(cs) * one(x) for x, cs in self.by_value.items() if x <= v)
        if sums and self.summable:
            counts += sum(len(bs) * one(x) for x, bs in self.summable.items() if x < v)
        return counts

    def _spell(self, vectors: list[Counts], sums_below: int | None = None) -> Iterator[tuple[str, ...]]:
        """Concrete ids for count vectors (added together)."""
        choices = [combinations(self._pool(x, sums_below), k) for x, k in value_counts(sum(vectors))]
        for picked in product(*choices):
            yield tuple(it.id for group in picked for it in group)

    def _emit(self, template: Move, vectors: list[Counts], ids: tuple[str, ...],
              sums_below: int | None = None) -> Iterator[Move]:
        """Check one template; if legal, yield each concrete move it stands for."""
        first = True
        for codes in self._spell(vectors, sums_below):
            move = Move(template.card, template.action, codes + ids, template.value)
            if first:
                if not self._legal(move):
                    return
                first = False
            if move not in self.seen:
                self.seen.add(move)
                yield move

    def _must_touch(self, c: Card) -> frozenset[str]:
        found = self.must.get(c)
        if found is None:
            found = frozenset(b.id for b in builds_to_touch(self.state, self.seat, c))
            self.must[c] = found
        return found

    def _value_of(self, ident: str) -> int:
        return next(b.value for b in self.builds if b.id == ident)

    # -- the order of generation -------------------------------------------

    def moves(self) -> Iterator[Move]:
        state = self.state
        if state.status != IN_PROGRESS:
            return
        if state.turn != self.seat:
            if self.seat == state.last_player:
                yield from self._plucks()  # just after one's own play
            return
        hand = tuple(dict.fromkeys(state.hands[self.seat]))
        for c in hand:
            yield from self._emit(Move.trail(c), [], ())
        for c in hand:
            yield from self._captures(c, maximal=True)
        for c in hand:
            yield from self._steals(c)
        if self.opts.builds:
            for c in hand:
                yield from self._builds(c, extras=False)
            for c in hand:
                yield from self._builds(c, extras=True)
        if self.opts.augment_from_piles:
            for c in hand:
                yield from self._pile_augments(c)
        yield from self._plucks()
        if self.opts.partial_capture:
            for c in hand:
                yield from self._captures(c, maximal=False)

    def _checked(self, move: Move) -> Iterator[Move]:
        if move not in self.seen and self._legal(move):
            self.seen.add(move)
            yield move

    def _plucks(self) -> Iterator[Move]:
        if self.opts.pluck:
            for it in self.state.table:
                if isinstance(it, Card):
                    yield from self._checked(Move(it, Action.PLUCK))

    def _steals(self, c: Card) -> Iterator[Move]:
        """``steal_bundles``: the opponents' piles topped by a card of ``c``'s rank."""
        if self.opts.steal_bundles:
            for victim, pile in enumerate(self.state.captured):
                if pile and pile[-1].rank == c.rank:
                    yield from self._checked(Move(c, Action.STEAL, (pile_target(victim),)))

    def _pile_augments(self, c: Card) -> Iterator[Move]:
        """``augment_from_piles`` (African): ``c`` added to a build of the
        mover's side with the top cards of opponents' piles and any loose
        cards. Only sets whose values can add up to a whole number of builds
        are checked; a pile is reached no deeper than its first card worth
        more than the build."""
        state, opts = self.state, self.opts
        side = state.team_of(self.seat)
        piles = [(v, p) for v, p in enumerate(state.captured) if p and state.team_of(v) != side]
        if self.loose_sums is None:  # the same for every card of the hand
            loose = [it for it in state.table if isinstance(it, Card)]
            self.loose_sums = [(cards, _sums(cards, opts)) for n in range(len(loose) + 1)
                               for cards in combinations(loose, n)]
        subsets = self.loose_sums
        for target in sorted({b.value for b in self.builds if state.team_of(b.owner) == side}):
            own = [b.id for b in self.builds if b.value == target and state.team_of(b.owner) == side]
            reach = [_reachable(p, target, opts) for _, p in piles]
            for depths in product(*[range(r + 1) for r in reach]):
                taken = [card for (_, p), k in zip(piles, depths) for card in reversed(p[len(p) - k:])]
                if not taken:
                    continue
                refs = tuple(pile_target(v) for (v, _), k in zip(piles, depths) for _ in range(k))
                base = _sums([c, *taken], opts)
                for cards, extra in subsets:
                    if not any((a + b) % target == 0 for a in base for b in extra):
                        continue
                    for k in range(1, len(own) + 1):
                        for ids in combinations(own, k):
                            yield from self._checked(
                                Move(c, Action.BUILD, (*(x.code for x in cards), *ids, *refs), target))

    # -- captures -----------------------------------------------------------

    def _captures(self, c: Card, maximal: bool) -> Iterator[Move]:
        choices = values_of(c, self.opts)
        if not choices:
            if maximal:
                yield from self._court_captures(c)
            return
        for v in choices:
            yield from self._captures_as(c, v, maximal)

    def _captures_as(self, c: Card, v: int, maximal: bool) -> Iterator[Move]:
        must = self._must_touch(c)
        if any(self._value_of(ident) != v for ident in must):
            return  # a build the move must take is not taken by this value
        builds = [b for b in self.builds if b.value == v]
        for vec, is_max in self._unions(self._counts(v, sums=True), v):
            if maximal:
                if not is_max:
                    continue
                if vec or builds:
                    yield from self._emit(Move(c, Action.CAPTURE), [vec], tuple(b.id for b in builds), v)
                continue
            for k in range(len(builds) + 1):
                for chosen in combinations(builds, k):
                    if is_max and k == len(builds):
                        continue  # listed with the maximal captures
                    if not must <= {b.id for b in chosen}:
                        continue
                    if vec or chosen:
                        yield from self._emit(Move(c, Action.CAPTURE), [vec], tuple(b.id for b in chosen), v)

    def _court_captures(self, c: Card) -> Iterator[Move]:
        if takes_the_table(c, self.opts):
            if self.state.table:
                yield from self._checked(Move(c, Action.CAPTURE, tuple(it.id for it in self.state.table)))
            return
        same: list[TableItem] = [it for it in self.state.table if isinstance(it, Card) and it.rank == c.rank]
        if self.opts.court_builds:
            same += [b for b in self.builds if b.value == c.rank]
        must = self._must_touch(c)
        for k in range(len(same), 0, -1):
            for chosen in combinations(same, k):
                ids = tuple(x.id for x in chosen)
                if must <= set(ids):
                    yield from self._checked(Move(c, Action.CAPTURE, ids))

    def _unions(self, counts: Counts, v: int) -> Iterator[tuple[Counts, bool]]:
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
            self._spend()
            yield counts - rest, not groups
            for g in groups:
                smaller = rest - g
                if smaller not in visited:
                    yield from walk(smaller, fitting(groups, smaller))

        yield from walk(counts, _sub_multisets(counts, v, v))

    # -- builds -------------------------------------------------------------

    def _court_builds(self, c: Card) -> Iterator[Move]:
        """Trailing-royals: a court laid on any of the courts and court builds of its rank."""
        same = [it for it in self.state.table if (isinstance(it, Card) and it.rank == c.rank)
                or (isinstance(it, Build) and it.value == c.rank)]
        must = self._must_touch(c)
        for k in range(1, len(same) + 1):
            for chosen in combinations(same, k):
                ids = tuple(x.id for x in chosen)
                if must <= set(ids):
                    yield from self._checked(Move(c, Action.BUILD, ids, c.rank))

    def _builds(self, c: Card, extras: bool) -> Iterator[Move]:
        opts = self.opts
        if opts.court_builds and c.is_court:
            if not extras:
                yield from self._court_builds(c)
            return
        hand_after = list(self.state.hands[self.seat])
        hand_after.remove(c)
        held = sorted({x for h in hand_after for x in values_of(h, opts)})
        must = self._must_touch(c)
        for cv, target in product(values_of(c, opts), held):
            if target < cv or target > opts.highest_value:
                continue
            # The builds the move must touch: those of the target's value are
            # added whole; at most one other can be touched, by raising it.
            added = tuple(ident for ident in must if self._value_of(ident) == target)
            raised = must.difference(added)
            if len(raised) > 1 or (added and not extras):
                continue
            for vec, ids in self._card_groups(c, cv, target):
                if not raised <= set(ids):
                    continue
                whole = tuple(b.id for b in self.builds
                              if b.value == target and b.id not in ids and b.id not in added)
                if not extras:
                    if vec or ids:
                        yield from self._emit(Move(c, Action.BUILD, (), target), [vec], ids)
                    continue
                rest = self._counts(target) - vec
                for more, _ in self._unions(rest, target):
                    for k in range(len(whole) + 1):
                        for chosen in combinations(whole, k):
                            if not more and not chosen and not added:
                                continue  # no extra groups: listed in the first pass
                            yield from self._emit(Move(c, Action.BUILD, (), target), [vec, more],
                                                  ids + added + chosen)

    def _card_groups(self, c: Card, cv: int, target: int) -> Iterator[tuple[Counts, tuple[str, ...]]]:
        """The ways the played card's own group can make ``target``: alone,
        with loose cards, or raising a single build (with loose cards too
        where the options allow)."""
        counts = self._counts(target)
        if cv == target:
            yield 0, ()
        elif cv < target:
            for sub in _sub_multisets(counts, target - cv, target):
                yield sub, ()
        for b in self.builds:
            if b.multiple or b.value == target:
                continue
            need = target - b.value - cv
            if need == 0:
                yield 0, (b.id,)
            elif need > 0 and self.opts.raise_with_table_cards:
                for sub in _sub_multisets(counts, need, target):
                    yield sub, (b.id,)

"""Generating a seat's legal moves: what the kinds of move share while they
generate.

A crowded table can allow exponentially many captures, so generation never
tries subsets of cards. It works on *templates*: a card, an action, a value,
how many loose cards of each value, and which builds. Whether a move is
legal depends only on its template (two 5s are interchangeable for the
rules), so each template is judged once (by the generator that made it,
where that generator establishes every rule of its kind, else by the
kind's check: :meth:`Lister.emit`) and then spelled out into concrete
moves. A :class:`Lister` holds what the kinds share while
they generate: the loose cards by value, the budget of work, the moves
already given, and memos of one position. :mod:`.rules` walks the kinds
over it, pass by pass.

The same generators answer whether one move is legal (:class:`Target`): a
*targeted* generation walks the same passes for the move's card and action
only, and at each choice the generators make (a value, a union of groups,
a set of loose cards) it follows only the branch that can still produce
the move, reading of the table only what that branch needs; the template
that makes the move has the rules make its play (:meth:`Judge.made`), with
nothing the generation found checked again. No budget binds it.

This module knows neither the kinds nor the rules that hold them: the
kinds (:mod:`.kind`) are given a :class:`Lister`, and a lister asks the
rules only what :class:`Judge` names, so the modules of a turn import in
one direction (values and plays, then this, then the kinds, then the rules).
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from itertools import combinations, product
from typing import Any, Generic, Protocol, TypeVar, cast

from ...cards import Card
from ...groups import ONES, Counts, _sub_multisets, fitting, one, pips, splits_into, value_counts
from ...paging import Budget
from ..moves import Action, Move
from ..state import GameState
from ..table import Build, TableItem
from .duty import OwnerDuty
from .turn import Play

T = TypeVar("T")
Template = tuple[Card, Action, "int | None"]  # a move's card, action and value
#: What a move's targets name: its loose cards, its builds, and the targets naming nothing on the table.
Named = tuple[tuple[Card, ...], tuple[Build, ...], tuple[str, ...]] | None


_NONE: frozenset[str] = frozenset()


class once(Generic[T]):  # noqa: N801 -- read as a decorator, like property
    """A property worked out when first read and kept on the instance, as
    :func:`functools.cached_property` does, without the lock it takes on
    Python 3.11: a targeted generation reads each of a few such values once,
    where the lock costs about what the work does."""

    def __init__(self, make: Callable[[Any], T]):
        self.make, self.name = make, make.__name__

    def __get__(self, instance: Any, owner: type | None = None) -> T:
        value = instance.__dict__[self.name] = self.make(instance)
        return value


@dataclass(frozen=True, slots=True)
class Narrow:
    """What a listing is narrowed to: the moves of one hand card, of one
    action, naming (at least) some table items; None or empty for any."""

    card: Card | None = None
    action: Action | None = None
    targets: frozenset[str] = frozenset()

    def card_of(self, cards: Sequence[Card]) -> Sequence[Card]:
        """Those of ``cards`` whose moves are listed."""
        return cards if self.card is None else [c for c in cards if c is self.card]

    def admits(self, move: Move) -> bool:
        """Whether ``move`` is one the listing is narrowed to."""
        return (self.card in (None, move.card) and self.action in (None, move.action)) and self.names(move)

    def names(self, move: Move) -> bool:
        """Whether ``move`` names every target the listing is narrowed to."""
        return not self.targets or self.targets.issubset(move.targets)


ANY = Narrow()


class Target:
    """What a targeted generation looks for: one move, as the generators
    make it (no groups, a capture without its value), with the table items
    it names (``items``, each once, as the rules have looked them up), and,
    once the generation has made it, its play.
    ``play`` is given up front where the check has accepted the move
    already (a move whose words only say how it is made: the check reads
    those, and the generation is asked whether it makes the plain move).
    ``making`` false asks only whether the move is made: a template whose
    kind's generation has proven every rule is then reached without its
    play, where the owner's duty binds no build."""

    __slots__ = ("move", "items", "play", "checked", "refused", "named", "making")

    def __init__(self, move: Move, items: tuple[TableItem, ...], play: Play | None = None, making: bool = True):
        self.move, self.items, self.play = move, items, play
        self.checked = play is not None  # the check has accepted the move: the duty need not prune for it
        self.refused = False  # the generation reached the move, and the rules refused to make it
        self.named = _named(move.targets, items)
        self.making = making


def _named(targets: tuple[str, ...], items: tuple[TableItem, ...]) -> Named:
    """What targets name: the loose cards and the builds among ``items``
    (the targets on the table, each once), and the targets naming nothing
    on the table (a seat's pile); None if they name one of those twice."""
    builds = [it for it in items if type(it) is Build]
    cards = tuple([it for it in items if type(it) is Card]) if builds else cast(tuple[Card, ...], items)
    if len(items) == len(targets):
        return cards, tuple(builds), ()
    found = {it.id for it in items}
    rest = tuple([t for t in targets if t not in found])
    return (cards, tuple(builds), rest) if len(set(rest)) == len(rest) else None


class Judge(Protocol):
    """What a generation asks of the rules it runs for: what each card may
    count in sums, the owner's duty, and the check each move it makes is put to."""

    @property
    def worth(self) -> dict[Card, tuple[int, ...]]: ...

    @property
    def duty(self) -> OwnerDuty: ...

    def accepts(self, state: GameState, seat: int, move: Move) -> bool: ...

    def made(self, state: GameState, seat: int, target: Target) -> Play | None: ...


class Lister:
    """One run of generation, with each loose card given one of its values
    (its first, unless ``chosen`` says another); with a :class:`Target`, a
    targeted one. What a run reads of the position is read when first
    needed, so a targeted generation reads only what its move's kind asks."""

    def __init__(self, rules: Judge, state: GameState, seat: int, budget: Budget, seen: set[Move],
                 chosen: Mapping[Card, int], target: Target | None = None, narrow: Narrow = ANY):
        self.rules, self.state, self.seat, self.budget, self.seen = rules, state, seat, budget, seen
        self.chosen, self.target, self.narrow = chosen, target, narrow
        self._memo: dict[object, Any] = {}
        self._must: dict[Card, frozenset[str]] = {}

    @once
    def builds(self) -> tuple[Build, ...]:
        """The builds on the table."""
        return tuple([it for it in self.state.table if type(it) is Build])

    @once
    def hand(self) -> tuple[Card, ...]:
        """The seat's hand, each card once."""
        return tuple(dict.fromkeys(self.state.hands[self.seat]))

    @once
    def values(self) -> dict[Card, int]:
        """The loose cards with numbers, with their values in this run (read
        when first needed: a targeted generation reads only the cards its
        move names, unless it asks what else the table holds)."""
        worth = self.rules.worth
        values = {it: w[0] for it in self.state.table if type(it) is Card and (w := worth[it])}
        if self.chosen:
            values.update(self.chosen)
        return values

    @once
    def several(self) -> bool:
        """Whether a loose card on the table may count one of several values."""
        worth = self.rules.worth
        return any(len(worth[it]) > 1 for it in self.state.table if type(it) is Card)

    @once
    def loose(self) -> Counts:
        """The loose cards with numbers, by value."""
        return sum(map(ONES.__getitem__, self.values.values()))

    # -- what the kinds share ---------------------------------------------

    @once
    def by_value(self) -> dict[int, list[Card]]:
        """The loose cards with numbers, by their values in this run."""
        out: dict[int, list[Card]] = {}
        for c, x in self.values.items():
            out.setdefault(x, []).append(c)
        return out

    def memo(self, key: object, make: Callable[..., T], *args: Any) -> T:
        """``make(*args)``, once per position and key."""
        if key not in self._memo:
            self._memo[key] = make(*args)
        found: T = self._memo[key]
        return found

    def must_touch(self, card: Card) -> frozenset[str]:
        """The ids of the builds a move with ``card`` must take or add to (the
        owner's duty). None to prune by in a targeted generation whose move
        the check has accepted: the check applies the whole duty, so the move
        touches them already, and the branches pruned for them cannot make it.
        None either while the seat owns no build: the duty binds an owner."""
        if (self.target is not None and self.target.checked) or not self.owner:
            return _NONE
        found = self._must.get(card)
        if found is None:
            found = self._must[card] = frozenset(b.id for b in self.rules.duty.to_touch(self.state, self.seat, card))
        return found

    def legal(self, move: Move) -> bool:
        self.budget.spend()
        return self.rules.accepts(self.state, self.seat, move)

    def checked(self, move: Move, proven: bool = False) -> Iterable[Move]:
        """``move``, if legal and not given before; in a targeted generation,
        if it is the move looked for and the rules make it. ``proven`` says
        whether the kind's generation has established every rule of the
        kind for it, as :meth:`emit`'s does."""
        if self.target is not None:
            return (move,) if move == self.target.move and self._reached(proven) else ()
        if self.narrow.names(move) and move not in self.seen and self._sound(move, proven):
            self.seen.add(move)
            return (move,)
        return ()

    def _reached(self, proven: bool = False) -> bool:
        """The targeted move, reached: the rules make its play of what the
        generation has found (:meth:`Judge.made`), or it is refused (the
        owner's duty, say). Once either way: the play does not hang on the
        branch that reached it. A target that asks for no play, reached by a
        template whose kind's generation has ``proven`` every rule, is made
        where the duty binds no build, as listing takes it (:meth:`_sound`)."""
        target = self.target
        assert target is not None
        if proven and not target.making and not self.owner:
            return True
        if target.play is None and not target.refused:
            target.play = self.rules.made(self.state, self.seat, target)
            target.refused = target.play is None
        return target.play is not None

    def aims(self, ids: Sequence[str]) -> bool:
        """Whether a move naming ``ids`` can be the targeted move (any can, when listing)."""
        return self.target is None or sorted(ids) == sorted(self.target.move.targets)

    def within(self, vec: Counts, ids: Sequence[str]) -> bool:
        """Whether a branch whose moves take the loose cards ``vec`` and name
        ``ids``, and perhaps more, can make the targeted move (any can, when
        listing): it names those ids and at least those loose cards."""
        if self.target is None:
            return True
        named = self.named_cards
        return named is not None and bool(fitting((vec,), named)) and set(ids).issubset(self.target.move.targets)

    def drawn(self, v: int) -> Counts | None:
        """The loose cards a branch draws its groups of ``v`` from: those of
        values up to ``v``, or in a targeted generation the cards the move
        names (its groups lie in them: :meth:`within`); None when it names a
        card without a number."""
        return self.counts(v) if self.target is None else self.named_cards

    def among(self, builds: Sequence[Build]) -> Sequence[Build]:
        """Those of ``builds`` a branch may name: all, or in a targeted
        generation those the move names."""
        if self.target is None:
            return builds
        named = self.target.move.targets
        return [b for b in builds if b.id in named]

    def wants(self, value: int | None) -> bool:
        """Whether a branch making moves of ``value`` can make the targeted move (any can, when listing)."""
        return self.target is None or self.target.move.value == value

    def pool(self, x: int, summable: dict[int, list[Build]] | None = None) -> Sequence[TableItem]:
        """The items that count as ``x`` in a sum: loose cards, and the builds
        ``summable`` lets a capture take as numbers."""
        cards = self.by_value.get(x, [])
        if not summable or x not in summable:
            return cards
        return [*cards, *summable[x]]

    def spell(self, vectors: list[Counts], summable: dict[int, list[Build]] | None = None,
              held: frozenset[str] = frozenset()) -> Iterator[tuple[str, ...]]:
        """Concrete ids for count vectors (added together); only those
        naming every item of ``held`` that the pools hold."""
        choices: list[Iterable[tuple[TableItem, ...]]] = []
        for x, k in value_counts(sum(vectors)):
            pool = self.pool(x, summable)
            kept = [it for it in pool if it.id in held] if held else []
            if len(kept) > k:
                return
            free = [it for it in pool if it.id not in held] if kept else pool
            choices.append([(*kept, *more) for more in combinations(free, k - len(kept))] if kept
                           else combinations(pool, k))
        for picked in product(*choices):
            yield tuple(it.id for group in picked for it in group)

    def _pooled(self, wanted: Collection[str], vectors: list[Counts], summable: dict[int, list[Build]] | None
                ) -> bool:
        """Whether every id ``wanted`` is in a pool the count vectors take from."""
        found = {it.id for x, _ in value_counts(sum(vectors)) for it in self.pool(x, summable)}
        return found.issuperset(wanted)

    def emit(self, template: Template, vectors: list[Counts], ids: tuple[str, ...],
             summable: dict[int, list[Build]] | None = None, proven: bool = True) -> Iterable[Move]:
        """The moves of one template the generator has made (its card,
        action and value, the counts of loose cards it takes and the ids it
        names besides), if it is legal: each concrete move it stands for. In
        a targeted generation, the targeted move, if it is one of them and
        the rules make its play. A template's spellings are interchangeable
        for the rules (two 5s are), so listing asks about the first only
        (:meth:`_sound`); ``proven`` says whether the kind's generation
        has established every rule of the kind for it."""
        if self.target is None:
            return self._spelled(template, vectors, ids, summable, proven)
        return ((self.target.move,) if self._spells(template, sum(vectors), ids, summable) and self._reached(proven)
                else ())

    def _spelled(self, template: Template, vectors: list[Counts], ids: tuple[str, ...],
                 summable: dict[int, list[Build]] | None, proven: bool) -> Iterator[Move]:
        """The moves of a template, if its first spelling is legal, each once."""
        card, action, value = template
        wanted = self.narrow.targets.difference(ids)
        if wanted and not self._pooled(wanted, vectors, summable):
            return
        first = True
        for codes in self.spell(vectors, summable, wanted):
            move = Move(card, action, codes + ids, value)
            if first:
                if not self._sound(move, proven):
                    return
                first = False
            if move not in self.seen:
                self.seen.add(move)
                yield move

    def _sound(self, move: Move, proven: bool) -> bool:
        """Whether a move the generator has made (a template's first
        spelling, or a move made whole) is legal. Where the kind's generation
        has established every rule of its kind (``proven``) and the owner's
        duty binds no build of the seat, it is, as a targeted generation
        would find: the generator makes the move. Else the check says. One
        unit of work either way."""
        if proven and not self.owner:
            self.budget.spend()
            return True
        return self.legal(move)

    @once
    def owner(self) -> bool:
        """Whether the seat owns a build, which the owner's duty binds."""
        return self.seat in [b.owner for b in self.builds]

    def _spells(self, template: Template, counts: Counts, ids: tuple[str, ...],
                summable: dict[int, list[Build]] | None) -> bool:
        """Whether the targeted move is among the moves :meth:`spell` makes of
        ``template`` with the ``counts`` and the ``ids``: it names each of
        ``ids`` once, and its other targets are distinct items of the pools
        that make up ``counts``."""
        assert self.target is not None
        move = self.target.move
        return (template == (move.card, move.action, move.value) and self.wanted(ids, summable) == counts
                and (not ids or set(ids).issubset(move.targets)))

    def wanted(self, besides: Collection[str], summable: dict[int, list[Build]] | None = None) -> Counts | None:
        """The counts a spelling of the targeted move's targets other than
        ``besides`` would be made from (its loose cards by their values in
        this run, and the builds ``summable`` lets it take as numbers); None
        when no spelling can name them (something else, or one item twice),
        or when the generation is not targeted."""
        named = self.target.named if self.target is not None else None
        if named is None or (named[2] and any(t not in besides for t in named[2])):
            return None
        counts = self.named_cards
        for b in named[1]:
            if counts is None or b.id in besides:
                continue
            counts = counts + one(b.value) if summable and any(s is b for s in summable.get(b.value, ())) else None
        return counts

    def adds_up(self, x: int, v: int) -> bool:
        """Whether a build of ``v`` whose card counts ``x`` can be the
        targeted move as far as its total goes (any can, when listing): the
        card and what the move names (its loose cards by their values in
        this run, its builds by theirs) add up to a multiple of ``v``, as
        each group of a build makes ``v``. A search for the card's group
        follows only where this holds."""
        if self.target is None:
            return True
        named, cards = self.target.named, self.named_cards
        if named is None or cards is None:
            return False
        return (x + pips(cards) + sum([b.value for b in named[1]])) % v == 0

    @once
    def named_cards(self) -> Counts | None:
        """The loose cards the targeted move names, by their values in this
        run; None if one has no number (or it names an item twice), or
        when the generation is not targeted."""
        named = self.target.named if self.target is not None else None
        if named is None:
            return None
        worth, chosen = self.rules.worth, self.chosen
        counts = 0
        for c in named[0]:
            x = chosen.get(c) if chosen else None
            if x is None:
                w = worth[c]
                if not w:
                    return None  # a card without a number
                x = w[0]
            counts += ONES[x]
        return counts

    def counts(self, v: int) -> Counts:
        """The loose cards of values up to ``v``."""
        return self.loose & one(v + 1) - 1

    def value_of(self, ident: str) -> int:
        return next(b.value for b in self.builds if b.id == ident)

    def unions(self, counts: Counts, v: int, only: Counts | None = None, maximal: bool = True
               ) -> Iterable[tuple[Counts, bool]]:
        """Every distinct sub-multiset of ``counts`` that splits into groups of
        ``v`` (the empty one included), with whether nothing more could be
        added. Depth-first, one group at a time; a union is known by what it
        leaves behind, so each is visited once whatever order its groups were
        found in. The groups that fit in what is left are among those that
        fitted before, so each step sifts its parent's few groups rather
        than searching afresh.

        In a targeted generation, only the union ``only`` (what the targeted
        move would take: see :meth:`wanted`), if it is one: a sub-multiset
        of ``counts`` that splits into groups of ``v``, the walk's nodes
        exactly, with nothing more to add when no group of ``v`` fits in what
        it leaves at any values of its cards (:meth:`_leaves_group`, a search
        made only if ``maximal`` asks: else False, and ``counts`` is not
        read, as ``only`` names cards that are there)."""
        if self.target is None:
            return self._walk(counts, v)
        if only is None or not splits_into(only, v):
            return ()
        if not maximal:
            return ((only, False),)
        if fitting((only,), counts):
            return ((only, not self._leaves_group(counts - only, v)),)
        return ()

    def _leaves_group(self, rest: Counts, v: int) -> bool:
        """Whether ``rest``, what the targeted move leaves of ``counts`` (the
        loose cards up to ``v`` by their values in this run), holds a group
        of ``v`` with the cards left that have several values (a Royal ace)
        counting any of them, as the check's maximality asks: a run gives
        such a card one value, and the ace the run counts 14 is a 1 to a
        group of 13 it leaves behind."""
        if _sub_multisets(rest, v, v):
            return True
        assert self.target is not None
        worth, named = self.rules.worth, self.target.move.targets
        left = [c for c in self.state.table if type(c) is Card and len(worth[c]) > 1 and c.id not in named]
        if not left:
            return False
        base = rest - sum(ONES[x] for c in left if (x := self.values[c]) <= v)
        return any(_sub_multisets(base + sum(ONES[x] for x in xs if x <= v), v, v)
                   for xs in product(*(worth[c] for c in left)))

    def _walk(self, counts: Counts, v: int) -> Iterator[tuple[Counts, bool]]:
        """The unions of :meth:`unions`, walked."""
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

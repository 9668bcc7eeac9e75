"""Augmenting with captured cards (``augment_from_piles``, 003 African): a
build move that adds to a build of one's own side may also use the top card
of an opponent's capture pile, and the cards beneath it in turn.

A move names a pile's top card as ``seat:N``; naming the same pile k times
uses its top k cards, top first. Every card so taken must join the build.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from itertools import combinations, product

from ...cards import Card
from ...errors import RuleViolation
from ..moves import Action, Move, pile_counts, pile_seat, pile_target
from ..options import Options
from ..state import GameState
from ..table import Build, TableItem
from .kind import Absent, MoveKind, Phase
from .listing import Lister, choices
from .turn import Play
from .values import assignments, values_of

Piles = list[tuple[int, tuple[Card, ...]]]  # the opponents' piles a build may use, by seat
LooseSums = list[tuple[tuple[Card, ...], set[int]]]  # sets of loose cards, with the totals each can make


def _names_piles(move: Move) -> bool:
    """Whether ``move`` names a seat's capture pile: its last target does, if
    any (a move's targets are in canonical order, the piles last)."""
    return bool(move.targets) and pile_seat(move.targets[-1]) is not None


class NoPiles(Absent):
    """A game without ``augment_from_piles``: a build naming a capture pile is refused."""

    names_piles = True

    def __init__(self) -> None:
        super().__init__(Action.BUILD, "target_not_on_table", "Capture piles are not played from in this game.")

    def answers(self, move: Move) -> bool:
        return _names_piles(move)


class PileAugment(MoveKind):
    """A build move adding to a build of the mover's side with the top cards
    of opponents' piles; otherwise a build as ``builds`` (the game's build
    kinds) has it."""

    action = Action.BUILD
    phases = (Phase.PILES,)
    names_piles = True

    def __init__(self, options: Options, builds: Sequence[MoveKind]):
        self.builds, self.options = tuple(builds), options

    def answers(self, move: Move) -> bool:
        return _names_piles(move)

    # -- the check ----------------------------------------------------------

    def play(self, state: GameState, seat: int, move: Move, items: tuple[TableItem, ...]) -> Play:
        taken = _pile_cards(state, seat, move)
        if move.value is not None:
            _check_augment(state, seat, move.value, items)
        kind = next(k for k in self.builds if k.takes(move.card))
        return kind.play(state, seat, move, items + taken)

    # -- the generator --------------------------------------------------------

    def moves(self, lister: Lister, card: Card, phase: Phase) -> Iterator[Move]:
        """``card`` added to a build of the mover's side with the top cards of
        opponents' piles and any loose cards. Only sets whose values can add
        up to a whole number of builds are checked; a pile is reached no
        deeper than its first card worth more than the build."""
        state = lister.state
        side = state.team_of(lister.seat)
        piles = [(v, p) for v, p in enumerate(state.captured) if p and state.team_of(v) != side]
        subsets = self._subsets(lister)
        for target in sorted({b.value for b in lister.builds if state.team_of(b.owner) == side}):
            if not lister.wants(target):
                continue
            own = [b.id for b in lister.builds if b.value == target and state.team_of(b.owner) == side]
            for refs, taken in self._taken(piles, target, _wanted_refs(lister)):
                base = self._sums([card, *taken])
                for cards, extra in subsets:
                    yield from self._onto(lister, card, target, (*(x.code for x in cards), *refs), own,
                                          base, extra)

    @staticmethod
    def _onto(lister: Lister, card: Card, target: int, named: tuple[str, ...], own: list[str], base: set[int],
              extra: set[int]) -> Iterator[Move]:
        """``card`` with the loose cards and pile cards ``named``, added to
        each choice of the side's builds of ``target``, when those cards
        (totals ``base`` and ``extra``) can add up to a whole number of builds."""
        if not any((a + b) % target == 0 for a in base for b in extra):
            return
        for ids in choices(own, 1):
            if lister.aims((*named, *ids)):
                yield from lister.checked(Move(card, Action.BUILD, (*named, *ids), target))

    def _subsets(self, lister: Lister) -> LooseSums:
        """Every set of loose cards, with the totals it can make (the same
        for every card of the hand); in a targeted generation, the set the
        targeted move names, which is one of them."""
        loose = [it for it in lister.state.table if isinstance(it, Card)]
        if lister.target is not None:
            named = set(lister.target.move.targets)
            chosen = tuple(c for c in loose if c.code in named)
            return [(chosen, self._sums(chosen))]
        return lister.memo("loose_sums", lambda: [(cards, self._sums(cards)) for n in range(len(loose) + 1)
                                                  for cards in combinations(loose, n)])

    def _taken(self, piles: Piles, target: int, only: tuple[str, ...] | None
               ) -> Iterator[tuple[tuple[str, ...], list[Card]]]:
        """Each choice of top cards from the piles (at least one), as the
        targets naming them and the cards, top first; with ``only``, the one
        naming those targets."""
        reach = [self._reachable(p, target) for _, p in piles]
        for depths in product(*[range(r + 1) for r in reach]):
            refs = tuple(pile_target(v) for (v, _), k in zip(piles, depths) for _ in range(k))
            if refs and (only is None or refs == only):
                yield refs, [card for (_, p), k in zip(piles, depths) for card in reversed(p[len(p) - k:])]

    def _sums(self, cards: Sequence[Card]) -> set[int]:
        """Every total the cards can make, each taking one of its values."""
        return {sum(a) for a in assignments(cards, self.options)}

    def _reachable(self, pile: tuple[Card, ...], target: int) -> int:
        """How deep into ``pile`` (from the top) captured cards can be of use
        to a build of ``target``: down to the first card worth more than it."""
        depth = 0
        for card in reversed(pile):
            if not any(0 < x <= target for x in values_of(card, self.options)):
                break
            depth += 1
        return depth


def _wanted_refs(lister: Lister) -> tuple[str, ...] | None:
    """In a targeted generation, the piles the targeted move names, a seat's as often as it takes from it."""
    if lister.target is None:
        return None
    return tuple(t for t in lister.target.move.targets if pile_seat(t) is not None)


def _pile_cards(state: GameState, seat: int, move: Move) -> tuple[Card, ...]:
    """The captured cards a build move uses, top first per pile; refused
    unless each pile is an opponent's and deep enough."""
    if move.groups is not None:
        raise RuleViolation("illegal_build", "A build that uses captured cards is named without groups.")
    out: list[Card] = []
    for victim, k in sorted(pile_counts(move.targets).items()):
        if not 0 <= victim < state.players or state.team_of(victim) == state.team_of(seat):
            raise RuleViolation("illegal_build", f"seat:{victim} is not an opponent's capture pile.")
        pile = state.captured[victim]
        if len(pile) < k:
            raise RuleViolation("illegal_build", f"Seat {victim}'s pile holds {len(pile)} cards, not {k}.")
        out.extend(reversed(pile[len(pile) - k:]))
    return tuple(out)


def _check_augment(state: GameState, seat: int, target: int, items: tuple[TableItem, ...]) -> None:
    """Captured cards only add to a build of the mover's side of that value."""
    builds = [it for it in items if isinstance(it, Build)]
    side = state.team_of(seat)
    if not builds or any(b.value != target or state.team_of(b.owner) != side for b in builds):
        raise RuleViolation("illegal_build", "A captured card may only be added to a build of your own side, "
                            "of the same value.")

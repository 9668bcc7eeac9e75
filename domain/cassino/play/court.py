"""Cards without a number value, which pair by rank: courts (unless the
game gives them Royal values), and every card where ``capture_by: rank``.

The pieces a game plugs in: how many of its rank a court takes
(``court_capture``), whether courts are built in multiples of their rank
(``court_builds``, Trailing-royals), and whether a jack takes the whole
table (``jack_takes_all``, Tablanette)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from itertools import combinations

from ...cards import Card, full_deck
from ...errors import RuleViolation
from ..moves import Action, Move
from ..options import Options
from ..state import GameState
from ..table import Build, TableItem
from .capture import check_capture_shape, taking
from .kind import MoveKind, Phase
from .listing import Lister
from .turn import Play
from .values import holds_value, values_of

#: How many of its rank a court may take (``court_capture``): the rule broken, or None.
CountRule = Callable[[str, int, int], "RuleViolation | None"]


def _one(word: str, taken: int, on_table: int) -> RuleViolation | None:
    if taken == 1:
        return None
    return RuleViolation("court_capture", f"A {word} takes one {word} at a time.")


def _one_or_three(word: str, taken: int, on_table: int) -> RuleViolation | None:
    if taken == 1 or (taken == 3 and on_table == 3):
        return None
    return RuleViolation("court_capture", f"A {word} takes one {word}, or all three when three lie on the table.")


COURT_COUNTS: dict[str, CountRule] = {"one": _one, "one_or_three": _one_or_three}


def rank_word(card: Card) -> str:
    return card.name.split()[0]


class CourtCapture(MoveKind):
    """A card without a number value takes cards of its rank (and with
    ``court_builds`` the builds of its rank), as many as ``court_capture`` lets it."""

    action = Action.CAPTURE
    phases = (Phase.CAPTURE,)

    def __init__(self, options: Options):
        self.count = COURT_COUNTS.get(options.court_capture)
        self.with_builds = options.court_builds
        self.numbered = frozenset(c for c in full_deck() if values_of(c, options))

    def takes(self, card: Card) -> bool:
        return card not in self.numbered

    def _of_rank(self, item: TableItem, rank: int) -> bool:
        if isinstance(item, Card):
            return item.rank == rank
        return self.with_builds and item.value == rank

    def shape(self, state: GameState, seat: int, move: Move, items: tuple[TableItem, ...]) -> None:
        check_capture_shape(state, move, items)
        if any(not self._of_rank(it, move.card.rank) for it in items):
            word = rank_word(move.card)
            raise RuleViolation("illegal_capture", f"A {word} takes only {word}s.")

    def play(self, state: GameState, seat: int, move: Move, items: tuple[TableItem, ...]) -> Play:
        self.shape(state, seat, move, items)
        card, word = move.card, rank_word(move.card)
        on_table = sum(1 for it in state.table if isinstance(it, Card) and it.rank == card.rank)
        refusal = self.count(word, len(items), on_table) if self.count else None
        if refusal is not None:
            raise refusal
        return taking(state, seat, move, items)

    def moves(self, lister: Lister, card: Card, phase: Phase) -> Iterator[Move]:
        same: list[TableItem] = [it for it in lister.state.table if isinstance(it, Card) and it.rank == card.rank]
        if self.with_builds:
            same += [b for b in lister.builds if b.value == card.rank]
        must = lister.must_touch(card)
        for k in range(len(same), 0, -1):
            for ids in _ids_of_choices(same, k):
                if must <= set(ids) and lister.aims(ids):
                    yield from lister.checked(Move(card, Action.CAPTURE, ids))


def _ids_of_choices(items: list[TableItem], k: int) -> Iterator[tuple[str, ...]]:
    for chosen in combinations(items, k):
        yield tuple(x.id for x in chosen)


class TableCapture(MoveKind):
    """``jack_takes_all`` (Tablanette): a jack takes every item on the table,
    by right (so not as a sweep)."""

    action = Action.CAPTURE
    phases = (Phase.CAPTURE,)

    def takes(self, card: Card) -> bool:
        return card.rank == 11

    def play(self, state: GameState, seat: int, move: Move, items: tuple[TableItem, ...]) -> Play:
        check_capture_shape(state, move, items)
        if len(items) != len(state.table):
            raise RuleViolation("illegal_capture", "A jack takes the whole table: name every card and build on it.")
        return Play(seat, move, items)

    def moves(self, lister: Lister, card: Card, phase: Phase) -> Iterator[Move]:
        table = lister.state.table
        if table:
            yield from lister.checked(Move(card, Action.CAPTURE, tuple(it.id for it in table)))


class CourtBuild(MoveKind):
    """``court_builds`` (Trailing-royals): a court laid on courts of its rank
    (loose, or already built) makes a multiple build of that rank, to be
    taken by a further court of the rank, which the builder must hold."""

    action = Action.BUILD
    phases = (Phase.BUILD,)

    def takes(self, card: Card) -> bool:
        return card.is_court

    @staticmethod
    def _of_rank(item: TableItem, rank: int) -> bool:
        return item.rank == rank if isinstance(item, Card) else item.value == rank

    def play(self, state: GameState, seat: int, move: Move, items: tuple[TableItem, ...]) -> Play:
        card, word = move.card, rank_word(move.card)
        check_build_value(move)
        if move.value != card.rank:
            raise RuleViolation("illegal_build", f"Courts are built only with their own rank: a {word} builds "
                                f"{card.rank}.")
        if not items or any(not self._of_rank(it, card.rank) for it in items):
            raise RuleViolation("illegal_build", f"A {word} is built only on {word}s.")
        hand_after = tuple(h for h in state.hands[seat] if h is not card)
        if not holds_value(hand_after, card.rank, state.options):
            raise RuleViolation("build_needs_card",
                                f"You can build {word}s only while keeping a {word} to take them.")
        groups = [g for it in items for g in (it.groups if isinstance(it, Build) else ((it,),))]
        keep = [it for it in items if isinstance(it, Build)]
        build_id = keep[0].id if keep else f"B{state.next_build}"
        return Play(seat, move, items, build=Build(build_id, card.rank, (*groups, (card,)), seat))

    def moves(self, lister: Lister, card: Card, phase: Phase) -> Iterator[Move]:
        same = [it for it in lister.state.table if self._of_rank(it, card.rank)]
        must = lister.must_touch(card)
        for k in range(1, len(same) + 1):
            for ids in _ids_of_choices(same, k):
                if must <= set(ids) and lister.aims(ids):
                    yield from lister.checked(Move(card, Action.BUILD, ids, card.rank))


def check_build_value(move: Move) -> None:
    """Every build says what value it makes."""
    if move.value is None:
        raise RuleViolation("illegal_build", "Say what value you are building.")

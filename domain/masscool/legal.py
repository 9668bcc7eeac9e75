"""Legal moves, as a lazy view like Cassino's::

    moves = legal_moves(state, seat)
    for move in moves: ...        # generated as needed
    move in moves                 # one move checked
    moves.count()                 # counted without listing them
    listed = moves.first(200)     # a bounded list, and whether it was cut
    mine = moves.narrowed("KS")   # the bets holding KS (``action`` and ``targets`` narrow too)
    more = mine.page(200, listed.next)   # the page after one

A player with n cards of money has 2**n - 1 possible bets, so the list is
cut (``truncated``) well before that can matter. The order puts first what
a player most likely wants: the stop when it is allowed, then the smallest
bets, cheapest cards first (by their worth in the final count). A narrowed
view makes only the bets that hold the cards it names (the ``card`` and the
``targets``), so paging through them skips no work on the others.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from functools import partial
from itertools import combinations
from math import comb

from ..cards import Card
from ..errors import NotationError, reading
from ..paging import Budget, MoveList, Resume, page
from .betting import is_legal
from .moves import ACTIONS, BET, STOP, Move
from .rules import count_value
from .state import MassCoolState

DEFAULT_LIMIT = 200


@dataclass(frozen=True, slots=True)
class Narrow:
    """What a listing is narrowed to: an action, and cards a bet must hold."""

    action: str | None = None
    cards: frozenset[Card] = frozenset()

    def admits(self, move: Move) -> bool:
        return self.action in (None, move.action) and self.cards.issubset(move.cards)


ANY = Narrow()


class LegalMoves:
    def __init__(self, state: MassCoolState, seat: int, narrow: Narrow = ANY) -> None:
        self.state = state
        self.seat = seat
        self.narrow = narrow

    def __contains__(self, move: object) -> bool:
        return isinstance(move, Move) and self.narrow.admits(move) and is_legal(self.state, self.seat, move)

    def __iter__(self) -> Iterator[Move]:
        narrow = self.narrow
        if narrow.action in (None, STOP) and not narrow.cards and self._stop_allowed():
            yield Move.stop()
        if narrow.action not in (None, BET) or not self._bet_allowed():
            return
        money = sorted(self.state.money[self.seat], key=lambda c: (count_value(c), c.index))
        held = [c for c in money if c in narrow.cards]
        if len(held) < len(narrow.cards):
            return
        free = [c for c in money if c not in narrow.cards]
        for size in self._sizes():
            for more in combinations(free, size - len(held)) if size >= len(held) else ():
                yield Move.bet(*held, *more)

    def __bool__(self) -> bool:
        return any(True for _ in self)

    def count(self) -> int:
        if self.narrow != ANY:
            return sum(1 for _ in self)
        bets = sum(comb(len(self.state.money[self.seat]), k) for k in self._sizes()) if self._bet_allowed() else 0
        return bets + self._stop_allowed()

    def narrowed(self, card: str | None = None, action: str | None = None,
                 targets: Iterable[str] = ()) -> LegalMoves:
        """The moves of ``action`` whose bet holds ``card`` and every card of
        ``targets`` (card codes); :class:`NotationError` for a code that is none."""
        named = action.strip().lower() if action is not None else None
        if named is not None and named not in ACTIONS:
            raise NotationError(f"Unknown action {action!r}; the actions are {', '.join(ACTIONS)}.", "action")
        cards = frozenset((*(() if card is None else (reading("card", lambda: Card.parse(card)),)),
                           *(reading("target", partial(Card.parse, t)) for t in targets)))
        return LegalMoves(self.state, self.seat, Narrow(named, cards))

    def first(self, limit: int = DEFAULT_LIMIT) -> MoveList[Move]:
        """At most ``limit`` moves, in the view's order."""
        return self.page(limit)

    def page(self, limit: int = DEFAULT_LIMIT, after: Resume | None = None) -> MoveList[Move]:
        """The page of at most ``limit`` moves after ``after`` (a page's ``next``)."""
        return page(self._generate, limit, after)

    def _generate(self, budget: Budget) -> Iterator[Move]:
        return iter(self)

    def _stop_allowed(self) -> bool:
        return is_legal(self.state, self.seat, Move.stop())

    def _bet_allowed(self) -> bool:
        """Whether any bet is: the smallest allowed size checked through the
        rules, every other bet of an allowed size then being legal too."""
        sizes = self._sizes()
        if not sizes:
            return False
        return is_legal(self.state, self.seat, Move.bet(*self.state.money[self.seat][:sizes[0]]))

    def _sizes(self) -> range:
        """How many cards a bet may hold (empty for a seat with no bet to make)."""
        s = self.state
        if not 0 <= self.seat < s.players or not s.money[self.seat]:
            return range(0)
        if s.stopped_by is None:
            return range(1, len(s.money[self.seat]) + 1)
        owed = s.owes(self.seat)
        return range(owed, owed + 1) if owed > 0 else range(0)


def legal_moves(state: MassCoolState, seat: int) -> LegalMoves:
    return LegalMoves(state, seat)

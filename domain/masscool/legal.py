"""Legal moves, as a lazy view like Cassino's::

    moves = legal_moves(state, seat)
    for move in moves: ...        # generated as needed
    move in moves                 # one move checked
    moves.count()                 # counted without listing them
    listed = moves.first(200)     # a bounded list, and whether it was cut

A player with n cards of money has 2**n - 1 possible bets, so the list is
cut (``truncated``) well before that can matter. The order puts first what
a player most likely wants: the stop when it is allowed, then the smallest
bets, cheapest cards first (by their worth in the final count).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from itertools import combinations
from math import comb

from .betting import is_legal
from .moves import Move
from .rules import count_value
from .state import MassCoolState

DEFAULT_LIMIT = 200


@dataclass(frozen=True, slots=True)
class MoveList:
    """A bounded list of legal moves; ``truncated`` when more exist than listed."""

    moves: tuple[Move, ...]
    truncated: bool


class LegalMoves:
    def __init__(self, state: MassCoolState, seat: int):
        self.state = state
        self.seat = seat

    def __contains__(self, move: object) -> bool:
        return isinstance(move, Move) and is_legal(self.state, self.seat, move)

    def __iter__(self) -> Iterator[Move]:
        if self._stop_allowed():
            yield Move.stop()
        if not self._bet_allowed():
            return
        money = sorted(self.state.money[self.seat], key=lambda c: (count_value(c), c.index))
        for size in self._sizes():
            for cards in combinations(money, size):
                yield Move.bet(*cards)

    def __bool__(self) -> bool:
        return self._stop_allowed() or self._bet_allowed()

    def count(self) -> int:
        bets = sum(comb(len(self.state.money[self.seat]), k) for k in self._sizes()) if self._bet_allowed() else 0
        return bets + self._stop_allowed()

    def first(self, limit: int = DEFAULT_LIMIT) -> MoveList:
        """At most ``limit`` moves, in the view's order."""
        out: list[Move] = []
        for move in self:
            if len(out) == limit:
                return MoveList(tuple(out), True)
            out.append(move)
        return MoveList(tuple(out), False)

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

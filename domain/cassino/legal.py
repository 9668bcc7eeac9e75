"""Legal moves, as a lazy view in the manner of python-chess::

    moves = legal_moves(state, seat)
    for move in moves: ...          # every legal move, generated as needed
    move in moves                   # one move checked, cheaply
    moves.count()                   # how many there are
    listed = moves.first(200)       # a bounded list, and whether it was cut

The moves come from the kinds of move the game's options plug in
(:mod:`.play.rules`), pass by pass: trails, the largest captures, steals,
every build, and then the smaller captures, what a player most likely wants
first. Checking one move is a generation targeted at it (the same
generators, narrowed to the move: :meth:`.play.rules.Rules.resolve`), so a
move is in the view exactly when it is accepted. :meth:`LegalMoves.first`
also stops after a fixed amount of work and says the list was cut, so that
no table makes the engine work for long; a move left out of a cut list is
still accepted when played, as no budget binds a targeted generation.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from .moves import Move
from .play import rules_for
from .play.listing import Budget, OutOfWork
from .state import GameState

DEFAULT_LIMIT = 200
DEFAULT_WORK = 4000  # templates examined before first() gives up and marks the list cut


@dataclass(frozen=True, slots=True)
class MoveList:
    """A bounded list of legal moves; ``truncated`` when more exist than listed."""

    moves: tuple[Move, ...]
    truncated: bool


class LegalMoves:
    """The legal moves of ``seat`` in ``state``: a lazy, re-iterable view."""

    def __init__(self, state: GameState, seat: int):
        self.state = state
        self.seat = seat

    def __contains__(self, move: object) -> bool:
        return isinstance(move, Move) and is_legal(self.state, self.seat, move)

    def __iter__(self) -> Iterator[Move]:
        return _generate(self.state, self.seat, Budget(None))

    def __bool__(self) -> bool:
        return any(True for _ in self)

    def count(self) -> int:
        return sum(1 for _ in self)

    def first(self, limit: int = DEFAULT_LIMIT, work: int = DEFAULT_WORK) -> MoveList:
        """At most ``limit`` moves in the view's order, within ``work`` templates."""
        out: list[Move] = []
        try:
            for move in _generate(self.state, self.seat, Budget(work)):
                if len(out) == limit:
                    return MoveList(tuple(out), True)
                out.append(move)
        except OutOfWork:
            return MoveList(tuple(out), True)
        return MoveList(tuple(out), False)


def legal_moves(state: GameState, seat: int) -> LegalMoves:
    return LegalMoves(state, seat)


def is_legal(state: GameState, seat: int, move: Move) -> bool:
    return rules_for(state.options).is_legal(state, seat, move)


def _generate(state: GameState, seat: int, budget: Budget) -> Iterator[Move]:
    return rules_for(state.options).moves(state, seat, budget)

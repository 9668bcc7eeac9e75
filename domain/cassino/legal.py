"""Legal moves, as a lazy view in the manner of python-chess::

    moves = legal_moves(state, seat)
    for move in moves: ...          # every legal move, generated as needed
    move in moves                   # one move checked, cheaply
    moves.count()                   # how many there are
    listed = moves.first(200)       # a bounded list, and whether it was cut
    mine = moves.narrowed("8S", "capture", ("6S",))   # those of one card, action, targets
    more = mine.page(200, listed.next)                 # the page after one

The moves come from the kinds of move the game's options plug in
(:mod:`.play.rules`), pass by pass: trails, the largest captures, steals,
every build, and then the smaller captures, what a player most likely wants
first. Checking one move is a generation targeted at it (the same
generators, narrowed to the move: :meth:`.play.rules.Rules.resolve`), so a
move is in the view exactly when it is accepted. A narrowed view runs the
same generators for the named card and action only, and spells out only
the moves that name the named targets, so one card's moves on the most
crowded table come back whole. A page also stops after a fixed amount of
work and says where the next starts (:mod:`domain.paging`), so that no table
makes the engine work for long on one request, and following the pages
lists every legal move once.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from functools import partial

from ..cards import Card
from ..errors import reading
from ..paging import Budget, MoveList, Resume, page
from .moves import Move, action_named, target_named
from .play import rules_for
from .play.listing import ANY, Narrow
from .state import GameState

DEFAULT_LIMIT = 200
DEFAULT_WORK = 4000  # templates examined for one page before it stops and says where the next starts


class LegalMoves:
    """The legal moves of ``seat`` in ``state`` (those ``narrow`` lets
    through): a lazy, re-iterable view."""

    def __init__(self, state: GameState, seat: int, narrow: Narrow = ANY):
        self.state = state
        self.seat = seat
        self.narrow = narrow

    def __contains__(self, move: object) -> bool:
        return isinstance(move, Move) and self.narrow.admits(move) and is_legal(self.state, self.seat, move)

    def __iter__(self) -> Iterator[Move]:
        return self._generate(Budget(None))

    def __bool__(self) -> bool:
        return any(True for _ in self)

    def count(self) -> int:
        return sum(1 for _ in self)

    def narrowed(self, card: str | None = None, action: str | None = None,
                 targets: Iterable[str] = ()) -> LegalMoves:
        """The moves of the hand card ``card`` (a card code), of ``action``,
        naming every one of ``targets`` (card codes, build ids, seats'
        piles); raises :class:`~domain.errors.NotationError` for a code
        that is none."""
        narrow = Narrow(reading("card", lambda: Card.parse(card)) if card is not None else None,
                        reading("action", lambda: action_named(action)) if action is not None else None,
                        frozenset(reading("target", partial(target_named, t)) for t in targets))
        return LegalMoves(self.state, self.seat, narrow)

    def first(self, limit: int = DEFAULT_LIMIT, work: int = DEFAULT_WORK) -> MoveList[Move]:
        """At most ``limit`` moves in the view's order, within ``work`` templates."""
        return self.page(limit, None, work)

    def page(self, limit: int = DEFAULT_LIMIT, after: Resume | None = None,
             work: int = DEFAULT_WORK) -> MoveList[Move]:
        """The page of at most ``limit`` moves after ``after`` (a page's ``next``)."""
        return page(self._generate, limit, after, work)

    def _generate(self, budget: Budget) -> Iterator[Move]:
        return rules_for(self.state.options).moves(self.state, self.seat, budget, self.narrow)


def legal_moves(state: GameState, seat: int) -> LegalMoves:
    return LegalMoves(state, seat)


def is_legal(state: GameState, seat: int, move: Move) -> bool:
    return rules_for(state.options).is_legal(state, seat, move)


"""A kind of move: the piece of the rules a game's options plug in.

Each kind (a trail, a capture by sums, a court capture, a build, a pluck, a
steal...) holds in one class both sides of its rule: :meth:`MoveKind.moves`
generates the kind's moves for one card, and :meth:`MoveKind.made` makes
the play of a move the generator has made; :meth:`MoveKind.play` is the
kind's check, which explains a refusal by raising the
:class:`~domain.errors.RuleViolation` that names the rule broken (its first
rules, found without a search, are :meth:`MoveKind.shape`). A move is
accepted only when a generation targeted at it makes it
(:meth:`.rules.Rules.resolve`), so what is listed and what is accepted are
the same; the generators prune with the kinds' rules, and listing puts
the first move of a template to the check where they leave one to it.
:mod:`.rules` chooses the kinds a game's options call for and walks them
in the order a player is offered moves, or narrowed to one move, over the
:class:`~.listing.Lister` they share.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from enum import IntEnum

from ...cards import Card
from ...errors import RuleViolation
from ..moves import Action, Move
from ..state import GameState
from ..table import TableItem
from .listing import Lister
from .turn import Play


class Phase(IntEnum):
    """The passes of listing, in the order moves are offered: what a player
    most likely wants first."""

    TRAIL = 0
    CAPTURE = 1  # the largest captures
    STEAL = 2
    BUILD = 3  # builds of the played card's own group
    BUILD_MORE = 4  # builds that also gather more groups of their value
    PILES = 5  # builds augmented from capture piles
    PLUCK = 6
    PARTIAL = 7  # the smaller captures


class MoveKind:
    """One kind of move. Subclasses set :attr:`action` and the :attr:`phases`
    they list moves in, and override what differs."""

    action: Action
    phases: tuple[Phase, ...] = ()
    on_turn = True  # played by the seat to play, with a card of its hand
    on_table = True  # its targets are items on the table
    bound_by_duty = True  # the owner's duty applies to it
    names_piles = False  # its targets may name seats' capture piles (``seat:N``) besides table items

    def takes(self, card: Card) -> bool:
        """Whether this kind answers for moves of its action with ``card``."""
        return True

    def answers(self, move: Move) -> bool:
        """Whether this kind answers for ``move`` (of its action)."""
        return self.takes(move.card)

    def cards(self, lister: Lister) -> Sequence[Card]:
        """The cards this kind's moves are listed for: the hand's."""
        return lister.hand

    def moves(self, lister: Lister, card: Card, phase: Phase) -> Iterable[Move]:
        """The legal moves of this kind with ``card`` listed in ``phase``."""
        return iter(())

    def play(self, state: GameState, seat: int, move: Move, items: tuple[TableItem, ...]) -> Play:
        """Check ``move`` (its targets on the table are ``items``); return what
        it does, or raise the RuleViolation naming the rule it breaks."""
        raise NotImplementedError

    def shape(self, state: GameState, seat: int, move: Move, items: tuple[TableItem, ...]) -> None:
        """What a move of this kind must look like, found without a search:
        the first rules :meth:`play` checks, in its order, so a move refused
        for one of them is explained before any generation is run."""

    def made(self, state: GameState, seat: int, move: Move, items: tuple[TableItem, ...]) -> Play:
        """What ``move`` does, once this kind's generator has made it: what
        the generation has found need not be checked again. A kind whose
        generator establishes little has its check make the play."""
        return self.play(state, seat, move, items)


class Absent(MoveKind):
    """An action a game does not have: every move of it is refused with one rule."""

    def __init__(self, action: Action, rule: str, detail: str, on_turn: bool = True, on_table: bool = True):
        self.action, self.rule, self.detail = action, rule, detail
        self.on_turn, self.on_table = on_turn, on_table

    def play(self, state: GameState, seat: int, move: Move, items: tuple[TableItem, ...]) -> Play:
        raise RuleViolation(self.rule, self.detail)

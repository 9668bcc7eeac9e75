"""The rules of a turn: checking one move, and listing every legal move.

Each kind of move is one class (:mod:`.kind`) that both checks its moves
and generates them: :mod:`.trail`, :mod:`.capture` (by sums), :mod:`.court`
(by rank, and the courts' own builds), :mod:`.build`, :mod:`.piles`,
:mod:`.pluck` and :mod:`.steal`; the owner's duty that applies to them all is
in :mod:`.duty`, and what cards are worth in :mod:`.values`. :mod:`.rules`
plugs in the kinds a game's options call for. :func:`resolve_play` either
returns a :class:`Play` (what leaves the hand, what leaves the table, what
build appears) or raises :class:`RuleViolation` naming the broken rule; it
accepts a move when the generators, narrowed to it, make it (and answers
the play they make), and a refusal is explained by the move's kind's check.
"""

from __future__ import annotations

from ..moves import Move
from ..state import GameState
from .rules import Rules, rules_for
from .turn import Play
from .values import values_of

__all__ = ["Play", "Rules", "resolve_play", "rules_for", "values_of"]


def resolve_play(state: GameState, seat: int, move: Move) -> Play:
    """Check ``move`` by ``seat`` now; return what it does or raise RuleViolation."""
    return rules_for(state.options).resolve(state, seat, move)

"""The computer player: what a seat played by the service does next.

Greedy, and simple on purpose: it agrees to every undo request, counts out
as soon as its side has made sure of the target, deals when it is the
dealer, and on its turn takes the capture worth the most points (then the
most cards), else trails its lowest card, else (when the rules forbid a
trail) makes the first legal move.
"""

from __future__ import annotations

from ..seating import open_seats
from ..undoing import yet_to_answer
from .commands import AnswerUndo, Command, CountOut, Deal, Play
from .legal import legal_moves
from .moves import Action, Move
from .scoring import card_points, count_out_claim
from .state import HAND_OVER, IN_PROGRESS, WAITING, GameState
from .table import Build


def computer_command(state: GameState, computers: tuple[int, ...],
                     next_seed: bytes | None) -> tuple[int, Command] | None:
    """The next thing one of the ``computers`` seats does in ``state``, as
    ``(seat, command)``; None when it waits for a person."""
    asker = state.undo_request
    if asker is not None:
        for s in yet_to_answer(asker, state.undo_accepted, computers):
            return s, AnswerUndo(s, True)
    if state.status == IN_PROGRESS and state.options.count_out:
        for s in computers:
            if count_out_claim(state, state.team_of(s)).succeeds:
                return s, CountOut(s)
    if state.status in (WAITING, HAND_OVER) and state.next_dealer in computers and not open_seats(state.names):
        return state.next_dealer, stand_in(state, state.next_dealer, next_seed)
    if state.status == IN_PROGRESS and state.turn in computers and asker is None:
        return state.turn, stand_in(state, state.turn, next_seed)
    return None


def stand_in(state: GameState, seat: int, next_seed: bytes | None) -> Deal | Play:
    """What the computer does for ``seat``, whose deal or play the game
    awaits: deal, or make the greedy player's move (also for a person whose
    time ran out, with ``on_timeout: "computer"``)."""
    if state.status == IN_PROGRESS:
        return Play(seat, choose(state, seat), next_seed)
    return Deal(None, seat=seat)


def choose(state: GameState, seat: int) -> Move:
    """The greedy player's move (see the module's docstring)."""
    moves = legal_moves(state, seat).first().moves
    captures = [m for m in moves if m.action == Action.CAPTURE]
    if captures:
        return max(captures, key=lambda m: _gain(state, m))
    trails = [m for m in moves if m.action == Action.TRAIL]
    if trails:
        return min(trails, key=lambda m: (m.card.rank, m.card.suit))
    return moves[0]


def _gain(state: GameState, move: Move) -> tuple[int, int]:
    """What a capture takes: (points the cards score, number of cards)."""
    taken = [move.card]
    for target in move.targets:
        item = state.item(target)
        assert item is not None, "a listed capture names what is on the table"
        taken += item.cards if isinstance(item, Build) else [item]
    return sum(a.points for a in card_points(taken, state.options)), len(taken)

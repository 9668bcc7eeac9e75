"""The computer player: what a seat played by the service does next.

Plain on purpose: it agrees to every undo request, deals when it is the
first dealer, and on its turn makes the first move ``legal_moves`` lists,
which is the stop when a stop is allowed and else the cheapest bet.
"""

from __future__ import annotations

from ..seating import open_seats
from ..undoing import yet_to_answer
from .commands import AnswerUndo, Bet, Command, Deal, Stop, command_for
from .legal import legal_moves
from .state import BETTING, WAITING, MassCoolState


def computer_command(state: MassCoolState, computers: tuple[int, ...],
                     next_seed: bytes | None) -> tuple[int, Command] | None:
    """The next thing one of the ``computers`` seats does in ``state``, as
    ``(seat, command)``; None when it waits for a person."""
    asker = state.undo_request
    if asker is not None:
        for s in yet_to_answer(asker, state.undo_accepted, (c for c in computers if not state.out[c])):
            return s, AnswerUndo(s, True)
        return None
    if state.status == WAITING and state.first_dealer in computers and not open_seats(state.names):
        return state.first_dealer, stand_in(state, state.first_dealer, next_seed)
    if state.status == BETTING and state.turn in computers:
        return state.turn, stand_in(state, state.turn, next_seed)
    return None


def stand_in(state: MassCoolState, seat: int, next_seed: bytes | None) -> Deal | Bet | Stop:
    """What the computer does for ``seat``, whose deal or bet the game
    awaits: deal, or make the first listed move (also for a person whose
    time ran out, with ``on_timeout: "computer"``)."""
    if state.status == BETTING:
        return command_for(seat, legal_moves(state, seat).first(1).moves[0])
    return Deal(None, seat, next_seed)

"""What a game of Mass Cool Casino waits for, and whose clock runs (the
kernel's words: :mod:`domain.standing`, :mod:`domain.clocks`)."""

from __future__ import annotations

from ..seating import open_seats
from ..standing import Awaited, Awaiting
from ..undoing import yet_to_answer
from .state import BETTING, FINISHED, WAITING, MassCoolState


def awaiting(state: MassCoolState) -> Awaiting | None:
    """What the game waits for: players for its open seats, then an answer
    to a pending undo request from the players still in who have not given
    one (the seat to bet may bet instead, which lets the request lapse),
    else the bet or stop of the seat whose turn it is, or a deal: the first
    deal, by the first dealer when a shuffle is committed and else by the
    operator alone, and a tied pot's reshuffle, by the operator alone (with
    a committed seed the service reshuffles by itself). None once the game
    is over, and between two events of one command (a won pot before the
    next hands are drawn)."""
    if state.status == FINISHED:
        return None
    asker = state.undo_request
    if asker is not None:
        return Awaiting(Awaited.ANSWER_UNDO, yet_to_answer(asker, state.undo_accepted, state.in_game))
    return _move(state)


def _move(state: MassCoolState) -> Awaiting | None:
    """The seats the game waits for, beneath any pending undo request (a seat
    is open only before the deal)."""
    if state.status == BETTING:
        return Awaiting(Awaited.PLAY, (state.turn,)) if state.turn is not None else None
    free = open_seats(state.names) if state.status == WAITING else ()
    if free:
        return Awaiting(Awaited.JOIN, free)
    if state.status == WAITING and state.next_seed is not None:
        return Awaiting(Awaited.DEAL, (state.first_dealer,))
    return Awaiting(Awaited.DEAL, ())


def clock_seat(state: MassCoolState) -> int | None:
    """The seat a clock runs for: the one whose bet or deal the game awaits,
    beneath a pending undo request (which it may let lapse by betting)."""
    if state.status == FINISHED:
        return None
    move = _move(state)
    return move.clock_seat if move is not None else None

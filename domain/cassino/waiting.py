"""What a game of Cassino waits for, and whose clock runs (the kernel's
words: :mod:`domain.standing`, :mod:`domain.clocks`)."""

from __future__ import annotations

from ..seating import open_seats
from ..standing import Awaited, Awaiting
from ..undoing import yet_to_answer
from .state import FINISHED, IN_PROGRESS, WAITING, GameState


def awaiting(state: GameState) -> Awaiting | None:
    """What the game waits for: players for its open seats, then an answer
    to a pending undo request from the seats yet to give one (the seat to
    play may play instead, which lets the request lapse), else the play of
    the seat whose turn it is, or between hands the deal, by the next dealer
    when a shuffle is committed and else by the operator alone. None once
    the game is over."""
    if state.status == FINISHED:
        return None
    asker = state.undo_request
    if asker is not None:
        return Awaiting(Awaited.ANSWER_UNDO, yet_to_answer(asker, state.undo_accepted, range(state.players)))
    return _move(state)


def _move(state: GameState) -> Awaiting:
    """The seats the game waits for, beneath any pending undo request (a seat
    is open only before the first deal)."""
    if state.status == IN_PROGRESS:
        assert state.turn is not None, "a hand being played has a seat to play"
        return Awaiting(Awaited.PLAY, (state.turn,))
    free = open_seats(state.names) if state.status == WAITING else ()
    if free:
        return Awaiting(Awaited.JOIN, free)
    return Awaiting(Awaited.DEAL, (state.next_dealer,) if state.seed is not None else ())


def clock_seat(state: GameState) -> int | None:
    """The seat a clock runs for: the one whose play or deal the game awaits,
    beneath a pending undo request (which it may let lapse by playing)."""
    return None if state.status == FINISHED else _move(state).clock_seat

"""Whether a bet or a stop is allowed: the one check that both ``decide``
and ``legal_moves`` use, so the moves offered and the moves accepted cannot
drift apart.

The seed leaves open what a stop needs; here a player may stop only once
they have bet in this round, that is once the betting has gone round the
table to them again, and only one stop is called in a round. After the
stop, a player short of the highest bet bets exactly the difference (or all
the money they have left): no one raises any more.
"""

from __future__ import annotations

from collections import Counter

from ..errors import RuleViolation
from .moves import STOP, Move
from .state import BETTING, MassCoolState


def check_move(s: MassCoolState, seat: int, move: Move) -> None:
    """Raise :class:`RuleViolation` unless ``seat`` may make ``move`` now."""
    if s.status != BETTING:
        raise RuleViolation("betting_closed", "No one is betting now.")
    if not 0 <= seat < s.players:
        raise RuleViolation("not_a_seat", f"There is no seat {seat}.")
    if s.out[seat]:
        raise RuleViolation("out_of_game", "You are out of the game.")
    if s.turn != seat:
        raise RuleViolation("not_your_turn", f"It is seat {s.turn}'s turn, not yours.")
    if move.action == STOP:
        _check_stop(s, seat)
    else:
        _check_bet(s, seat, move)


def _check_stop(s: MassCoolState, seat: int) -> None:
    if s.stopped_by is not None:
        raise RuleViolation("already_stopped", f"Seat {s.stopped_by} has already called stop: even out your bet.")
    if not s.bets[seat]:
        raise RuleViolation("stop_before_bet", "Bet at least once this round before you call stop.")


def _check_bet(s: MassCoolState, seat: int, move: Move) -> None:
    if not move.cards:
        raise RuleViolation("empty_bet", "A bet is at least one card of your money.")
    twice = [c for c, k in Counter(move.cards).items() if k > 1]
    if twice:
        raise RuleViolation("duplicate_card", f"The {twice[0].name} is named twice.")
    money = set(s.money[seat])
    missing = [c for c in move.cards if c not in money]
    if missing:
        raise RuleViolation("card_not_in_money", f"The {missing[0].name} is not in your money.")
    if s.stopped_by is not None and len(move.cards) != s.owes(seat):
        owed = s.owes(seat)
        raise RuleViolation("must_even_out", f"After the stop, bet exactly {owed} card{'s' * (owed != 1)} "
                            "to even out the bets.")


def is_legal(s: MassCoolState, seat: int, move: Move) -> bool:
    try:
        check_move(s, seat, move)
    except RuleViolation:
        return False
    return True

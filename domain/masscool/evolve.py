"""Applying events: ``evolve(state, event)`` and ``fold(events)``, the
kernel's (:class:`~domain.folding.Evolver`) with what each of Mass Cool
Casino's events does to a state.

Evolving trusts its events (they were checked when decided). The one piece
of the rules it applies is whose turn follows a bet or a stop, since that is
a plain consequence of where the money and the bets lie (:func:`next_to_act`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

from ..cards import Card
from ..folding import Evolver
from ..kernel_events import PlayUndone
from ..kernel_rules import fold_handlers
from ..seating import joined
from .events import (BetPlaced, DeckReshuffled, Event, HandsDrawn, MoneyCounted, MoneyDealt, PotTied, PotWon,
                     ShufflePromised, ShuffleRevealed, StopCalled, TableOpened)
from .state import BETTING, FINISHED, RESHUFFLE, MassCoolState, Outcome
from .waiting import clock_seat

#: The undo point of a state: what a move keeps of the state before it.
_UNDO_POINT: dict[str, Any] = {"before_move": None, "last_actor": None, "undo_request": None, "undo_accepted": ()}
#: A deal, a draw or a showdown ends the chance to take a move back.
_NO_UNDO: dict[str, Any] = {**_UNDO_POINT, "stood_in": None}


def next_to_act(s: MassCoolState, after: int) -> int | None:
    """Who bets after ``after``: the next seat clockwise with money (after a
    stop, only one still short of the highest bet); None when no one is left
    to bet, which is the showdown."""
    for seat in s.clockwise_from(s.left_of(after)):
        if s.money[seat] and (s.stopped_by is None or s.owes(seat) > 0):
            return seat
    return None


def _opened(e: TableOpened) -> MassCoolState:
    n = len(e.names)
    return MassCoolState(names=e.names, options=e.options, first_dealer=e.first_dealer, version=1,
                         money=((),) * n, bets=((),) * n, hands=(None,) * n, out=(False,) * n,
                         shown=(None,) * n, leader=e.first_dealer, player_ids=(None,) * n)


T = TypeVar("T")


def _with(values: tuple[T, ...], seat: int, value: T) -> tuple[T, ...]:
    return values[:seat] + (value,) + values[seat + 1:]


def _without(cards: tuple[Card, ...], taken: tuple[Card, ...]) -> tuple[Card, ...]:
    gone = set(taken)
    return tuple(c for c in cards if c not in gone)


def _promised(s: MassCoolState, e: ShufflePromised) -> MassCoolState:
    return s._replace(next_commitment=e.commitment, next_seed=e.seed)


def _shuffled(s: MassCoolState, fixed: bool) -> MassCoolState:
    """A new deck in use: a seeded one consumes the committed seed."""
    if fixed:
        return s._replace(seed=None)
    return s._replace(seed=s.next_seed, next_seed=None, next_commitment=None)


def _dealt(s: MassCoolState, e: MoneyDealt) -> MassCoolState:
    dealt = sum(len(m) for m in e.money)
    return _shuffled(s, e.fixed)._replace(money=e.money, stock=e.deck[dealt:], shuffles=1)


def _drawn(s: MassCoolState, e: HandsDrawn) -> MassCoolState:
    drawn = sum(h is not None for h in e.hands)
    s = s._replace(**_NO_UNDO, status=BETTING, hands=e.hands, stock=s.stock[drawn:], round=e.round,
                   leader=e.leader, stopped_by=None)
    first = next((seat for seat in s.clockwise_from(e.leader) if s.money[seat]), None)
    return s._replace(turn=first)


def _bet(s: MassCoolState, e: BetPlaced) -> MassCoolState:
    after = s._replace(money=_with(s.money, e.seat, _without(s.money[e.seat], e.cards)),
                       bets=_with(s.bets, e.seat, s.bets[e.seat] + e.cards), played=True,
                       **_undo_point(s, e.seat))
    return after._replace(turn=next_to_act(after, e.seat))


def _undo_point(s: MassCoolState, seat: int) -> dict[str, Any]:
    """A bet or a stop can be taken back: keep the state before it (without
    its own undo point, so only the latest move is ever restored; its
    ``stood_in`` says whether the service made this move on a time-out)."""
    return {"before_move": s._replace(**_UNDO_POINT), "last_actor": seat, "undo_request": None, "undo_accepted": (),
            "stood_in": None}


def _stopped(s: MassCoolState, e: StopCalled) -> MassCoolState:
    after = s._replace(stopped_by=e.seat, played=True, **_undo_point(s, e.seat))
    return after._replace(turn=next_to_act(after, e.seat))


def _won(s: MassCoolState, e: PotWon) -> MassCoolState:
    n = s.players
    out = tuple(s.out[i] or i in e.knocked_out for i in range(n))
    hands = tuple(h for h in e.hands if h is not None)
    return s._replace(**_NO_UNDO, money=_with(s.money, e.winner, s.money[e.winner] + e.pot), bets=((),) * n,
                      hands=(None,) * n, discards=s.discards + hands, out=out, shown=e.hands,
                      pot_winner=e.winner, turn=None, stopped_by=None)


def _tied(s: MassCoolState, e: PotTied) -> MassCoolState:
    n = s.players
    gathered = tuple(c for b in s.bets for c in b) + tuple(h for h in e.hands if h is not None)
    return s._replace(**_NO_UNDO, status=RESHUFFLE, bets=((),) * n, hands=(None,) * n, gathered=gathered,
                      shown=e.hands, pot_winner=None, turn=None, stopped_by=None)


def _reshuffled(s: MassCoolState, e: DeckReshuffled) -> MassCoolState:
    return _shuffled(s, e.fixed)._replace(stock=e.deck, gathered=(), shuffles=e.shuffle)


def _revealed(s: MassCoolState, e: ShuffleRevealed) -> MassCoolState:
    if e.seed == s.seed:
        return s._replace(seed=None)
    return s._replace(next_seed=None, next_commitment=None)


def _counted(s: MassCoolState, e: MoneyCounted) -> MassCoolState:
    return s._replace(**_NO_UNDO, status=FINISHED, turn=None, outcome=Outcome(e.winners, e.reason, e.totals))


def restore(s: MassCoolState) -> MassCoolState:
    """The state before the latest bet or stop, for its take-back."""
    if s.before_move is None:  # decide() takes back only a move that has an undo point
        raise ValueError("A take-back with no move to take back.")
    return s.before_move._replace(**_NO_UNDO)


def holder(s: MassCoolState, seat: int, name: str | None, player: str | None) -> dict[str, Any]:
    """The fields that put ``name`` (the player ``player``) in ``seat``; None opens it."""
    return {"names": joined(s.names, seat, name), "player_ids": joined(s.player_ids, seat, player)}


def _replace(s: MassCoolState, **fields: Any) -> MassCoolState:
    return s._replace(**fields)


def _counting(apply: Callable[[MassCoolState, Any], MassCoolState]) -> Callable[[MassCoolState, Any], MassCoolState]:
    """``apply``, with the version counted."""
    return lambda s, e: apply(s, e)._replace(version=s.version + 1)


_APPLY: dict[type[Event], Callable[[MassCoolState, Any], MassCoolState]] = {
    ShufflePromised: _promised,
    MoneyDealt: _dealt,
    HandsDrawn: _drawn,
    BetPlaced: _bet,
    StopCalled: _stopped,
    PotWon: _won,
    PotTied: _tied,
    DeckReshuffled: _reshuffled,
    ShuffleRevealed: _revealed,
    MoneyCounted: _counted,
}
_EVOLVER: Evolver[MassCoolState, Event] = Evolver(TableOpened, _opened,
                                                  {**{kind: _counting(apply) for kind, apply in _APPLY.items()},
                                                   **fold_handlers(_replace, holder, restore)},
                                                  clock_seat, PlayUndone)
evolve = _EVOLVER.evolve
fold = _EVOLVER.fold

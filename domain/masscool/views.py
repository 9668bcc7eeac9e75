"""What each caller may see of a game, and of its events.

At a real table of Mass Cool Casino the money and the bets lie face up, a
hand is seen by its owner until the showdown turns every hand over, and no
one sees the order of the stock. So:

- a seat sees everything public and its own hand;
- a spectator sees everything public;
- the operator sees every hand and the stock's order as well.

A caller is named by two keywords: ``seat`` (the seat asking, or None)
and ``operator``; with neither, the view is a spectator's.
"""

from __future__ import annotations

from typing import Any

from ..cards import Card, codes
from ..clocks import clock_view
from ..kernel_events import DESCRIBERS as KERNEL_DESCRIBERS
from ..rating import rating_view
from ..rematch import rematch_view
from ..standing import standing_view
from ..views import Describer, cards_text, describe, names_text, private_parts
from .game import awaiting, outcome
from .rules import GAME_TYPE, money_value
from .state import MassCoolState


def _code(card: Card | None) -> str | None:
    return card.code if card is not None else None


def game_view(s: MassCoolState, seat: int | None = None, operator: bool = False) -> dict[str, Any]:
    ended = s.outcome
    view: dict[str, Any] = {
        "game_type": GAME_TYPE,
        "status": s.status,
        "options": s.options.to_dict(),
        "version": s.version,
        "dealer": s.first_dealer,
        "round": s.round,
        "leader": s.leader,
        "turn": s.turn,
        "stopped_by": s.stopped_by,
        "deck_count": len(s.stock),
        "pot_count": sum(len(b) for b in s.bets),
        "discard_count": len(s.discards),
        "seats": [
            {
                "seat": i,
                "name": name,
                "open": name is None,
                "out": s.out[i],
                "money": codes(s.money[i]),
                "money_value": money_value(s.money[i]),
                "bet": codes(s.bets[i]),
                "has_hand": s.hands[i] is not None,
            }
            for i, name in enumerate(s.names)
        ],
        "last_showdown": ({"hands": [_code(h) for h in s.shown], "winner": s.pot_winner}
                          if any(h is not None for h in s.shown) else None),
        "commitment": s.next_commitment,
        "undo_request": ({"seat": s.undo_request, "accepted": list(s.undo_accepted)}
                         if s.undo_request is not None else None),
        "totals": list(ended.totals) if ended else None,
        **standing_view(awaiting(s), outcome(s)),
        "clock": clock_view(s.clock),
        **rating_view(s.rated, s.rating_changes),
        **rematch_view(s.rematch),
    }
    return view | private_parts(s.hands, s.stock, _code, seat, operator)


def event_view(stored: dict[str, Any], seat: int | None = None, operator: bool = False,
               reveal: bool = False) -> dict[str, Any]:
    """An event's JSON form (``to_json``) as its caller may see it; ``reveal``
    shows everything (a finished game's public log). The event keeps its
    type and fields; what is hidden becomes null beside a count."""
    if operator or reveal:
        return stored
    kind, data = stored["type"], stored["data"]
    if kind == "ShufflePromised":
        data = {**data, "seed": None}
    elif kind in ("MoneyDealt", "DeckReshuffled"):
        data = {**data, "deck": None, "deck_count": len(data["deck"])}
    elif kind == "HandsDrawn":
        data = {**data, "hands": [h if i == seat else None for i, h in enumerate(data["hands"])],
                "drawn": [h is not None for h in data["hands"]]}
    else:
        return stored
    return {**stored, "data": data}


def _seats(seats: list[int]) -> str:
    return ", ".join(f"seat {s}" for s in seats)


def _winners(seats: list[int]) -> str:
    return f"{_seats(seats)} {'wins' if len(seats) == 1 else 'share the win'}" if seats else "no winner"


_DESCRIBERS: dict[str, Describer] = {
    "TableOpened": lambda d: f"Mass Cool Casino for {names_text(d['names'])}; seat {d['first_dealer']} deals",
    "ShufflePromised": lambda d: f"shuffle {d['shuffle']} committed: {d['commitment'][:16]}…",
    "MoneyDealt": lambda d: (f"seat {d['dealer']} deals {len(d['money'][0])} cards of money each"
                             + (" (deck fixed by the operator)" if d["fixed"] else "")),
    "HandsDrawn": lambda d: f"round {d['round']}: hands drawn, seat {d['leader']} bets first",
    "BetPlaced": lambda d: f"seat {d['seat']} bets {cards_text(d['cards'])}",
    "StopCalled": lambda d: f"seat {d['seat']} calls stop",
    "PotWon": lambda d: (f"round {d['round']}: seat {d['winner']} takes the pot of {len(d['pot'])} cards"
                         + (f"; {_seats(d['knocked_out'])} out" if d["knocked_out"] else "")),
    "PotTied": lambda d: f"round {d['round']}: {_seats(d['tied'])} tie; the pot goes back into the deck",
    "DeckReshuffled": lambda d: (f"shuffle {d['shuffle']}: the deck is reshuffled"
                                 + (" (fixed by the operator)" if d["fixed"] else "")),
    "ShuffleRevealed": lambda d: f"shuffle {d['shuffle']}'s seed revealed",
    "MoneyCounted": lambda d: (f"money counted ({d['reason']}): {'-'.join(map(str, d['totals']))};"
                               f" {_winners(d['winners'])}"),
    **KERNEL_DESCRIBERS,
}


def describe_event(stored: dict[str, Any]) -> str:
    """One line saying what the event records (``casino replay --print``)."""
    return describe(stored, _DESCRIBERS)

"""What each caller may see of a game, and of its events.

At a real table of Mass Cool Casino the money and the bets lie face up, a
hand is seen by its owner until the showdown turns every hand over, and no
one sees the order of the stock. So:

- a seat sees everything public and its own hand;
- a spectator sees everything public;
- the operator sees every hand and the stock's order as well.

A caller is anything with ``is_operator``, ``is_seat``, ``seat`` and
``sees_hand(seat)`` (the service's ``Caller`` fits; :class:`Viewer` is the
domain's own).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..cards import codes
from .rules import GAME_TYPE, money_value
from .state import MassCoolState


@dataclass(frozen=True, slots=True)
class Viewer:
    kind: str  # "seat", "operator" or "public"
    seat: int | None = None

    @property
    def is_operator(self) -> bool:
        return self.kind == "operator"

    @property
    def is_seat(self) -> bool:
        return self.kind == "seat"

    def sees_hand(self, seat: int) -> bool:
        return self.is_operator or (self.is_seat and self.seat == seat)


SPECTATOR = Viewer("public")
OPERATOR = Viewer("operator")


def seat_viewer(seat: int) -> Viewer:
    return Viewer("seat", seat)


def _code(card) -> str | None:
    return card.code if card is not None else None


def game_view(s: MassCoolState, caller) -> dict[str, Any]:
    outcome = s.outcome
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
        "winners": list(outcome.winners) if outcome else None,
        "result": outcome.reason if outcome else None,
        "totals": list(outcome.totals) if outcome else None,
    }
    if caller.is_seat:
        view["you"] = caller.seat
        view["hand"] = _code(s.hands[caller.seat])
    if caller.is_operator:
        view["hands"] = [_code(h) for h in s.hands]
        view["stock"] = codes(s.stock)
    return view


def event_view(stored: dict[str, Any], caller, reveal: bool = False) -> dict[str, Any]:
    """An event's JSON form (``to_json``) as ``caller`` may see it; ``reveal``
    shows everything (a finished game's public log). The event keeps its
    type and fields; what is hidden becomes null beside a count."""
    if caller.is_operator or reveal:
        return stored
    kind, data = stored["type"], stored["data"]
    if kind == "ShufflePromised":
        data = {**data, "seed": None}
    elif kind in ("MoneyDealt", "DeckReshuffled"):
        data = {**data, "deck": None, "deck_count": len(data["deck"])}
    elif kind == "HandsDrawn":
        data = {**data, "hands": [h if caller.sees_hand(i) else None for i, h in enumerate(data["hands"])],
                "drawn": [h is not None for h in data["hands"]]}
    else:
        return stored
    return {**stored, "data": data}

"""A turn at the betting: bet cards out of one's money, or call "stop".

A move has the JSON shape of a ``/play`` body and a short text form::

    >>> Move.parse("bet ks 7h")
    Move.parse('bet KS 7H')
    >>> Move.parse("bet KS 7H").to_dict()
    {'action': 'bet', 'cards': ['KS', '7H']}
    >>> Move.from_dict({"action": "stop"}).text
    'stop'

The cards of a bet are kept in new-deck order, so two bets of the same cards
are the same move.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import partial
from typing import Any

from ..cards import Card
from ..errors import NotationError, reading

BET, STOP = "bet", "stop"
ACTIONS = (BET, STOP)
MAX_CARDS = 52


@dataclass(frozen=True, slots=True)
class Move:
    action: str
    cards: tuple[Card, ...] = ()

    def __post_init__(self) -> None:
        if self.action not in ACTIONS:
            raise NotationError(f"Unknown action {self.action!r}; the actions are {', '.join(ACTIONS)}.")
        if self.action == STOP and self.cards:
            raise NotationError("'stop' names no cards.")
        object.__setattr__(self, "cards", tuple(sorted(self.cards, key=lambda c: c.index)))

    @classmethod
    def bet(cls, *cards: Card | str) -> Move:
        return cls(BET, tuple(c if isinstance(c, Card) else Card.parse(c) for c in cards))

    @classmethod
    def stop(cls) -> Move:
        return cls(STOP)

    @classmethod
    def from_dict(cls, data: Any) -> Move:
        """Read a ``/play`` body; raises :class:`NotationError` naming the field at fault."""
        if not isinstance(data, dict):
            raise NotationError("A move is an object with an 'action'.")
        unknown = set(data) - {"action", "cards"}
        if unknown:
            raise NotationError(f"A move has no field {sorted(unknown)[0]!r}.", sorted(unknown)[0])
        action = data.get("action")
        if not isinstance(action, str):
            raise NotationError(f"'action' is one of {', '.join(ACTIONS)}.", "action")
        cards = data.get("cards", [])
        if not isinstance(cards, list) or len(cards) > MAX_CARDS:
            raise NotationError("'cards' is a list of card codes.", "cards")
        read = tuple(reading(f"cards.{i}", partial(Card.parse, c)) for i, c in enumerate(cards))
        return reading("action", lambda: cls(action.strip().lower(), read))

    def to_dict(self) -> dict[str, Any]:
        if self.action == STOP:
            return {"action": STOP}
        return {"action": BET, "cards": [c.code for c in self.cards]}

    @classmethod
    def parse(cls, text: str) -> Move:
        """Read ``"bet KS 7H"`` or ``"stop"``."""
        words = text.split()
        if not words:
            raise NotationError("An empty text is not a move: write 'bet' and cards, or 'stop'.")
        return cls(words[0].lower(), tuple(Card.parse(w) for w in words[1:]))

    @property
    def text(self) -> str:
        return " ".join([self.action, *(c.code for c in self.cards)])

    def __str__(self) -> str:
        return self.text

    def __repr__(self) -> str:
        return f"Move.parse({self.text!r})"

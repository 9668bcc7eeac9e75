"""Cards and their notation.

A card is written rank then suit: ``AS``, ``10D``, ``QH``. Reading accepts any
case and ``T`` for ten; writing is always canonical::

    >>> Card.parse("td")
    Card.parse('10D')
    >>> Card.parse("qh").code
    'QH'

Cards are interned: there is exactly one object per card, so ``is`` and
``==`` agree and comparing cards is cheap.
"""

from __future__ import annotations

from collections.abc import Iterable

from .errors import NotationError

RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
SUITS = ("S", "H", "D", "C")
SUIT_NAMES = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}
RANK_NAMES = {"A": "ace", "J": "jack", "Q": "queen", "K": "king"}


class Card:
    """One playing card. Build it with :meth:`parse` or :func:`card`."""

    __slots__ = ("rank", "suit", "code", "index", "id")
    _interned: dict[str, Card] = {}

    rank: int  # 1 (ace) .. 13 (king)
    suit: str  # one of SUITS
    code: str  # canonical notation, e.g. "10D"
    index: int  # position in the new-deck order, 0..51
    id: str  # how a move names it on the table: its code, as builds have ids

    def __new__(cls, rank: int, suit: str) -> Card:
        code = f"{RANKS[rank - 1]}{suit}" if 1 <= rank <= 13 and suit in SUITS else None
        if code is None:
            raise NotationError(f"There is no card of rank {rank!r} and suit {suit!r}.")
        found = cls._interned.get(code)
        if found is None:
            found = object.__new__(cls)
            object.__setattr__(found, "rank", rank)
            object.__setattr__(found, "suit", suit)
            object.__setattr__(found, "code", code)
            object.__setattr__(found, "index", SUITS.index(suit) * 13 + rank - 1)
            object.__setattr__(found, "id", code)
            cls._interned[code] = found
        return found

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("cards are immutable")

    def __reduce__(self) -> tuple[type[Card], tuple[int, str]]:
        return (Card, (self.rank, self.suit))

    @classmethod
    def parse(cls, text: str) -> Card:
        """Read a card code such as ``"10D"``, ``"td"`` or ``"Qh"``."""
        if not isinstance(text, str):
            raise NotationError(f"A card is written as text like '10D', not {text!r}.")
        found = cls._interned.get(text)
        if found is not None:
            return found
        up = text.strip().upper()
        if len(up) < 2:
            raise NotationError(f"{text!r} is not a card: write rank then suit, like 'QH'.")
        rank_text, suit = up[:-1], up[-1]
        if rank_text == "T":
            rank_text = "10"
        if rank_text not in RANKS or suit not in SUITS:
            raise NotationError(
                f"{text!r} is not a card: ranks are A 2-10 J Q K (or T), suits S H D C."
            )
        return cls(RANKS.index(rank_text) + 1, suit)

    @property
    def is_court(self) -> bool:
        """True for jacks, queens and kings."""
        return self.rank > 10

    @property
    def name(self) -> str:
        """The card in words, as a sentence for a player would use it."""
        rank = RANKS[self.rank - 1]
        return f"{RANK_NAMES.get(rank, rank)} of {SUIT_NAMES[self.suit]}"

    def __repr__(self) -> str:
        return f"Card.parse({self.code!r})"

    def __str__(self) -> str:
        return self.code

    def __lt__(self, other: Card) -> bool:
        return self.index < other.index


def card(text: str) -> Card:
    """Shorthand for :meth:`Card.parse`."""
    return Card.parse(text)


def cards(text: str | Iterable[str]) -> tuple[Card, ...]:
    """Read several cards: ``cards("AS 2H 10D")`` or ``cards(["AS", "2H"])``."""
    if isinstance(text, str):
        text = text.split()
    return tuple(Card.parse(t) for t in text)


def full_deck() -> tuple[Card, ...]:
    """The 52 cards in new-deck order (spades, hearts, diamonds, clubs; A to K)."""
    return tuple(Card(rank, suit) for suit in SUITS for rank in range(1, 14))


def codes(items: Iterable[Card]) -> list[str]:
    """Card codes, for JSON."""
    return [c.code for c in items]


for _c in full_deck():  # intern every card once, so parse() is a dict lookup
    Card._interned[_c.code.lower()] = _c
    if _c.rank == 10:
        Card._interned["T" + _c.suit] = _c
        Card._interned["t" + _c.suit.lower()] = _c
del _c

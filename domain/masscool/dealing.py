"""Where the cards go, for a deck given top card first.

- **Money**: one card at a time, face up, clockwise from the dealer's left
  with the dealer last, until each player has the game's ``money`` count.
  The rest of the deck, in order, is the stock.
- **Hands**: at the start of each round (a replayed round too), every player
  still in the game draws one card from the top of the stock, the round's
  leader first and then clockwise.
- **Reshuffles** are derived like every seeded deck (:mod:`domain.shuffle`):
  the cards being shuffled are put in new-deck order and shuffled with the
  seed, the shuffle's number standing for the hand number.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..cards import Card
from ..shuffle import deck_from_seed


def deal_money(deck: Sequence[Card], players: int, dealer: int, each: int) -> tuple[tuple[Card, ...], ...]:
    """The money each seat receives from the top of ``deck``."""
    money: list[list[Card]] = [[] for _ in range(players)]
    order = [(dealer + 1 + i) % players for i in range(players)]  # the dealer is last
    for i, c in enumerate(deck[:players * each]):
        money[order[i % players]].append(c)
    return tuple(tuple(m) for m in money)


def draw_hands(stock: Sequence[Card], order: Sequence[int], players: int) -> tuple[Card | None, ...]:
    """One card each from the top of ``stock`` for the seats in ``order``;
    None for the seats not in it."""
    hands: list[Card | None] = [None] * players
    for seat, c in zip(order, stock):
        hands[seat] = c
    return tuple(hands)


def seeded_deck(seed_hex: str, shuffle: int, cards: Sequence[Card]) -> tuple[Card, ...]:
    """The order the committed seed gives ``cards`` in shuffle number ``shuffle``."""
    return deck_from_seed(bytes.fromhex(seed_hex), shuffle, (), sorted(cards, key=lambda c: c.index))

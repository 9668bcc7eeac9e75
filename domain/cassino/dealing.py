"""Dealing: which cards go where, for a deck given top card first.

The deal is a pure function of the deck order, so a fixed deck means one
deal. Cards leave the deck from the top in packets (two at a time, or one
with ``deal_packet: 1``), clockwise from the dealer's left
(``docs/rules.md`` writes out each pattern):

- first round of a hand: in each pass every player but the dealer gets a
  packet, then a packet goes face up to the table, then the dealer gets one;
  passes go on until each player holds four cards and the table shows four;
- later rounds: the same without the table's packets, four cards each;
- with ``refill_singly`` (Stealing Bundles), later rounds go one card at a
  time, as each player draws in turn from the stock;
- when the cards left after a round would be too few for another full
  round, that round shares out all of them (five players: five each).

With two players that is the classic "two to the opponent, two to the
table, two to the dealer, and again".
"""

from __future__ import annotations

from collections.abc import Sequence

from ..cards import Card, full_deck
from .options import Options

TABLE = -1
HAND_SIZE = 4
TABLE_SIZE = 4
FIVE_HAND_REMOVED = ("2H", "2D", "2C")


def deck_for(options: Options) -> tuple[Card, ...]:
    """The cards a game is played with, in new-deck order."""
    deck = full_deck()
    if options.deck == "five_hand":
        deck = tuple(c for c in deck if c.code not in FIVE_HAND_REMOVED)
    return deck


def round_order(players: int, dealer: int, first: bool, packet: int = 2,
                each: int = HAND_SIZE) -> list[tuple[int, int]]:
    """The packets of one round, in order: ``(recipient, cards)``, ``TABLE``
    for the table."""
    seats = [(dealer + 1 + i) % players for i in range(players)]  # the dealer is last
    order: list[tuple[int, int]] = []
    given, to_table = 0, TABLE_SIZE if first else 0
    while given < each:
        size = min(packet, each - given)
        order += [(s, size) for s in seats[:-1]]
        if to_table:
            order.append((TABLE, min(packet, to_table)))
            to_table -= min(packet, to_table)
        order.append((seats[-1], size))
        given += size
    return order


def deal_round(stock: Sequence[Card], players: int, dealer: int, first: bool,
               options: Options) -> tuple[tuple[tuple[Card, ...], ...], tuple[Card, ...], tuple[Card, ...]]:
    """Deal one round from the top of ``stock``.

    Returns ``(hands, table, rest)``: the cards each seat receives, the cards
    laid face up on the table, and what is left of the stock.
    """
    table_cards = TABLE_SIZE if first else 0
    full_round = players * HAND_SIZE + table_cards
    left_after = len(stock) - full_round
    each = HAND_SIZE
    if 0 < left_after < players * HAND_SIZE:
        each = (len(stock) - table_cards) // players  # the last round shares out every card
    hands: list[list[Card]] = [[] for _ in range(players)]
    table: list[Card] = []
    pos = 0
    size_of_packet = 1 if options.refill_singly and not first else options.deal_packet
    for who, size in round_order(players, dealer, first, size_of_packet, each):
        packet = stock[pos:pos + size]
        pos += size
        (table if who == TABLE else hands[who]).extend(packet)
    return tuple(tuple(h) for h in hands), tuple(table), tuple(stock[pos:])

"""Dealing: which cards go where, for a deck given top card first.

The deal is a pure function of the deck order, so a fixed deck means one
deal. Cards leave the deck from the top in packets of two, clockwise from
the dealer's left (``docs/rules.md`` writes out each pattern):

- first round of a hand: each player but the dealer gets two, then two go
  face up to the table, then the dealer gets two; and the same again;
- later rounds: the same without the table's packets.

With two players that is the classic "two to the opponent, two to the
table, two to the dealer, and again".
"""

from __future__ import annotations

from collections.abc import Sequence

from .cards import Card

TABLE = -1
PACKET = 2
HAND_SIZE = 4
TABLE_SIZE = 4


def round_order(players: int, dealer: int, first: bool) -> list[int]:
    """The recipients of each packet in one round, ``TABLE`` for the table."""
    seats = [(dealer + 1 + i) % players for i in range(players)]  # the dealer is last
    one_pass = seats[:-1] + ([TABLE] if first else []) + seats[-1:]
    return one_pass * (HAND_SIZE // PACKET)


def deal_round(stock: Sequence[Card], players: int, dealer: int, first: bool):
    """Deal one round from the top of ``stock``.

    Returns ``(hands, table, rest)``: the cards each seat receives, the cards
    laid face up on the table, and what is left of the stock.
    """
    hands: list[list[Card]] = [[] for _ in range(players)]
    table: list[Card] = []
    pos = 0
    for who in round_order(players, dealer, first):
        packet = stock[pos:pos + PACKET]
        pos += PACKET
        (table if who == TABLE else hands[who]).extend(packet)
    return tuple(tuple(h) for h in hands), tuple(table), tuple(stock[pos:])


def rounds_per_hand(players: int, deck_size: int = 52) -> int:
    return (deck_size - TABLE_SIZE) // (HAND_SIZE * players)

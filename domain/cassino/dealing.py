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
  round, that round shares out all of them (five players: five each);
  the few that do not go round evenly (fewer than one each) are laid face
  up on the table (Callabra's 47 cards in hands).

``hand_size`` and ``table_size`` say how many cards each hand and the first
table get (Diamond three each, Callabra three and five, Tablanette six); a
table still owed cards once the hands are full gets them last.

With two players that is the classic "two to the opponent, two to the
table, two to the dealer, and again". ``counter_clockwise`` goes round the
other way, and ``african_deal`` (003 African) is a deal of its own: see
:func:`_african_round`.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..cards import Card, full_deck
from .options import Options

TABLE = -1
AFRICAN_TABLE_SIZE = 4
FIVE_HAND_REMOVED = ("2H", "2D", "2C")


def deck_for(options: Options) -> tuple[Card, ...]:
    """The cards a game is played with, in new-deck order: all 52, the
    five-hand deck (three twos removed) or the forty cards without courts."""
    deck = full_deck()
    if options.deck == "five_hand":
        deck = tuple(c for c in deck if c.code not in FIVE_HAND_REMOVED)
    elif options.deck == "forty":
        deck = tuple(c for c in deck if not c.is_court)
    return deck


def play_order(players: int, dealer: int, counter_clockwise: bool = False) -> list[int]:
    """The seats from the dealer's next (left, or right when counter-clockwise)
    round to the dealer, who comes last."""
    step = -1 if counter_clockwise else 1
    return [(dealer + step * (1 + i)) % players for i in range(players)]


def round_order(players: int, dealer: int, to_table: int, packet: int = 2,
                each: int = 4, counter_clockwise: bool = False) -> list[tuple[int, int]]:
    """The packets of one round, in order: ``(recipient, cards)``, ``TABLE``
    for the table, which is owed ``to_table`` cards."""
    seats = play_order(players, dealer, counter_clockwise)  # the dealer is last
    order: list[tuple[int, int]] = []
    given = 0
    while given < each:
        size = min(packet, each - given)
        order += [(s, size) for s in seats[:-1]]
        if to_table:
            order.append((TABLE, min(packet, to_table)))
            to_table -= min(packet, to_table)
        order.append((seats[-1], size))
        given += size
    if to_table:
        order.append((TABLE, to_table))
    return order


def deal_round(stock: Sequence[Card], players: int, dealer: int, first: bool,
               options: Options) -> tuple[tuple[tuple[Card, ...], ...], tuple[Card, ...], tuple[Card, ...]]:
    """Deal one round from the top of ``stock``.

    Returns ``(hands, table, rest)``: the cards each seat receives, the cards
    laid face up on the table, and what is left of the stock.
    """
    if options.african_deal:
        return _african_round(stock, players, dealer, first, options)
    table_cards = options.table_size if first else 0
    each = options.hand_size
    left_after = len(stock) - players * each - table_cards
    if 0 < left_after < players * each:  # the last round shares out every card
        each, over = divmod(len(stock) - table_cards, players)
        table_cards += over
    hands: list[list[Card]] = [[] for _ in range(players)]
    table: list[Card] = []
    pos = 0
    size_of_packet = 1 if options.refill_singly and not first else options.deal_packet
    for who, size in round_order(players, dealer, table_cards, size_of_packet, each, options.counter_clockwise):
        packet = stock[pos:pos + size]
        pos += size
        (table if who == TABLE else hands[who]).extend(packet)
    return tuple(tuple(h) for h in hands), tuple(table), tuple(stock[pos:])


#: African with two players: each batch gives 12 cards to each (003).
AFRICAN_TWO_HANDED_BATCH = 12


def african_table_slice(deck_size: int) -> slice:
    """Where "the middle of the deck" is (003 African): the four cards with as
    many cards above them as below, positions 24 to 27 (from 0, top first)
    of a 52-card deck."""
    start = (deck_size - AFRICAN_TABLE_SIZE) // 2
    return slice(start, start + AFRICAN_TABLE_SIZE)


def _african_round(stock: Sequence[Card], players: int, dealer: int, first: bool,
                   options: Options) -> tuple[tuple[tuple[Card, ...], ...], tuple[Card, ...], tuple[Card, ...]]:
    """``african_deal``: in the first round the table's four come out of the
    deck's middle; then the cards left, top first, go one at a time in turn
    order from the dealer's next seat: all of them with three or four
    players, twelve each per round with two."""
    table: tuple[Card, ...] = ()
    rest = tuple(stock)
    if first:
        middle = african_table_slice(len(rest))
        table, rest = rest[middle], rest[:middle.start] + rest[middle.stop:]
    each = min(AFRICAN_TWO_HANDED_BATCH, len(rest) // players) if players == 2 else len(rest) // players
    hands: list[list[Card]] = [[] for _ in range(players)]
    order = play_order(players, dealer, options.counter_clockwise)
    for i, card in enumerate(rest[:each * players]):
        hands[order[i % players]].append(card)
    return tuple(tuple(h) for h in hands), table, rest[each * players:]

"""The end of the game, the count and the winner (seed 000)."""

from domain.cards import cards
from domain.masscool.events import HandsDrawn, MoneyCounted, PotWon

from .table import Table, stacked_deck

#: The final count, written out independently of the engine.
WORTH = {"A": 1, "J": 11, "Q": 12, "K": 16}


def worth(codes) -> int:
    return sum(WORTH.get(c.code[:-1]) or int(c.code[:-1]) for c in codes)


def test_the_game_ends_when_the_deck_cannot_give_every_player_a_hand():
    """"The game ends when there are not enough cards left in the deck for every player to draw a hand.\""""
    # 2 x 25 cards of money leave 2 in the stock: one round, then the end.
    t = Table(2, deck=stacked_deck(2, 0, 25, stock="KD QD"), options={"money": 25})
    t.bet(0, t.state.money[0][0].code)
    t.bet(1, t.state.money[1][0].code)
    events = t.stop(0)
    assert [type(e) for e in events[1:]] == [PotWon, MoneyCounted]
    assert events[-1].reason == "deck_out" and t.state.status == "finished"
    assert len(t.of(HandsDrawn)) == 1


def test_money_is_counted_ace_1_pips_jack_11_queen_12_king_16_and_the_highest_total_wins():
    """"Aces are worth 1, number cards are worth their value, Jacks are worth 11, Queens 12, and Kings 16.
    The player with the highest total value is declared the winner.\""""
    deck = stacked_deck(3, 0, 16, {0: "KS KH KC AS", 1: "QS QH QC JS", 2: "10S 10H 10C 9S"}, stock="2D 3D 4D")
    t = Table(3, deck=deck, options={"money": 16})
    for seat in (0, 1, 2):
        t.bet(seat, t.state.money[seat][0].code)
    t.stop(0)  # 4D wins for seat 2; 1 card left: the end
    counted = t.events[-1]
    assert counted.totals == tuple(worth(m) for m in t.state.money)
    assert counted.winners == (max(range(3), key=lambda s: counted.totals[s]),)
    assert t.state.outcome.winners == counted.winners


def test_equal_highest_totals_share_the_win():
    """The seed names one winner; equal highest totals are a shared win (docs/rules.md)."""
    spades_clubs = " ".join(c + s for s in "SC" for c in "A 2 3 4 5 6 7 8 9 10 J Q K".split() if c + s != "4C")
    hearts_diamonds = " ".join(c + s for s in "HD" for c in "A 2 3 4 5 6 7 8 9 10 J Q K".split() if c + s != "2D")
    deck = stacked_deck(2, 0, 25, {0: spades_clubs, 1: hearts_diamonds}, stock="4C 2D")
    t = Table(2, deck=deck, options={"money": 25})
    t.bet(0, "AS")
    t.bet(1, "AH")
    events = t.stop(0)  # the 4 of clubs beats the 2 of diamonds
    assert events[1].winner == 0
    assert events[-1] == MoneyCounted((185, 185), (0, 1), "deck_out")
    assert worth(t.state.money[0]) == worth(t.state.money[1]) == 185

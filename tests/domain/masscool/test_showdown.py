"""The showdown, the broke and the tie (seed 000)."""

import pytest

from domain.cards import cards
from domain.masscool import Bet, Reshuffle, legal_moves
from domain.masscool.events import DeckReshuffled, HandsDrawn, MoneyCounted, PotTied, PotWon

from .table import Table, reshuffled, stacked_deck


def two(stock: str, options=None) -> Table:
    deck = stacked_deck(2, 0, 10, {0: "2S 3S 4S 5S 6S 7S 8S 9S 10S JS", 1: "2H 3H 4H 5H 6H 7H 8H 9H 10H JH"},
                       stock=stock)
    return Table(2, deck=deck, options=options)


def even_round(t: Table) -> list:
    """One card each, then the leader stops."""
    leader = t.state.turn
    t.bet(leader, t.state.money[leader][0].code)
    other = t.state.turn
    t.bet(other, t.state.money[other][0].code)
    return t.stop(leader)


def test_the_highest_card_takes_every_bet_into_its_owners_money():
    """"The highest card wins the pot, and the owner of this card collects all the players' bets and adds
    them to his/her money.\""""
    t = two("QD KD")
    won = even_round(t)[1]
    assert won == PotWon(1, cards("QD KD"), 1, cards("2S 2H"), ())
    assert t.state.money[1][-2:] == cards("2S 2H") and len(t.state.money[1]) == 11
    assert set(t.state.discards) == set(cards("QD KD"))  # the shown hands leave the game


@pytest.mark.parametrize("ace_high, winner", [(True, 0), (False, 1)])
def test_the_ace_is_the_highest_card_unless_the_game_says_low(ace_high, winner):
    """The seed is silent on the ranks' order; like War, to which it likens itself, aces rank highest."""
    t = two("AD KD", {"ace_high": ace_high})
    assert even_round(t)[1].winner == winner


def test_suits_do_not_break_a_tie_for_the_highest_card():
    t = two("KD KC")
    assert isinstance(even_round(t)[1], PotTied)


def test_a_broke_player_is_skipped_and_need_not_match():
    """"A player who runs out of money is not required to match ... betting continues as normal, skipping
    over that player.\""""
    deck = stacked_deck(3, 0, 4, {0: "2S 3S 4S 5S", 1: "2H 3H 4H 5H", 2: "2C 3C 4C 5C"}, stock="3D 2D KD")
    t = Table(3, deck=deck, options={"money": 4})
    t.bet(0, "2S")
    t.bet(1, "2H 3H 4H 5H")  # all of it
    t.bet(2, "2C")
    assert t.state.turn == 0
    t.bet(0, "3S 4S 5S")  # four in all, more than seat 1 had
    assert t.state.turn == 2  # seat 1, broke, is skipped
    assert not legal_moves(t.state, 1)
    t.stop(2)
    assert t.state.turn == 2  # seat 1 owes nothing: broke
    won = t.bet(2, "3C 4C 5C")[1]
    assert won.winner == 2 and won.knocked_out == (0, 1)


def test_a_broke_player_who_wins_the_pot_stays_in():
    """"If the player without money does not win that pot, they lose and are out of the game.\""""
    deck = stacked_deck(3, 0, 4, {0: "2S 3S 4S 5S", 1: "2H 3H 4H 5H", 2: "2C 3C 4C 5C"}, stock="3D KD 2D")
    t = Table(3, deck=deck, options={"money": 4})
    t.bet(0, "2S")
    t.bet(1, "2H 3H 4H 5H")
    t.bet(2, "2C")
    t.stop(0)
    t.bet(2, "3C 4C 5C")
    won = t.bet(0, "3S 4S 5S")[1]
    assert won.winner == 1 and won.knocked_out == (0, 2)
    assert isinstance(t.events[-1], MoneyCounted) and t.state.outcome.winners == (1,)


def test_a_broke_player_who_loses_the_pot_is_out_and_draws_no_more():
    deck = stacked_deck(3, 0, 4, {0: "2S 3S 4S 5S", 1: "2H 3H 4H 5H", 2: "2C 3C 4C 5C"},
                        stock="KD 2D 3D  4D KC 5D  6D KH 7D  8D 9D")
    t = Table(3, deck=deck, options={"money": 4})
    for leader in (0, 1):  # one card each; seat 0 takes the first pot, seat 2 the second
        for seat in (leader, (leader + 1) % 3, (leader + 2) % 3):
            t.bet(seat, t.state.money[seat][0].code)
        t.stop(leader)
    assert [len(m) for m in t.state.money] == [5, 2, 5]
    t.bet(2, "3C")
    t.bet(0, "4S")
    t.bet(1, "4H 5H")  # all seat 1 has
    t.stop(2)
    assert t.state.turn == 0
    t.bet(0, "5S")
    assert t.state.turn == 2  # seat 1, broke, is skipped
    won = t.bet(2, "4C")[1]
    assert won.winner == 0 and won.knocked_out == (1,)
    drawn = t.of(HandsDrawn)[-1]
    assert drawn.leader == 0 and drawn.hands == (cards("8D")[0], None, cards("9D")[0])
    assert t.refused(Bet(1, cards("2S"))) == "out_of_game"


def test_a_tie_gathers_bets_and_hands_for_a_reshuffle_and_the_round_starts_again():
    """"In the event of a tie, all bets and hands are shuffled into the deck and the process is restarted.\""""
    t = two("KD KC")
    stock_before = t.state.stock
    tied = even_round(t)[1]
    assert tied == PotTied(1, cards("KD KC"), (0, 1))
    assert t.state.status == "reshuffle" and t.state.turn is None
    assert sorted(t.state.gathered) == sorted(cards("2S 2H KD KC"))
    assert t.refused(Bet(0, cards("3S"))) == "betting_closed"
    assert t.refused(Reshuffle(reshuffled(t.state, "")[1:])) == "invalid_deck"
    assert t.refused(Reshuffle()) == "no_shuffle_committed"  # an operator's game: the operator gives the deck
    events = t.reshuffle("KC 3D")
    assert events[0].shuffle == 2 and events[0].fixed and events[0].commitment is None
    assert events[0].deck[:2] == cards("KC 3D")
    assert sorted(events[0].deck) == sorted(stock_before + cards("2S 2H KD KC"))
    redraw = events[1]
    assert redraw == HandsDrawn(1, 0, cards("KC 3D"))  # the same round, the same leader
    assert t.state.turn == 0 and t.state.bets == ((), ())


def test_a_broke_player_stays_in_through_a_tie():
    """A tie decides no pot, so no one is out after it (docs/rules.md)."""
    deck = stacked_deck(2, 0, 2, {0: "2S 3S", 1: "2H 3H"}, stock="KD KC")
    t = Table(2, deck=deck, options={"money": 2})
    t.bet(0, "2S 3S")
    tied = t.bet(1, "2H 3H")[-1]
    assert isinstance(tied, PotTied) and t.state.out == (False, False)
    events = t.reshuffle("AD 4D")  # no one has money: the hands are shown at once
    assert [type(e) for e in events] == [DeckReshuffled, HandsDrawn, PotWon, MoneyCounted]
    assert events[2].pot == () and events[2].knocked_out == (1,)
    assert t.state.outcome.winners == (0,) and t.state.outcome.reason == "last_player"

"""Bets, the stop and the evening out of the bets (seed 000)."""

from domain.cards import cards
from domain.masscool import Bet, Stop, legal_moves
from domain.masscool.events import BetPlaced, PotWon, StopCalled

from .table import Table, stacked_deck

# Two players, dealer 0: seat 0 leads and draws first.
TWO = stacked_deck(2, 0, 10, {0: "2S 3S 4S 5S 6S 7S 8S 9S 10S JS", 1: "2H 3H 4H 5H 6H 7H 8H 9H 10H JH"},
                   stock="KD 5D")


def test_a_bet_is_one_or_more_cards_of_ones_own_money():
    """"The bet consists of one or more cards placed face up ... as long as they bet at least one card.\""""
    t = Table(2, deck=TWO)
    assert t.refused(Bet(0, ())) == "empty_bet"
    assert t.refused(Bet(0, cards("2H"))) == "card_not_in_money"
    assert t.refused(Bet(0, cards("2S 2S"))) == "duplicate_card"
    assert t.bet(0, "2S 3S 4S") == [BetPlaced(0, cards("2S 3S 4S"))]
    assert t.state.bets[0] == cards("2S 3S 4S") and len(t.state.money[0]) == 7


def test_stop_is_called_on_ones_turn_after_betting_once_this_round():
    """"Play continues to the left until a player shouts stop during their turn." Before the stop, each
    player has bet at least once (docs/rules.md)."""
    t = Table(2, deck=TWO)
    assert t.refused(Stop(0)) == "stop_before_bet"
    t.bet(0, "2S")
    assert t.refused(Stop(0)) == "not_your_turn"
    assert t.refused(Stop(1)) == "stop_before_bet"
    t.bet(1, "2H")
    assert t.stop(0)[0] == StopCalled(0)


def test_after_the_stop_bets_are_evened_out_by_count_and_no_one_raises():
    """"players continue to place bets until every player has bet the same number of cards\""""
    t = Table(2, deck=TWO)
    t.bet(0, "2S")
    t.bet(1, "2H 3H 4H")
    t.stop(0)
    assert t.state.turn == 0  # the stopper is short by two: seat 1 has nothing to add
    assert t.refused(Stop(1)) == "not_your_turn"
    assert t.refused(Bet(0, cards("3S"))) == "must_even_out"
    assert t.refused(Bet(0, cards("3S 4S 5S"))) == "must_even_out"
    events = t.bet(0, "3S 4S")
    assert isinstance(events[-2], PotWon) and events[-2].winner == 0  # the king
    assert sorted(events[-2].pot) == sorted(cards("2S 3S 4S 2H 3H 4H"))


def test_after_the_stop_the_others_even_out_in_turn():
    t = Table(3, deck=stacked_deck(3, 0, 8, {0: "2S 3S 4S", 1: "2H 3H 4H", 2: "2C 3C 4C"}, stock="2D 3D KD"))
    t.bet(0, "2S")
    t.bet(1, "2H 3H 4H")
    t.bet(2, "2C")
    t.stop(0)
    assert t.refused(Stop(2)) == "already_stopped"
    assert t.state.turn == 2
    assert {len(m.cards) for m in legal_moves(t.state, 2)} == {2}
    t.bet(2, "3C 4C")
    assert t.state.turn == 0
    won = t.bet(0, "3S 4S")[1]
    assert won.winner == 2 and len(won.pot) == 9


def test_the_stop_ends_the_betting_at_once_when_the_bets_are_even():
    t = Table(2, deck=TWO)
    t.bet(0, "2S 3S")
    t.bet(1, "2H 3H")
    events = t.stop(0)
    assert [type(e) for e in events][:2] == [StopCalled, PotWon]

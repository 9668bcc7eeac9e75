"""The deal, the hands and the order of betting (seed 000)."""

import pytest

from domain.cards import cards, full_deck
from domain.errors import RuleViolation
from domain.masscool import Bet, CreateGame, Deal, Stop, decide, fold, game_view
from domain.masscool.events import HandsDrawn, PotWon

from .table import Table, stacked_deck


@pytest.mark.parametrize("players, each", [(2, 10), (3, 8), (4, 6), (5, 6), (6, 6), (7, 6), (8, 5)])
def test_each_player_is_dealt_the_money_for_the_number_of_players(players, each):
    """"If there are two players, each player recieves 10 cards. If there are three players, each player
    receives 8 cards. If there are 4 or more players, each player recieves 6 cards." Eight players get 5:
    six each would leave four cards, not a hand for everyone (docs/rules.md)."""
    t = Table(players, deck=full_deck())
    assert [len(m) for m in t.state.money] == [each] * players
    assert len(t.state.stock) == 52 - players * each - players  # one hand each drawn


def test_money_is_dealt_one_card_at_a_time_from_the_dealers_left_face_up():
    """"each player is dealt cards face up. This is the player's money.\""""
    deck = full_deck()
    t = Table(3, dealer=1, deck=deck)
    assert t.state.money == (deck[1:24:3], deck[2:24:3], deck[0:24:3])  # seat 2 first, the dealer last
    spectator = game_view(t.state)
    assert [s["money"] for s in spectator["seats"]] == [[c.code for c in m] for m in t.state.money]


def test_a_fixed_deck_means_one_deal():
    deck = stacked_deck(4, 2, 6, {0: "KS QS", 3: "AH"}, stock="5D 6D 7D 8D")
    first, second = Table(4, dealer=2, deck=deck), Table(4, dealer=2, deck=deck)
    assert first.events == second.events
    assert first.state.money[0][:2] == cards("KS QS") and first.state.money[3][0] == cards("AH")[0]


def test_every_player_draws_one_hidden_card_the_leader_first():
    """"To start, each player draws a card and looks at it. This is the player's hand.\""""
    deck = stacked_deck(3, 1, 8, stock="5D 6D 7D")
    t = Table(3, dealer=1, deck=deck)
    assert t.state.hands == cards("7D 5D 6D")  # seat 1 (the dealer, who leads) drew first
    assert game_view(t.state, seat=0)["hand"] == "7D"
    own = repr(game_view(t.state, seat=0))
    assert "'5D'" not in own and "'6D'" not in own
    spectator = repr(game_view(t.state))
    assert all(f"'{code}'" not in spectator for code in ("5D", "6D", "7D"))


def test_the_dealer_bets_first_and_betting_goes_to_the_left():
    """"The dealer begins play by placing a bet ... The player to the left then makes a bet.\""""
    t = Table(3, dealer=1, deck=full_deck())
    assert t.state.turn == 1
    assert t.refused(Bet(2, t.state.money[2][:1])) == "not_your_turn"
    t.bet(1, t.state.money[1][0].code)
    assert t.state.turn == 2
    t.bet(2, t.state.money[2][0].code)
    assert t.state.turn == 0


def test_each_later_round_is_begun_one_seat_further_clockwise():
    """"In subsequent hands, players take turns in clockwise order to begin the betting.\""""
    deck = stacked_deck(3, 1, 8, stock="KD 2D 3D  KC 2C 3C  KH 2H 3H")
    t = Table(3, dealer=1, deck=deck)
    leaders = []
    for _ in range(3):
        leader = t.state.turn
        leaders.append(leader)
        for seat in (leader, (leader + 1) % 3, (leader + 2) % 3):
            t.bet(seat, t.state.money[seat][0].code)
        t.stop(leader)
    assert leaders == [1, 2, 0]
    assert [e.leader for e in t.of(HandsDrawn)] == [1, 2, 0, 1]
    assert [e.winner for e in t.of(PotWon)] == [1, 2, 0]  # each leader drew the king


def refused(state, command) -> str:
    with pytest.raises(RuleViolation) as refusal:
        decide(state, command)
    return refusal.value.rule


def undealt(players=2):
    return fold(decide(None, CreateGame(tuple(f"P{i}" for i in range(players)), 0)))


def test_the_dealer_or_the_operator_deals_once():
    assert refused(undealt(), Deal(full_deck(), seat=1)) == "not_dealer"
    assert decide(undealt(), Deal(full_deck(), seat=0)) == decide(undealt(), Deal(full_deck()))
    t = Table(2, dealer=0, deck=full_deck())
    assert t.refused(Deal(full_deck(), 0)) == "already_dealt"


def test_a_deck_must_hold_every_card_once_or_come_from_a_committed_seed():
    for bad in (full_deck()[:-1], full_deck()[:-1] + full_deck()[:1]):
        assert refused(undealt(), Deal(bad)) == "invalid_deck"
    assert refused(undealt(), Deal()) == "no_shuffle_committed"


def test_no_one_bets_or_stops_before_the_deal():
    for command in (Bet(0, cards("AS")), Stop(0)):
        assert refused(undealt(), command) == "betting_closed"

"""Every rule of Mass Cool Casino a request can break, answered 422 with its
``rule`` (docs/rules.md, "Notation and rule names"), and nothing appended.

Three rules cannot be reached over HTTP: ``not_a_seat`` (a token is always
a seat of its game), ``no_reshuffle_due`` (the operator's deal outside a tie
is ``already_dealt``) and ``no_game`` (a game that does not exist is 404).
"""

from __future__ import annotations

import pytest

from .conftest import ORDERED_DECK
from .masscool import VARIANT, HttpTable, deck_codes

MONEY = {0: "KS QS JS", 1: "KH QH", 2: "KC"}


@pytest.fixture
def table(api) -> HttpTable:
    """Three players, seat 0 deals and bets first; hands 2D 3D 4D."""
    return HttpTable(api, 3, deck_codes(3, 0, 8, MONEY, stock="2D 3D 4D"))


def refused(t: HttpTable, response) -> str:
    """The rule, and the game unchanged by the refusal."""
    before = t.view()["version"]
    rule = t.refused(response)
    assert t.view()["version"] == before
    return rule


def refused_by(api, response) -> str:
    assert response.status_code == 422, response.get_json()
    return response.get_json()["rule"]


def play(t: HttpTable, seat: int, action: str, *cards: str):
    body = {"action": action, "cards": list(cards)} if action == "bet" else {"action": action}
    return t.post(seat, body)


def test_the_dealer_bets_first_and_play_goes_to_the_left(table):
    """"The dealer begins play by placing a bet using his/her "money". [...] The player to the left then
    makes a bet.\""""
    assert refused(table, play(table, 1, "bet", "KH")) == "not_your_turn"
    table.bet(0, "KS")
    assert refused(table, play(table, 2, "bet", "KC")) == "not_your_turn"
    assert table.view(None)["turn"] == 1


def test_a_bet_is_one_or_more_cards_of_the_players_own_money(table):
    """"The bet consists of one or more cards placed face up on the table in front of the player.\""""
    assert refused(table, play(table, 0, "bet")) == "empty_bet"
    assert refused(table, play(table, 0, "bet", "KS", "ks")) == "duplicate_card"
    assert refused(table, play(table, 0, "bet", "KH")) == "card_not_in_money"  # seat 1's
    assert refused(table, play(table, 0, "bet", "2D")) == "card_not_in_money"  # its own hand
    assert [e["type"] for e in table.bet(0, "KS QS")] == ["BetPlaced"]


def test_stop_comes_after_ones_own_bet_and_only_once(table):
    """"Play continues to the left until a player shouts stop during their turn [...]. When this happens,
    players continue to place bets until every player has bet the same number of cards." Stop needs a bet of
    one's own first, and one stop ends the raising (docs/rules.md)."""
    assert refused(table, play(table, 0, "stop")) == "stop_before_bet"
    table.bet(0, "KS")
    table.bet(1, "KH QH")
    table.bet(2, "KC")
    table.stop(0)
    view = table.view(None)
    assert view["stopped_by"] == 0 and view["turn"] == 2
    assert refused(table, play(table, 2, "stop")) == "already_stopped"
    assert refused(table, play(table, 2, "bet", *view["seats"][2]["money"][:2])) == "must_even_out"
    events = table.bet(2, view["seats"][2]["money"][:1])  # the one card it owes
    assert table.view(None)["turn"] == 0
    assert refused(table, play(table, 0, "bet", "QS", "JS")) == "must_even_out"
    events = table.bet(0, "QS")
    assert [e["type"] for e in events] == ["BetPlaced", "PotWon", "HandsDrawn"]


def test_dealing_is_the_dealers_and_happens_once(api):
    game = api.create(players=3, variant=VARIANT, first_dealer=2)
    assert refused_by(api, api.post(f"{game.url}/play", json={"action": "stop"}, token=game.tokens[0])) \
        == "betting_closed"
    assert refused_by(api, api.deal(game, token=game.tokens[0])) == "not_dealer"
    assert refused_by(api, api.deal(game, ORDERED_DECK[:51] + ORDERED_DECK[:1])) == "invalid_deck"
    assert api.deal(game, token=game.tokens[2]).status_code == 200
    assert refused_by(api, api.deal(game, token=game.tokens[2])) == "already_dealt"
    assert refused_by(api, api.deal(game)) == "already_dealt"


def test_a_tie_in_a_fixed_game_waits_for_the_operators_deck(api):
    """A game whose deck the operator fixed committed no seed for its reshuffles: the operator deals the
    tied pot back in (docs/rules.md, "Fair dealing")."""
    t = HttpTable(api, 2, deck_codes(2, 0, 10, stock="KD KC"))
    t.one_card_each()
    assert t.view(None)["status"] == "reshuffle"
    assert refused(t, play(t, 0, "bet", t.money(0)[0])) == "betting_closed"
    assert refused(t, t.api.deal(t.game)) == "no_shuffle_committed"
    assert refused(t, t.api.deal(t.game, token=t.game.tokens[0])) == "already_dealt"
    assert refused(t, t.api.deal(t.game, ORDERED_DECK)) == "invalid_deck"  # not the cards to reshuffle
    assert t.reshuffle("QD 2D")[0]["type"] == "DeckReshuffled"


def test_a_player_knocked_out_plays_no_more_and_a_finished_game_takes_nothing(api):
    """"If the player without money does not win that pot, they lose and are out of the game.\""""
    t = HttpTable(api, 5, deck_codes(5, 0, 5, stock="KD KC 2D 3D 4D"), options={"money": 5})
    t.one_card_each()  # a tie
    t.reshuffle("KD 2D 3D 4D 8D  KC 9D 10D JD QD  AC 2C 3C 4C 5C  QC 6C 7C 8C 9C")
    for winner in (0, 1, 2):
        assert t.one_card_each()[0]["data"]["winner"] == winner
    won = t.one_card_each()[0]["data"]  # seat 4 bet its last card and lost
    assert won["winner"] == 3 and won["knocked_out"] == [4]
    view = t.view(None)
    assert view["status"] == "betting" and view["seats"][4]["out"] and view["seats"][4]["money"] == []
    assert refused(t, play(t, 4, "bet", "AS")) == "out_of_game"
    assert refused(t, play(t, 4, "stop")) == "out_of_game"
    over = HttpTable(api, 2, deck_codes(2, 0, 25, stock="KD QD"), options={"money": 25})
    over.one_card_each()
    assert over.view(None)["status"] == "finished"
    assert refused(over, play(over, 1, "stop")) == "game_over"
    assert refused(over, over.api.deal(over.game)) == "game_over"


@pytest.mark.parametrize("path,body,token", [
    ("count-out", {}, "seat"),
    ("client-seed", {"seed": "mine"}, "seat"),
    ("void", {"reason": "a misdeal"}, "operator"),
    ("play", {"card": "KS", "action": "trail"}, "seat"),
    ("play", {"card": "KS", "action": "capture", "targets": ["KH"]}, "seat"),
])
def test_what_only_cassino_has_is_not_in_this_game(table, operator, path, body, token):
    response = table.api.post(f"{table.url}/{path}", json=body,
                              token=operator if token == "operator" else table.game.tokens[0])
    assert refused(table, response) == "not_in_this_game"


@pytest.mark.parametrize("body", [{"action": "bet", "cards": ["AS"]}, {"action": "stop"}])
def test_a_mass_cool_casino_move_is_not_in_a_cassino_game(api, body):
    game = api.create(first_dealer=1)
    api.deal(game, ORDERED_DECK)
    assert refused_by(api, api.post(f"{game.url}/play", json=body, token=game.tokens[0])) == "not_in_this_game"


@pytest.mark.parametrize("body", [{"action": "bet", "cards": "KS"}, {"action": "raise"},
                                  {"action": "stop", "cards": ["KS"]}, {"action": "bet", "cards": ["1S"]}])
def test_a_body_that_is_no_move_of_either_game_is_malformed(table, body):
    response = table.post(0, body)
    assert response.status_code == 400 and response.get_json()["code"] == "malformed"

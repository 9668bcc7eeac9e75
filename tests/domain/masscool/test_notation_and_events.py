"""Moves in JSON and text, and events in their stored form."""

import pytest

from domain.cards import cards, full_deck
from domain.errors import NotationError
from domain.masscool import Bet, Move, Stop, command_for, from_json, to_json
from domain.masscool.events import EVENT_TYPES, BetPlaced, HandsDrawn
from domain.masscool.rules import Options

from .table import Table, stacked_deck


@pytest.mark.parametrize("text, body", [
    ("bet KS 7H", {"action": "bet", "cards": ["KS", "7H"]}),
    ("bet 10D", {"action": "bet", "cards": ["10D"]}),
    ("stop", {"action": "stop"}),
])
def test_a_move_reads_and_writes_the_same_in_text_and_json(text, body):
    move = Move.parse(text)
    assert str(move) == text and Move.parse(str(move)) == move
    assert move.to_dict() == body and Move.from_dict(body) == move
    assert eval(repr(move)) == move


def test_a_bet_names_its_cards_in_any_case_and_order_as_one_move():
    assert Move.parse("bet 7h td ks") == Move.from_dict({"action": "BET", "cards": ["KS", "10D", "7H"]})


@pytest.mark.parametrize("body", [
    [], {"cards": ["AS"]}, {"action": 3}, {"action": "trail"}, {"action": "bet", "cards": "AS"},
    {"action": "bet", "cards": ["ZZ"]}, {"action": "stop", "cards": ["AS"]}, {"action": "bet", "card": "AS"},
    {"action": "bet", "cards": ["AS"] * 53},
])
def test_a_bad_body_is_a_notation_error(body):
    with pytest.raises(NotationError):
        Move.from_dict(body)


def test_a_move_is_the_command_it_stands_for():
    assert command_for(2, Move.parse("bet AS")) == Bet(2, cards("AS"))
    assert command_for(2, Move.parse("stop")) == Stop(2)


def test_every_event_of_a_game_round_trips_through_json():
    t = Table(2, deck=stacked_deck(2, 0, 10, stock="AD AC 5H 6H"), seed=bytes(32), next_seed=bytes(range(32)))
    t.bet(0, t.state.money[0][0].code)
    t.bet(1, t.state.money[1][0].code)
    t.stop(0)
    t.reshuffle("KD 2D")
    assert {type(e).__name__ for e in t.events} >= {"TableOpened", "ShufflePromised", "ShuffleRevealed",
                                                      "MoneyDealt", "HandsDrawn", "BetPlaced", "StopCalled",
                                                      "PotTied", "DeckReshuffled"}
    for event in t.events:
        assert from_json(to_json(event)) == event
    assert to_json(t.events[0])["data"]["options"] == {"money": 10, "ace_high": True, "undo": "consent"}


def test_the_stored_form_is_plain_json_with_card_codes():
    drawn = HandsDrawn(3, 1, (None, *cards("KS 10D")))
    assert to_json(drawn) == {"type": "HandsDrawn", "schema_version": 1,
                              "data": {"round": 3, "leader": 1, "hands": [None, "KS", "10D"]}}


def test_no_event_name_is_one_of_cassinos():
    from domain.events import EVENT_TYPES as CASSINO
    assert not set(EVENT_TYPES) & set(CASSINO)


def test_unknown_and_newer_events_are_refused():
    with pytest.raises(NotationError):
        from_json({"type": "HandDealt", "schema_version": 1, "data": {}})
    with pytest.raises(NotationError):
        from_json({"type": "BetPlaced", "schema_version": 2, "data": {"seat": 0, "cards": []}})
    assert from_json({"type": "BetPlaced", "data": {"seat": 0, "cards": ["AS"]}}) == BetPlaced(0, cards("AS"))


def test_options_round_trip():
    assert Options.from_dict(Options(5, False, "off").to_dict()) == Options(5, False, "off")
    assert len(full_deck()) == 52

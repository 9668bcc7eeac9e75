"""The interface games share: the registry, fold's contract, and the enums
that stand for the strings clients see."""

import json

import pytest

import domain
from domain import (GAMES, Action, CreateGame, Deal, EndReason, Move, Status, decide, fold, from_json,
                    full_deck, game_of, to_json)
from domain.cassino.events import GameFinished


def test_every_variant_belongs_to_one_registered_game():
    assert GAMES["cassino"] is domain.cassino
    for name in domain.VARIANTS:
        assert game_of(name) is domain.cassino
    with pytest.raises(KeyError):
        game_of("poker")


def test_a_game_module_plays_through_the_interface_alone():
    game = game_of("cassino")
    state = game.fold(game.decide(None, CreateGame("cassino", ("Ann", "Bob"), 1)))
    events = game.decide(state, Deal(full_deck()))
    state = game.fold(events, state)
    assert state.version == 2 and game.legal_moves(state, state.turn).first().moves
    assert [game.from_json(game.to_json(e)) for e in events] == events


def test_fold_never_returns_none():
    with pytest.raises(ValueError):
        fold([])
    state = fold(decide(None, CreateGame("cassino", ("Ann", "Bob"), 1)))
    assert fold([], state) is state


def test_enums_compare_and_serialise_as_their_strings():
    state = fold(decide(None, CreateGame("cassino", ("Ann", "Bob"), 1)))
    assert state.status is Status.WAITING and state.status == "waiting"
    assert json.dumps({"status": state.status}) == '{"status": "waiting"}'
    move = Move.parse("5C trail")
    assert move.action is Action.TRAIL and move.to_dict() == {"card": "5C", "action": "trail"}
    assert type(move.to_dict()["action"]) is str


def test_an_end_reason_reads_back_as_the_enum():
    stored = json.loads(json.dumps(to_json(GameFinished(0, EndReason.TARGET, (21, 3)))))
    assert stored["data"]["reason"] == "target"
    assert from_json(stored).reason is EndReason.TARGET

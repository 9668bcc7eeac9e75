"""Rematches (domain/rematch.py): after the game, one seat offers, each
other accepts; the last answer names the new game, whose terms are the
finished game's with the first deal moved on; nothing else is rematched."""

from __future__ import annotations

import itertools

import pytest

from domain.clocks import ClockRule
from domain.errors import RuleViolation
from domain.game_types import game_of

PLAYERS = ("p-0", "p-1", "p-2")


def _game(variant, seats=2, first_dealer=0, clock=None, guest=False, finish=True):
    game = game_of(variant)
    state = game.fold(game.decide(None, game.create_command(variant, (None,) * seats, first_dealer, {},
                                                            b"s" * 32, clock, False)), times=itertools.repeat(None))
    for seat in range(seats):
        player = None if guest and seat == 1 else PLAYERS[seat]
        state = game.fold(game.decide(state, game.join_command(seat, f"name {seat}", player)), state)
    if finish:
        state = game.fold(game.decide(state, game.resign_command(0)), state)
    return game, state


def _answer(game, state, seat, new="new-game"):
    return game.fold(game.decide(state, game.rematch_command(seat, new)), state)


@pytest.mark.parametrize("variant", ["royal", "mass-cool-casino"])
def test_an_offer_and_every_acceptance_make_the_rematch_once(variant):
    game, state = _game(variant, seats=3)
    state = _answer(game, state, 1)
    assert game.game_view(state)["rematch"] == {"offered_by": 1, "accepted": [1], "game_id": None}
    state = _answer(game, state, 0)
    assert game.game_view(state)["rematch"]["game_id"] is None
    state = _answer(game, state, 2)
    assert game.game_view(state)["rematch"] == {"offered_by": 1, "accepted": [1, 0, 2], "game_id": "new-game"}
    with pytest.raises(RuleViolation) as refused:
        _answer(game, state, 0)
    assert refused.value.rule == "rematch_exists"


@pytest.mark.parametrize("variant", ["royal", "mass-cool-casino"])
def test_a_seat_answers_once(variant):
    game, state = _game(variant)
    state = _answer(game, state, 0)
    with pytest.raises(RuleViolation) as refused:
        _answer(game, state, 0)
    assert refused.value.rule == "rematch_answered"


@pytest.mark.parametrize("variant", ["royal", "mass-cool-casino"])
@pytest.mark.parametrize("kind, rule", [("unfinished", "game_not_over"), ("guest", "rematch_players_only")])
def test_an_unfinished_game_or_a_guests_seat_is_not_rematched(variant, kind, rule):
    game, state = _game(variant, guest=kind == "guest", finish=kind != "unfinished")
    with pytest.raises(RuleViolation) as refused:
        _answer(game, state, 0)
    assert refused.value.rule == rule


@pytest.mark.parametrize("variant", ["royal", "mass-cool-casino"])
def test_the_new_game_has_the_same_terms_and_the_next_first_dealer(variant):
    rule = ClockRule(60.0, 2.0)
    game, state = _game(variant, seats=3, first_dealer=2, clock=rule)
    terms = game.rematch_terms(state)
    assert (terms.variant, terms.options, terms.clock, terms.rated) == (
        variant, state.options.to_dict(), rule.to_dict(), False)
    assert terms.players == (("p-0", "name 0"), ("p-1", "name 1"), ("p-2", "name 2"))
    assert terms.first_dealer == state.left_of(2)

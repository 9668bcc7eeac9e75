"""Resigning and aborting (docs/rules.md, "Resigning", "Aborting"), in both
game types, with two sides and with more."""

from __future__ import annotations

import pytest

from domain import cassino, masscool
from domain.cards import Card
from domain.errors import RuleViolation
from domain.game_types import GAME_TYPES
from domain.kernel_events import SeatResigned
from tests.domain.test_seating import SEED, create, refused, then

GAMES = sorted(GAME_TYPES)


def dealt(game, names, first_dealer=0):
    return then(game, create(game, names, first_dealer), game.deal_command(first_dealer, None, SEED))


def first_move(game, state):
    seat = game.awaiting(state).seats[0]
    return game.command_for(seat, game.legal_moves(state, seat).first().moves[0], SEED)


@pytest.mark.parametrize("name", GAMES)
def test_with_two_players_the_one_who_did_not_resign_wins(name):
    game = GAME_TYPES[name]
    state = dealt(game, ("Ann", "Bob"))
    events = game.decide(state, game.resign_command(0))
    state = game.fold(events, state)
    assert state.status == "finished"
    view = game.game_view(state)
    assert (view["result"], view["winners"]) == ("resigned", [1])
    assert refused(game, state, game.resign_command(1)) == "game_over"


def test_a_partnership_that_resigns_loses_both_seats():
    state = cassino.fold(cassino.decide(None, cassino.create_command("partnership", ("A", "B", "C", "D"), 0, None,
                                                                     SEED)))
    state = then(cassino, state, cassino.deal_command(0, None, SEED), cassino.resign_command(3))
    assert cassino.outcome(state).winners == (0, 2) and cassino.outcome(state).result == "resigned"


def test_among_three_cassino_players_the_best_of_the_others_wins_and_a_tie_goes_round_from_the_resigner():
    state = dealt(cassino, ("Ann", "Bob", "Cy"), first_dealer=2)
    tied = cassino.fold(cassino.decide(state, cassino.resign_command(1)), state)
    assert cassino.outcome(tied).winners == (2,)  # 0-0: seat 2 comes first after seat 1
    ahead = state._replace(scores=(5, 0, 3))
    assert cassino.outcome(cassino.fold(cassino.decide(ahead, cassino.resign_command(2)), ahead)).winners == (0,)
    # points made sure of in the hand count: seat 2 holds the big casino and the aces
    holding = state._replace(scores=(1, 0, 0), captured=((), (), tuple(map(Card.parse, ["10D", "AS", "AH", "AC"]))))
    after = cassino.fold(cassino.decide(holding, cassino.resign_command(1)), holding)
    assert cassino.outcome(after).winners == (2,)


def test_among_three_mass_cool_players_the_pot_is_called_off_and_the_best_money_of_the_others_wins():
    state = dealt(masscool, ("Ann", "Bob", "Cy"))
    state = state._replace(money=(tuple(map(Card.parse, ["KS"])), tuple(map(Card.parse, ["2S"])),
                                  tuple(map(Card.parse, ["9S"]))),
                           bets=((), (), tuple(map(Card.parse, ["8S"]))))
    events = masscool.decide(state, masscool.resign_command(0))
    counted = [e for e in events if isinstance(e, masscool.events.MoneyCounted)][0]
    assert counted.totals == (16, 2, 17) and counted.winners == (2,) and counted.reason == "resigned"
    assert isinstance(events[0], SeatResigned)


def test_a_knocked_out_player_cannot_resign_and_nobody_resigns_while_a_seat_is_open():
    state = dealt(masscool, ("Ann", "Bob", "Cy"))
    out = state._replace(out=(False, True, False))
    assert refused(masscool, out, masscool.resign_command(1)) == "out_of_game"
    for name in GAMES:
        game = GAME_TYPES[name]
        assert refused(game, create(game, ("Ann", None)), game.resign_command(0)) == "seats_open"


@pytest.mark.parametrize("name", GAMES)
def test_an_abort_before_the_first_play_ends_the_game_with_no_winner(name):
    game = GAME_TYPES[name]
    for state in (create(game, ("Ann", "Bob", None)), dealt(game, ("Ann", "Bob"))):
        after = game.fold(game.decide(state, game.abort_command(0)), state)
        view = game.game_view(after)
        assert (view["status"], view["result"], view["winners"]) == ("finished", "aborted", [])


@pytest.mark.parametrize("name", GAMES)
def test_after_a_play_the_game_is_resigned_not_aborted_unless_the_play_was_taken_back(name):
    game = GAME_TYPES[name]
    state = dealt(game, ("Ann", "Bob"))
    move = first_move(game, state)
    played = then(game, state, move)
    assert refused(game, played, game.abort_command(1)) == "already_played"
    taken_back = then(game, played, game.undo_command(None))  # the operator takes it back
    assert game.outcome(then(game, taken_back, game.abort_command(1))).result == "aborted"


@pytest.mark.parametrize("name", GAMES)
def test_only_a_held_seat_resigns_or_aborts(name):
    game = GAME_TYPES[name]
    state = create(game, ("Ann", None))
    assert refused(game, state, game.abort_command(1)) == "seat_open"
    with pytest.raises(RuleViolation):
        game.decide(state, game.resign_command(5))


def test_the_endings_are_described_in_a_transcript():
    state = dealt(cassino, ("Ann", "Bob"))
    stored = [cassino.to_json(e) for e in cassino.decide(state, cassino.abort_command(0))]
    assert [cassino.describe_event(s) for s in (stored[0], stored[-1])] == [
        "seat 0 aborts the game", "no winner (aborted); scores 0-0"]


@pytest.mark.parametrize("name", GAMES)
@pytest.mark.parametrize("deal", [False, True])
def test_a_game_ended_early_reveals_its_committed_seeds_and_audits_fair(name, deal):
    game = GAME_TYPES[name]
    variant = next(iter(game.VARIANTS))
    events = game.decide(None, game.create_command(variant, ("Ann", "Bob"), 0, None, SEED))
    state = game.fold(events)
    for command in ([game.deal_command(0, None, SEED)] if deal else []) + [game.resign_command(1)]:
        more = game.decide(state, command)
        state, events = game.fold(more, state), events + more
    assert game.audit(events) == []
    assert state.status == "finished"

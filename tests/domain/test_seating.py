"""Open seats, joining and leaving (docs/rules.md, "Seats, resigning and
clocks"): the same rules in every game type, played through the game-type
interface alone."""

from __future__ import annotations

import pytest

from domain import cassino, masscool
from domain.cards import full_deck
from domain.errors import RuleViolation
from domain.game_types import GAME_TYPES, GameType
from domain.kernel_events import SeatLeft
from domain.seating import Holder
from domain.standing import Awaited, Awaiting

SEED = b"s" * 32
GAMES = sorted(GAME_TYPES)


def create(game: GameType, names, first_dealer: int = 0, seed: bytes | None = SEED):
    variant = next(iter(game.VARIANTS))
    return game.fold(game.decide(None, game.create_command(variant, tuple(names), first_dealer, None, seed)))


def then(game: GameType, state, *commands):
    for command in commands:
        state = game.fold(game.decide(state, command), state)
    return state


def refused(game: GameType, state, command) -> str:
    with pytest.raises(RuleViolation) as caught:
        game.decide(state, command)
    return caught.value.rule


@pytest.mark.parametrize("name", GAMES)
def test_a_game_with_an_open_seat_waits_for_players_and_shows_the_seat_open(name):
    game = GAME_TYPES[name]
    state = create(game, ("Ann", None, None))
    assert state.status == "waiting"
    assert game.awaiting(state) == Awaiting(Awaited.JOIN, (1, 2))
    view = game.game_view(state)
    assert [(s["name"], s["open"]) for s in view["seats"]] == [("Ann", False), (None, True), (None, True)]
    assert view["awaiting"] == {"command": "join", "seats": [1, 2]}
    assert [s["open"] for s in game.seats(state)] == [False, True, True]
    assert game.seat_holders(state) == (Holder("Ann"), None, None)
    assert game.summary(state).player_names == ("Ann", None, None)


@pytest.mark.parametrize("name", GAMES)
def test_nobody_deals_while_a_seat_is_open_neither_the_dealer_nor_the_operator(name):
    game = GAME_TYPES[name]
    state = create(game, ("Ann", None))
    assert refused(game, state, game.deal_command(0, None, SEED)) == "seats_open"
    assert refused(game, state, game.deal_command(None, full_deck(), None)) == "seats_open"
    assert game.computer_command(state, (0,), SEED) is None  # a computer dealer waits too


@pytest.mark.parametrize("name", GAMES)
def test_a_join_takes_the_lowest_open_seat_or_the_one_asked_for_and_records_name_and_player(name):
    game = GAME_TYPES[name]
    state = create(game, (None, "Bob", None, None))
    events = game.decide(state, game.join_command(None, "Cy", "p-cy"))
    assert [game.to_json(e)["data"] for e in events] == [{"seat": 0, "name": "Cy", "player": "p-cy"}]
    state = game.fold(events, state)
    state = then(game, state, game.join_command(3, "Di", None))
    assert game.seat_holders(state) == (Holder("Cy", "p-cy"), Holder("Bob"), None, Holder("Di"))
    assert game.awaiting(state) == Awaiting(Awaited.JOIN, (2,))
    state = then(game, state, game.join_command(None, "Ed", "p-ed"))
    assert game.awaiting(state) == Awaiting(Awaited.DEAL, (0,))  # the game starts like any other
    assert [s["name"] for s in game.game_view(state)["seats"]] == ["Cy", "Bob", "Ed", "Di"]
    state = then(game, state, game.deal_command(0, None, SEED))
    assert game.awaiting(state).command is Awaited.PLAY


@pytest.mark.parametrize("name", GAMES)
def test_joins_are_refused_for_a_taken_seat_a_full_game_a_second_seat_and_no_such_seat(name):
    game = GAME_TYPES[name]
    state = then(game, create(game, ("Ann", None, None)), game.join_command(1, "Bob", "p-bob"))
    assert refused(game, state, game.join_command(1, "Cy", None)) == "seat_taken"
    assert refused(game, state, game.join_command(0, "Cy", None)) == "seat_taken"
    assert refused(game, state, game.join_command(None, "Bob again", "p-bob")) == "already_seated"
    assert refused(game, state, game.join_command(2, "Bob again", "p-bob")) == "already_seated"
    assert refused(game, state, game.join_command(3, "Cy", None)) == "not_a_seat"
    assert refused(game, state, game.join_command(-1, "Cy", None)) == "not_a_seat"
    state = then(game, state, game.join_command(None, "Cy", None))
    assert refused(game, state, game.join_command(None, "Di", None)) == "no_open_seat"
    assert refused(game, create(game, ("Ann", "Bob")), game.join_command(None, "Di", None)) == "no_open_seat"


@pytest.mark.parametrize("name", GAMES)
def test_guests_without_a_player_id_may_hold_several_seats(name):
    game = GAME_TYPES[name]
    state = then(game, create(game, (None, None)), game.join_command(None, "Ann", None),
                 game.join_command(None, "Ann", None))
    assert game.seat_holders(state) == (Holder("Ann"), Holder("Ann"))


@pytest.mark.parametrize("name", GAMES)
def test_a_seat_left_before_the_deal_is_open_again_and_may_be_joined_by_another(name):
    game = GAME_TYPES[name]
    state = then(game, create(game, ("Ann", None)), game.join_command(None, "Bob", "p-bob"))
    state = then(game, state, game.leave_command(1))
    assert game.seat_holders(state) == (Holder("Ann"), None)
    assert game.awaiting(state) == Awaiting(Awaited.JOIN, (1,))
    assert refused(game, state, game.leave_command(1)) == "seat_open"
    state = then(game, state, game.leave_command(0))  # a seat held from the creation may leave too
    assert game.awaiting(state) == Awaiting(Awaited.JOIN, (0, 1))
    state = then(game, state, game.join_command(None, "Cy", "p-bob"), game.join_command(None, "Di", None))
    assert game.seat_holders(state) == (Holder("Cy", "p-bob"), Holder("Di"))


@pytest.mark.parametrize("name", GAMES)
def test_nobody_leaves_once_the_cards_are_dealt(name):
    game = GAME_TYPES[name]
    state = then(game, create(game, ("Ann", "Bob")), game.deal_command(0, None, SEED))
    assert refused(game, state, game.leave_command(0)) == "game_started"
    assert refused(game, state, game.join_command(None, "Cy", None)) == "no_open_seat"


def test_a_cassino_seat_keeps_its_team_whoever_joins_it():
    state = cassino.fold(cassino.decide(None, cassino.create_command("partnership", ("Ann", None, "Cy", None), 3,
                                                                     None, SEED)))
    state = then(cassino, state, cassino.join_command(None, "Bob", None), cassino.join_command(None, "Di", None))
    assert [(s.name, s.team) for s in state.seats] == [("Ann", 0), ("Bob", 1), ("Cy", 0), ("Di", 1)]


def test_seating_events_are_described_in_a_transcript():
    state = create(masscool, ("Ann", None))
    events = [masscool.to_json(e) for e in masscool.decide(state, masscool.join_command(None, "Bob", "p1"))]
    assert masscool.describe_event(events[0]) == "Bob takes seat 1 (player p1)"
    first = cassino.to_json(cassino.decide(None, cassino.create_command("cassino", ("Ann", None), 0, None, None))[0])
    assert cassino.describe_event(first) == "cassino for Ann, (open); seat 0 deals first"
    assert cassino.describe_event(cassino.to_json(SeatLeft(1))) == "seat 1 is left open"

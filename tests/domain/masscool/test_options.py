"""Creating a game: seat counts, the first dealer and the options."""

import pytest

from domain.errors import OptionError, RuleViolation
from domain.masscool import CreateGame, decide, default_options, fold
from domain.masscool.rules import Options, resolve


def create(players: int, dealer: int = 0, **options):
    return decide(None, CreateGame(tuple(f"P{i}" for i in range(players)), dealer, options))


@pytest.mark.parametrize("players", [1, 9])
def test_two_to_eight_players(players):
    """"suitable for 2-8 players\""""
    with pytest.raises(OptionError):
        create(players)


@pytest.mark.parametrize("options, name", [
    ({"money": 0}, "money"), ({"money": 26}, "money"), ({"money": True}, "money"), ({"money": "6"}, "money"),
    ({"ace_high": "yes"}, "ace_high"), ({"undo": "sometimes"}, "undo"), ({"target": 21}, "target"),
])
def test_bad_options_are_refused_naming_the_option(options, name):
    with pytest.raises(OptionError) as refused:
        create(2, **options)
    assert refused.value.name == name


def test_the_largest_money_still_leaves_a_hand_for_everyone():
    assert resolve({"money": 25}, 2).money == 25 and resolve({"money": 5}, 8).money == 5
    with pytest.raises(OptionError):
        resolve({"money": 6}, 8)


def test_the_first_dealer_is_a_seat_and_a_game_is_created_once():
    with pytest.raises(OptionError) as refused:
        create(3, dealer=3)
    assert refused.value.name == "first_dealer"
    state = fold(create(3))
    with pytest.raises(RuleViolation) as again:
        decide(state, CreateGame(("A", "B"), 0))
    assert again.value.rule == "game_exists"
    assert state.options == Options(**default_options(3)) == Options(8, True, "consent")

"""Ratings (domain/rating.py): a finished rated game's outcome moves its
players' ratings, sides by their result, once; nothing else does."""

from __future__ import annotations

import pytest

from domain.errors import RuleViolation
from domain.rating import INITIAL, Rate, Rating, rate, to_rate
from domain.standing import Outcome

PLAYERS = ("a", "b", "c", "d")


def moved(winners, teams, ratings=None, result="resigned"):
    changes = rate(True, Outcome(result, tuple(winners)), (), PLAYERS[:len(teams)], teams, Rate(ratings or {}))
    return [round(c.after.rating - c.before.rating, 6) for c in changes]


def test_the_winner_gains_what_the_loser_loses_from_equal_ratings():
    gain, loss = moved([0], [0, 1])
    assert gain > 0 > loss and gain == pytest.approx(-loss)


def test_partners_move_together_with_their_sides_result():
    a, b, c, d = moved([1, 3], [0, 1, 0, 1])
    assert a == c < 0 < b == d


def test_in_three_hands_the_winner_ranks_first_and_the_others_tie():
    a, b, c = moved([2], [0, 1, 2])
    assert c > 0 > a == b


def test_a_draw_between_equals_moves_no_rating():
    assert moved([], [0, 1], result="deck_out") == [0, 0]


def test_beating_a_stronger_player_gains_more():
    strong = {"b": Rating(1800.0, 200.0, 30)}
    assert moved([0], [0, 1], strong)[0] > moved([0], [0, 1])[0]


def test_every_change_counts_one_more_game_from_the_rating_given():
    changes = rate(True, Outcome("target", (0,)), (), ("a", "b"), (0, 1), Rate({"a": Rating(1600.0, 300.0, 7)}))
    assert [(c.player, c.before, c.after.games) for c in changes] == [("a", Rating(1600.0, 300.0, 7), 8),
                                                                      ("b", INITIAL, 1)]


@pytest.mark.parametrize("rated, outcome, changes", [
    (False, Outcome("resigned", (0,)), ()),  # not rated
    (True, None, ()),  # not over
    (True, Outcome("aborted", ()), ()),  # aborted: never rated
    (True, Outcome("resigned", (0,)), ("done",)),  # rated already
])
def test_nothing_is_rated_but_a_rated_game_over_and_not_rated_yet(rated, outcome, changes):
    assert to_rate(rated, outcome, changes, ("a", "b")) == ()
    with pytest.raises(RuleViolation) as refused:
        rate(rated, outcome, changes, ("a", "b"), (0, 1), Rate({}))
    assert refused.value.rule == "not_rated"


def test_a_rating_is_provisional_for_its_first_five_games():
    assert [Rating(1500.0, 400.0, n).provisional for n in (0, 4, 5)] == [True, True, False]

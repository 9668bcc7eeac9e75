"""004's Michigan variation, as options: a default on the owner's duty is
allowed and costs points at once (``duty_penalty``), sweeps score 2 as they
happen (``sweeps: 2``, ``instant_sweeps``), and in "rounds to 5" three
instant scores against one side end it (``strikes_to_lose``). Each test
cites the sentence of 004 it checks (docs/rules.md, "Michigan")."""

import pytest

from domain import OptionError
from domain.cassino import Move, Play, VoidHand, decide, fold, legal_moves, resolve
from domain.cassino.events import GameFinished, PointsScored

from .positions import after, position, refusal

PENALTY = {"duty_penalty": 2}
MICHIGAN = {"duty_penalty": 2, "sweeps": 2, "instant_sweeps": True}
ROUNDS_TO_5 = {**MICHIGAN, "target": 5, "strikes_to_lose": 3}


def scored(events):
    return [(a.category, a.team, a.points) for e in events if isinstance(e, PointsScored) for a in e.awards]


class TestDefaults:
    def test_a_default_is_allowed_and_costs_two_points_at_once(self):
        """004: "a player who defaults on his duty after building gives up 2 points at the time of the
        violation"."""
        state = position(table="B1=9:6S+3D@0 5C", hands=["9C 7D", "8S 4H"], scores=[5, 3], options=PENALTY)
        assert refusal(position(table="B1=9:6S+3D@0 5C", hands=["9C 7D", "8S 4H"]), 0, "7D trail") \
            == "must_act_on_build"
        events = decide(state, Play(0, Move.parse("7D trail")))
        assert scored(events) == [("default", 0, -2)] and fold(events, state).scores == (3, 3)
        assert "7D trail" in {m.text for m in legal_moves(state, 0)}

    def test_a_default_may_trap_cards_in_a_build_its_owner_cannot_take(self):
        """004: "This is sometimes an acceptable cost to trap cards from the other player in builds the
        player cannot take"."""
        state = position(table="B1=9:6S+3D@0 9H", hands=["9C 5D", "8S 4H"], options=PENALTY)
        trapped = after(state, 0, "9C capture 9H")
        assert trapped.item("B1") is not None and trapped.scores == (-2, 0)

    def test_a_move_within_the_duty_costs_nothing(self):
        state = position(table="B1=9:6S+3D@0 5C", hands=["9C 7D", "8S 4H"], options=PENALTY)
        assert scored(decide(state, Play(0, Move.parse("9C capture B1")))) == []

    def test_a_penalty_needs_a_duty(self):
        with pytest.raises(OptionError) as refused:
            resolve("cassino", {"duty_penalty": 2, "owner_duty": "free"}, 2)
        assert refused.value.name == "duty_penalty"


class TestSweeps:
    def test_sweeps_score_two_as_they_happen(self):
        """004: "Sweeps also score 2 points"."""
        state = position(table="3S 4H", hands=["7C 2H", "5D"], options=MICHIGAN)
        assert scored(decide(state, Play(0, Move.parse("7C capture 3S 4H")))) == [("sweeps", 0, 2)]


class TestRoundsToFive:
    def test_three_instant_scores_against_one_side_end_it(self):
        """004: "In a series of 'rounds to 5,' any three instant scores (sweeps or defaults) against the
        same player ends the round"; here the round to 5 is the game, and that side loses it."""
        state = position(table="3S 4H", hands=["7C 2H", "5D 9S"], options=ROUNDS_TO_5)._replace(strikes=(0, 2))
        events = decide(state, Play(0, Move.parse("7C capture 3S 4H")))  # a sweep: against seat 1
        assert isinstance(events[-1], GameFinished) and events[-1].winner == 0 and events[-1].reason == "strikes"

    def test_a_default_is_a_strike_against_the_defaulter(self):
        state = position(table="B1=9:6S+3D@0 5C", hands=["9C 7D", "8S 4H"], options=ROUNDS_TO_5)
        events = decide(state._replace(strikes=(2, 0)), Play(0, Move.parse("7D trail")))
        assert events[-1].winner == 1 and events[-1].reason == "strikes"
        assert fold(decide(state, Play(0, Move.parse("7D trail"))), state).strikes == (1, 0)

    def test_a_voided_hand_takes_its_strikes_back(self):
        state = position(table="B1=9:6S+3D@0 5C", hands=["9C 7D", "8S 4H"], options=ROUNDS_TO_5)
        defaulted = after(state, 0, "7D trail")
        voided = fold(decide(defaulted, VoidHand("misdeal")), defaulted)
        assert voided.strikes == (0, 0) and voided.scores == (0, 0)

    def test_strikes_need_instant_scores(self):
        with pytest.raises(OptionError) as refused:
            resolve("cassino", {"strikes_to_lose": 3}, 2)
        assert refused.value.name == "strikes_to_lose"

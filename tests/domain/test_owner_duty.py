"""What the owner of a build may do: ``owner_duty``.

Sources: 002 and 004 variant 1 (``no_trail``: no trailing while you own a
build), 004 variant 2 (``must_act``: take or add to it next turn), 004
variant 3 (``strict``), and the permissive play some tables allow (``free``).
Under every value but ``free`` the owner also keeps a card that can take
each of their builds.
"""

import pytest

from .positions import after, position, refusal

# Seat 0 owns a build of 9 and holds the 9 to take it, a 7 and a 2.
OWNER = dict(table="B1=9:6S+3D@0 5C 7H", hands=["9C 7D 2H", "8S 4H"])


def duty(value):
    return position(**OWNER, options={"owner_duty": value})


class TestNoTrail:
    def test_the_owner_may_not_trail(self):
        assert refusal(duty("no_trail"), 0, "7D trail") == "must_act_on_build"

    def test_the_refusal_says_why_in_words(self):
        from domain import Move, Play, RuleViolation, decide
        with pytest.raises(RuleViolation, match="cannot trail while your build of 9 is on the table"):
            decide(duty("no_trail"), Play(0, Move.parse("7D trail")))

    def test_the_owner_may_capture_something_else(self):
        assert after(duty("no_trail"), 0, "7D capture 7H")

    def test_the_owner_may_make_another_build(self):
        assert after(duty("no_trail"), 0, "2H build 7 5C")

    def test_the_owner_may_not_play_away_the_last_card_of_the_builds_value(self):
        state = position(table="B1=9:6S+3D@0 9H", hands=["9C 5D", "8S 4H"])
        assert refusal(state, 0, "9C capture 9H") == "must_act_on_build"
        assert after(state, 0, "9C capture 9H B1").table == ()

    def test_a_player_without_a_build_may_trail(self):
        other = position(table="B1=9:6S+3D@1 5C", hands=["9C 5D 2H", "8S 9H"])
        assert after(other, 0, "2H trail").table[-1].code == "2H"


class TestMustAct:
    def test_the_owner_must_take_or_add_to_the_build(self):
        state = duty("must_act")
        assert refusal(state, 0, "7D capture 7H") == "must_act_on_build"
        assert refusal(state, 0, "2H build 7 5C") == "must_act_on_build"
        assert refusal(state, 0, "7D trail") == "must_act_on_build"

    def test_taking_the_build_fulfils_the_duty(self):
        assert after(duty("must_act"), 0, "9C capture B1").table

    def test_adding_to_the_build_fulfils_the_duty(self):
        state = position(table="B1=9:6S+3D@0 4S", hands=["9C 5D 9D", "8S 4H"], options={"owner_duty": "must_act"})
        assert after(state, 0, "5D build 9 B1 4S").item("B1").multiple


class TestStrict:
    def test_the_owner_may_not_trail_or_capture_elsewhere(self):
        state = duty("strict")
        assert refusal(state, 0, "7D trail") == "must_act_on_build"
        assert refusal(state, 0, "7D capture 7H") == "must_act_on_build"

    def test_the_owner_may_defer_by_starting_another_build(self):
        assert after(duty("strict"), 0, "2H build 7 5C").item("B2").value == 7

    def test_only_one_build_of_a_value(self):
        state = position(table="B1=9:6S+3D@0 5C 4H", hands=["9C 5D 9D", "8S 4H"], options={"owner_duty": "strict"})
        assert refusal(state, 0, "5D build 9 4H") == "one_build_per_value"


class TestFree:
    def test_the_owner_may_trail(self):
        assert after(duty("free"), 0, "7D trail").table[-1].code == "7D"

    def test_the_owner_may_even_play_away_the_card_for_the_build(self):
        state = position(table="B1=9:6S+3D@0 9H", hands=["9C 5D", "8S 4H"], options={"owner_duty": "free"})
        assert after(state, 0, "9C capture 9H").item("B1")

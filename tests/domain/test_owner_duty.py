"""What the owner of a build may do: ``owner_duty``.

Sources: 002 and 004 variant 1 (``no_trail``: no trailing while you own a
build), 004 variant 2 (``must_act``: take or add to it next turn), 004
variant 3 (``strict``), 001 (``next_turn``: no trailing on the turn after
building), and the permissive play some tables allow (``free``). Under
every value but ``free`` the owner also keeps a card that can take each of
their builds (under ``next_turn``, on that turn).
"""

import pytest

from domain.cassino import legal_moves

from .positions import after, position, refusal

# Seat 0 owns a build of 9 and holds the 9 to take it, a 7 and a 2.
OWNER = dict(table="B1=9:6S+3D@0 5C 7H", hands=["9C 7D 2H", "8S 4H"])


def duty(value):
    return position(**OWNER, options={"owner_duty": value})


class TestNoTrail:
    def test_the_owner_may_not_trail(self):
        assert refusal(duty("no_trail"), 0, "7D trail") == "must_act_on_build"

    def test_the_refusal_says_why_in_words(self):
        from domain import RuleViolation
        from domain.cassino import Move, Play, decide
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


class TestNextTurn:
    """001: "A player that created a combination cannot trail a card on his next turn if the combination
    created has not been changed"."""

    START = dict(table="6S 5C 7H", hands=["3D 9C 7D 2H", "8S 4H KS QS"], options={"owner_duty": "next_turn"})

    def test_the_builder_may_not_trail_on_the_next_turn(self):
        built = after(after(position(**self.START), 0, "3D build 9 6S"), 1, "KS trail")
        assert refusal(built, 0, "2H trail") == "must_act_on_build"
        assert "2H trail" not in {m.text for m in legal_moves(built, 0)}

    def test_but_may_on_the_turns_after(self):
        built = after(after(position(**self.START), 0, "3D build 9 6S"), 1, "KS trail")
        later = after(after(built, 0, "7D capture 7H"), 1, "QS trail")
        assert later.item("B1").owner == 0 and after(later, 0, "2H trail").table[-1].code == "2H"

    def test_a_build_changed_by_another_player_binds_its_builder_no_more(self):
        start = position(table="6S 5C 7H", hands=["3D 9C 7D 2H", "AS 10C QS KS"], options={"owner_duty": "next_turn"})
        raised = after(after(start, 0, "3D build 9 6S"), 1, "AS build 10 B1")
        assert raised.item("B1").owner == 1 and after(raised, 0, "2H trail").table[-1].code == "2H"

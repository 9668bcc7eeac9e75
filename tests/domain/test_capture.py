"""Capturing: pairs, sums, builds, several groups at once, and court cards.

Sources: 002 (Scarne/Hoyle: pairs and sums, courts one-or-three), 003
(groups, builds taken only by their value), 004 (face cards one at a time).
"""

import pytest

from domain import RuleViolation
from domain.cassino import Move, Play, decide, legal_moves

from .positions import after, position, refusal

CROWDED = dict(table="AS 2H 3D 5C 6S 8D", hands=["8H 2C", "KD 4S"])


@pytest.mark.parametrize("move", [
    "8H capture 8D 6S 2H 5C 3D",  # 8 | 6+2 | 5+3
    "8H capture 8D 5C 2H AS",     # 8 | 5+2+A
    "8H capture 8D",              # a pair alone
    "8H capture 6S 2H",           # one sum alone
])
def test_an_eight_takes_any_union_of_disjoint_groups_of_eight(move):
    state = after(position(**CROWDED), 0, move)
    assert Move.parse(move).card in state.captured[0]
    assert len(state.captured[0]) == len(Move.parse(move).targets) + 1


def test_an_eight_never_takes_all_six_of_a_2_3_5_6_8():
    assert refusal(position(**CROWDED), 0, "8H capture AS 2H 3D 5C 6S 8D") == "illegal_capture"


def test_cards_that_do_not_make_the_value_cannot_be_taken():
    assert refusal(position(**CROWDED), 0, "8H capture 5C 2H") == "illegal_capture"


def test_a_build_of_7_and_a_loose_2_cannot_be_taken_together_by_a_9():
    state = position(table="B1=7:4S+3D@1 2C", hands=["9H 5D", "7C 8S"])
    assert refusal(state, 0, "9H capture B1 2C") == "illegal_capture"


def test_a_build_is_taken_by_a_card_of_its_value_with_other_groups():
    state = position(table="B1=7:4S+3D@1 2C 5H", hands=["7H 5D", "7C 8S"])
    done = after(state, 0, "7H capture B1 2C 5H")
    assert done.table == ()
    assert sorted(c.code for c in done.captured[0]) == sorted("4S 3D 2C 5H 7H".split())
    assert done.last_capturer == 0


def test_the_played_card_must_be_in_hand():
    assert refusal(position(**CROWDED), 0, "8S capture 8D") == "card_not_in_hand"


def test_only_the_seat_whose_turn_it_is_may_play():
    assert refusal(position(**CROWDED), 1, "KD trail") == "not_your_turn"


def test_targets_must_be_on_the_table():
    assert refusal(position(**CROWDED), 0, "8H capture 8C") == "target_not_on_table"
    assert refusal(position(**CROWDED), 0, "8H capture B4") == "target_not_on_table"


def test_a_capture_names_what_it_takes():
    assert refusal(position(**CROWDED), 0, "8H capture") == "illegal_capture"


def test_stated_groups_must_each_make_the_value():
    state = position(**CROWDED)
    ok = Move.parse("8H capture (8D) (6S 2H)")
    assert decide(state, Play(0, ok))
    assert refusal(state, 0, "8H capture (8D 6S) (2H)") == "illegal_capture"


class TestCourtCards:
    """``court_capture``: one_or_three (002, 003), one (004), any (003 California)."""

    def test_one_or_three_a_king_takes_one_of_two_kings(self):
        state = position(table="KS KH 5D", hands=["KD 2C", "3H 4H"])
        assert after(state, 0, "KD capture KS").table == position(table="KH 5D").table
        assert refusal(state, 0, "KD capture KS KH") == "court_capture"

    def test_one_or_three_the_fourth_king_takes_all_three(self):
        state = position(table="KS KH KC 5D", hands=["KD 2C", "3H 4H"])
        assert len(after(state, 0, "KD capture KS KH KC").captured[0]) == 4
        assert refusal(state, 0, "KD capture KS KH") == "court_capture"

    def test_one_takes_a_single_court_even_with_three_on_the_table(self):
        state = position(table="KS KH KC", hands=["KD 2C", "3H 4H"], options={"court_capture": "one"})
        assert refusal(state, 0, "KD capture KS KH KC") == "court_capture"
        assert after(state, 0, "KD capture KH")

    def test_any_takes_any_number_of_matching_courts(self):
        state = position(table="QS QH", hands=["QD 2C", "3H 4H"], options={"court_capture": "any"})
        assert len(after(state, 0, "QD capture QS QH").captured[0]) == 3

    def test_a_court_takes_only_its_own_rank(self):
        state = position(table="QS 2H", hands=["KD 2C", "3H 4H"])
        assert refusal(state, 0, "KD capture QS") == "illegal_capture"

    def test_valued_courts_sum_like_numbers(self):
        state = position(table="9S 4H 6D 7C", hands=["KD 2C", "3H 4D"], options={"court_capture": "valued"})
        done = after(state, 0, "KD capture 9S 4H 6D 7C")  # 9+4 | 6+7
        assert done.table == ()


class TestPartialCapture:
    """``partial_capture``: true (002, 003) takes any union; false (the Scopa
    family) must leave nothing the card could still take."""

    def test_a_partial_capture_is_allowed_by_default(self):
        assert after(position(**CROWDED), 0, "8H capture 8D")

    def test_without_partial_capture_the_capture_must_be_maximal(self):
        state = position(**CROWDED, options={"partial_capture": False})
        assert refusal(state, 0, "8H capture 8D") == "capture_not_maximal"
        assert refusal(state, 0, "8H capture 8D 6S 2H") == "capture_not_maximal"
        assert after(state, 0, "8H capture 8D 6S 2H 5C 3D").table == position(table="AS").table

    def test_without_partial_capture_a_build_of_the_value_must_be_taken_too(self):
        state = position(table="B1=8:5S+3S@1 8D", hands=["8H 2C", "8C 4S"],
                         options={"partial_capture": False})
        assert refusal(state, 0, "8H capture 8D") == "capture_not_maximal"
        assert after(state, 0, "8H capture 8D B1").table == ()


def test_a_trail_names_nothing_else():
    state = position(table="8S", hands=["5C 2D", "3H"])
    assert refusal(state, 0, "5C trail 8S") == "illegal_trail"
    assert refusal(state, 0, "5C trail 5") == "illegal_trail"


class TestBuildsInSums:
    """``builds_in_sums``. 004: "The building player's adversaries may also take in a build by
    combination, increasing the capturing number; that is, an eight build may be combined with an ace if an
    adversary holds a nine"; 002 (the default) has a build taken "only if he holds a card of the same number
    value as the build"."""

    OPTIONS = {"builds_in_sums": True}

    def test_an_adversary_takes_a_build_with_loose_cards_that_complete_the_sum(self):
        state = position(table="B1=8:5S+3D@1 AC 4H", hands=["9H 2C", "7C 8S"], options=self.OPTIONS)
        taken = after(state, 0, "9H capture B1 AC")
        assert [c.code for c in taken.captured[0]] == ["AC", "5S", "3D", "9H"]
        assert "9H capture AC B1" in {m.text for m in legal_moves(state, 0)}
        assert refusal(position(table="B1=8:5S+3D@1 AC", hands=["9H 2C", "7C 8S"]), 0,
                       "9H capture B1 AC") == "illegal_capture"

    def test_not_its_owner_nor_a_multiple_build(self):
        """004: "the capturing number of a multiple build can never be changed"."""
        own = position(table="B1=8:5S+3D@0 AC", hands=["9H 8C", "7C 8S"], options=self.OPTIONS)
        assert refusal(own, 0, "9H capture B1 AC") == "illegal_capture"
        multiple = position(table="B1=8:5S+3D,8D@1 AC", hands=["9H 2C", "7C 8S"], options=self.OPTIONS)
        assert refusal(multiple, 0, "9H capture B1 AC") == "illegal_capture"

    def test_a_capture_that_must_be_maximal_takes_such_a_build_too(self):
        opts = {**self.OPTIONS, "partial_capture": False}
        state = position(table="B1=8:5S+3D@1 AC 9D", hands=["9H 2C", "7C 8S"], options=opts)
        assert refusal(state, 0, "9H capture 9D") == "capture_not_maximal"
        assert after(state, 0, "9H capture 9D B1 AC").table == ()


def test_a_move_names_each_target_once_and_each_on_the_table():
    state = position(table="5C 3D 2H", hands=["8H 10C", "4S"])
    assert refusal(state, 0, "8H capture 5C 5C 3D") == "duplicate_target"
    assert refusal(state, 0, "8H capture 5C 4D 3D") == "target_not_on_table"
    with pytest.raises(RuleViolation) as refused:
        decide(state, Play(0, Move.parse("8H capture 3D 3D 4D")))
    assert (refused.value.rule, refused.value.message) == ("duplicate_target", "You named 3D twice.")

"""Building: single builds, multiple builds, raising, adding, holding the card.

Sources: 001 (build and call combinations), 002 (single and multiple
builds; a multiple build cannot change value; builds are raised with a card
from the hand), 003 (augmenting and increasing), 004 (natural building,
Foster's rule for raising one's own build).
"""

import pytest

from domain import RuleViolation
from domain.cassino import Build, Move, Play, decide, legal_moves

from .positions import after, position, refusal


def the_build(state, ident="B1") -> Build:
    return state.item(ident)


def test_a_single_build_joins_a_hand_card_to_table_cards():
    state = position(table="6S 2D KC", hands=["AH 9C 4D", "3H 4H"])
    done = after(state, 0, "AH build 9 6S 2D")
    b = the_build(done)
    assert (b.value, b.multiple, b.owner) == (9, False, 0)
    assert sorted(c.code for c in b.cards) == ["2D", "6S", "AH"]
    assert done.hands[0] == position(hands=["9C 4D", ""]).hands[0]


def test_a_build_needs_a_card_of_its_value_kept_in_hand():
    state = position(table="6S 2D", hands=["AH 4D", "3H 4H"])
    assert refusal(state, 0, "AH build 9 6S 2D") == "build_needs_card"


def test_the_card_played_does_not_count_as_the_card_kept():
    state = position(table="4S", hands=["4D 2C", "3H 4H"])
    assert refusal(state, 0, "4D build 8 4S") == "build_needs_card"


def test_a_build_must_use_the_table():
    state = position(table="6S", hands=["AH 9C", "3H 4H"])
    assert refusal(state, 0, "AH build 9") == "illegal_build"


def test_the_cards_must_make_the_value_stated():
    state = position(table="6S 3D", hands=["AH 9C", "3H 4H"])
    assert refusal(state, 0, "AH build 9 6S 3D") == "illegal_build"


def test_courts_cannot_be_built_in_the_standard_game():
    state = position(table="JS", hands=["AH KC", "3H 4H"])
    assert refusal(state, 0, "AH build 12 JS") == "illegal_build"
    assert refusal(position(table="2S", hands=["JH 9C", "3H"]), 0, "JH build 9 2S") == "illegal_build"


def test_a_card_on_a_card_of_equal_value_makes_a_multiple_build():
    """001's call combination and 002's example 2: an 8 put on an 8."""
    state = position(table="8S", hands=["8D 8C", "3H 4H"])
    b = the_build(after(state, 0, "8D build 8 8S"))
    assert b.multiple and b.value == 8


def test_a_build_can_gather_every_group_of_its_value_at_once():
    """004's optional example: table 2 K 6 5 8, holding 3 and 8: the 3 on the
    5 builds eight, and the 8 and the 6-2 join it."""
    state = position(table="2S KD 6H 5C 8D", hands=["3C 8H", "4H 4D"])
    done = after(state, 0, "3C build 8 5C 8D 6H 2S")
    b = the_build(done)
    assert b.multiple and b.value == 8 and len(b.groups) == 3
    assert [it.id for it in done.table] == ["B1", "KD"]  # the build lies where its first card lay


def test_adding_to_a_build_makes_it_multiple_and_takes_ownership():
    state = position(table="B1=9:6S+3D@1 5C", hands=["4H 9C", "9D 2H"])
    b = the_build(after(state, 0, "4H build 9 B1 5C"))
    assert b.multiple and b.owner == 0 and b.id == "B1"


def test_a_single_build_can_be_raised_by_a_card_from_hand():
    """002: a build of five raised to six with an ace; anyone may do it."""
    state = position(table="B1=5:3S+2D@1", hands=["AH 6C", "5D 2H"])
    b = the_build(after(state, 0, "AH build 6 B1"))
    assert (b.value, b.owner, b.multiple) == (6, 0, False)


def test_a_multiple_build_cannot_be_raised():
    state = position(table="B1=7:4S+3D,7C@1", hands=["AH 8C", "7D 2H"])
    assert refusal(state, 0, "AH build 8 B1") == "multiple_build_fixed"


def test_a_build_of_a_single_card_of_its_value_is_multiple_and_fixed():
    """002: fours put on a four cannot be taken as an eight, nor raised."""
    state = position(table="B1=4:4S,4D@1", hands=["4H 8C", "AD 5H"])
    assert refusal(state, 0, "8C capture B1") == "illegal_capture"
    assert after(state, 0, "4H capture B1").table == ()
    assert refusal(state, 0, "4H build 8 B1") == "multiple_build_fixed"


def test_builds_are_never_broken():
    """A card inside a build is not on the table to be taken or built on."""
    state = position(table="B1=9:6S+3D@1 6H", hands=["6C 3H", "9D 2H"])
    assert refusal(state, 0, "6C capture 6S") == "target_not_on_table"
    assert refusal(state, 0, "3H capture 3D") == "target_not_on_table"


def test_two_builds_cannot_be_added_into_one():
    state = position(table="B1=4:3S+AD@1 B2=5:3H+2C@1", hands=["AH 10C", "9D 2H"])
    assert refusal(state, 0, "AH build 10 B1 B2") == "illegal_build"


class TestRaiseWithTableCards:
    """``raise_with_table_cards``: false (002: a fresh card from the hand), true (003)."""

    def test_by_default_only_the_hand_card_changes_the_value(self):
        state = position(table="B1=5:3S+2D@1 2C", hands=["AH 8C", "5D 2H"])
        assert refusal(state, 0, "AH build 8 B1 2C") == "raise_with_table_cards"

    def test_with_the_option_table_cards_may_join_the_raise(self):
        state = position(table="B1=5:3S+2D@1 2C", hands=["AH 8C", "5D 2H"],
                         options={"raise_with_table_cards": True})
        b = the_build(after(state, 0, "AH build 8 B1 2C"))
        assert b.value == 8 and not b.multiple


class TestRaiseOwnBuild:
    """``raise_own_build``: allowed (002, 003), needs_both (004, Foster), forbidden (003 African)."""

    OWN = dict(table="B1=5:3S+2D@0", hands=["AH 6C", "5D 2H"])
    OWN_HOLDING_BOTH = dict(table="B1=5:3S+2D@0", hands=["AH 6C 5C", "5D 2H"])

    def test_allowed_holding_the_new_value(self):
        assert the_build(after(position(**self.OWN), 0, "AH build 6 B1")).value == 6

    def test_needs_both_refuses_without_the_old_value(self):
        state = position(**self.OWN, options={"raise_own_build": "needs_both"})
        assert refusal(state, 0, "AH build 6 B1") == "raise_own_build"

    def test_needs_both_accepts_holding_both_values(self):
        state = position(**self.OWN_HOLDING_BOTH, options={"raise_own_build": "needs_both"})
        assert the_build(after(state, 0, "AH build 6 B1")).value == 6

    def test_forbidden_refuses_even_holding_both(self):
        state = position(**self.OWN_HOLDING_BOTH, options={"raise_own_build": "forbidden"})
        assert refusal(state, 0, "AH build 6 B1") == "raise_own_build"

    def test_forbidden_still_lets_you_raise_an_opponents_build(self):
        state = position(table="B1=5:3S+2D@1", hands=["AH 6C", "5D 2H"],
                         options={"raise_own_build": "forbidden"})
        assert the_build(after(state, 0, "AH build 6 B1")).owner == 0


def test_stated_groups_are_checked_and_used():
    state = position(table="5C 8D 6H 2S", hands=["3C 8H", "4H 4D"])
    ok = decide(state, Play(0, Move.parse("3C build 8 (3C 5C) (8D) (6H 2S)")))
    assert len(ok[0].build.groups) == 3
    assert refusal(state, 0, "3C build 8 (3C 5C 8D) (6H 2S)") == "illegal_build"
    unlisted = Move.from_dict({"card": "3C", "action": "build", "value": 8, "targets": ["5C", "8D", "6H", "2S"],
                               "groups": [["3C", "5C"], ["6H", "2S"]]})
    with pytest.raises(RuleViolation) as refused:
        decide(state, Play(0, unlisted))
    assert refused.value.rule == "invalid_groups"


@pytest.mark.parametrize("value", [0, -1, 11, 14])
def test_a_build_value_is_from_1_to_10_in_the_standard_game(value):
    state = position(table="AS", hands=["AH AC 2D", "3H"])
    assert refusal(state, 0, f"AH build {value} AS") in ("illegal_build", "build_needs_card")


def test_a_new_build_gets_a_fresh_id_and_raising_keeps_it():
    state = position(table="B1=5:3S+2D@1 4C", hands=["AH 6C 5H", "5D 2H"])
    made = after(state, 0, "AH build 5 4C")
    assert [it.id for it in made.table] == ["B1", "B2"]


def test_an_ace_is_built_on_an_ace_as_a_build_of_one_and_taken_by_the_third():
    """002: a build names "the number value (from 1 to 10)", so aces build too."""
    state = position(table="AS 7C", hands=["AH AD", "3H 4H"])
    built = after(state, 0, "AH build 1 AS")
    b = the_build(built)
    assert (b.value, b.multiple, b.owner) == (1, True, 0)
    assert Move.parse("AH build 1 AS") in legal_moves(state, 0).first().moves
    taken = after(built._replace(turn=0), 0, "AD capture B1")
    assert sorted(c.code for c in taken.captured[0]) == ["AD", "AH", "AS"]


def test_a_build_of_one_needs_an_ace_kept_in_hand():
    state = position(table="AS", hands=["AH 9C", "3H 4H"])
    assert refusal(state, 0, "AH build 1 AS") == "build_needs_card"


def refusal_message(state, seat, move) -> str:
    try:
        decide(state, Play(seat, Move.parse(move)))
    except RuleViolation as broken:
        return broken.message
    raise AssertionError(f"{move} was accepted")


def test_a_build_that_does_not_add_up_says_what_the_cards_make():
    """Even without a 10 in hand, the sum is what is wrong with it."""
    state = position(table="7S 3D", hands=["2C 4D", "3H 4H"])
    assert refusal(state, 0, "2C build 10 7S") == "illegal_build"
    assert refusal_message(state, 0, "2C build 10 7S") == "2C and 7S make 9, not 10."
    assert refusal_message(state, 0, "4D build 10 7S 3D") == "4D, 7S and 3D make 14, not 10."


def test_cards_that_add_up_but_do_not_group_say_so():
    state = position(table="9S 9D", hands=["2C 10H", "3H 4H"])
    assert refusal_message(state, 0, "2C build 10 9S 9D") == "2C, 9S and 9D cannot be grouped to make 10."


def test_messages_name_cards_by_code():
    state = position(table="7S", hands=["2C 9D", "3H 4H"])
    assert refusal_message(state, 0, "KS trail") == "KS is not in your hand."


def test_a_build_a_court_will_take_is_listed_as_well_as_accepted():
    """With court_builds a jack takes builds of 11, so a build of 11 kept for
    a jack (Buckeye's ten of diamonds on an ace) is legal, and the list offers
    it: the list asks the build rule which values the hand can take."""
    state = position(table="AS 5H", hands=["10D JS", "2C 3C"],
                     options={"court_builds": True, "court_capture": "any", "big_ten_eleven": True})
    move = Move.build("10D", 11, "AS")
    assert move in legal_moves(state, 0)
    assert move in set(legal_moves(state, 0))

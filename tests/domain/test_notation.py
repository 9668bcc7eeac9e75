"""Card and move notation, and options: what clients type and what they get back."""


import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from domain import Card, NotationError, OptionError, card, full_deck
from domain.cassino import Move, Options, VARIANTS, resolve
from domain.cassino.moves import ACTION_FIELDS, ACTIONS
from tests.scale import scaled

NAMES = [c.code for c in full_deck()] + [f"B{k}" for k in (1, 2, 3, 9, 10, 137)]
ITEMS = st.lists(st.sampled_from(NAMES), max_size=6)


@st.composite
def any_move(draw) -> Move:
    """Any move the JSON form can express: any card and action, with the
    targets (even repeated ones), value and groups its action may name,
    legal or not."""
    action = draw(st.sampled_from(ACTIONS))
    named = ACTION_FIELDS[action]
    groups = draw(st.none() | st.lists(ITEMS.filter(bool), min_size=1, max_size=4)) if "groups" in named else None
    return Move(draw(st.sampled_from(full_deck())), action, tuple(draw(ITEMS)) if "targets" in named else (),
                draw(st.none() | st.integers(-20, 30)) if "value" in named else None,
                None if groups is None else tuple(map(tuple, groups)))


@settings(max_examples=scaled(200, long=2000, quick=50), deadline=None)
@given(move=any_move())
def test_every_moves_text_and_json_read_back_to_the_same_move(move):
    assert Move.parse(move.text) == move, move.text
    assert Move.from_dict(move.to_dict()) == move


@pytest.mark.parametrize("text,code", [("AS", "AS"), ("10d", "10D"), ("td", "10D"), ("T", None),
                                       ("Qh", "QH"), (" kc ", "KC"), ("1S", None), ("11H", None),
                                       ("AX", None), ("", None)])
def test_cards_read_in_any_case_with_t_for_ten_and_print_canonically(text, code):
    if code is None:
        with pytest.raises(NotationError):
            Card.parse(text)
    else:
        assert Card.parse(text).code == code


def test_cards_are_single_objects_and_print_as_code():
    assert card("10D") is card("td")
    assert repr(card("qs")) == "Card.parse('QS')" and str(card("qs")) == "QS"


def test_a_move_round_trips_through_json_and_text():
    for text in ["5C trail", "8H capture 8S 5D 3C B1", "2H build 9 7S", "3C build 8 (3C 5C) (8D) (6H 2S)"]:
        move = Move.parse(text)
        assert Move.from_dict(move.to_dict()) == move
        assert Move.parse(move.text) == move


def test_a_capture_stating_its_value_reads_back():
    move = Move(card("AC"), "capture", ("KS", "AH"), 14)
    assert move.text == "AC capture 14 KS AH"
    assert Move.parse(move.text) == move


def test_targets_are_canonical_so_equal_moves_compare_equal():
    assert Move.parse("8h capture 3c b1 8s") == Move.capture("8H", "8S", "3C", "B1")
    assert Move.from_dict({"card": "tD", "action": "capture", "targets": ["b2", "5s"]}).to_dict() == \
        {"card": "10D", "action": "capture", "targets": ["5S", "B2"]}


@pytest.mark.parametrize("bad", [
    {"card": "5C"}, {"action": "trail"}, {"card": "5X", "action": "trail"},
    {"card": "5C", "action": "jump"}, {"card": "5C", "action": "trail", "extra": 1},
    {"card": "5C", "action": "build", "value": "9"}, {"card": "5C", "action": "build", "value": True},
    {"card": "5C", "action": "capture", "targets": "5S"}, {"card": "5C", "action": "capture", "targets": [5]},
    {"card": "5C", "action": "build", "value": 9, "groups": [[]]}, [], "5C trail",
])
def test_malformed_moves_are_refused_with_a_notation_error(bad):
    with pytest.raises(NotationError):
        Move.from_dict(bad)


def test_presets_resolve_to_full_options():
    assert resolve("cassino") == Options()
    assert resolve("partnership").teams is True
    assert set(VARIANTS) >= {"cassino", "partnership"}


@pytest.mark.parametrize("overrides,name", [
    ({"nonsense": 1}, "nonsense"), ({"sweeps": 3}, "sweeps"), ({"court_capture": "all"}, "court_capture"),
    ({"partial_capture": "yes"}, "partial_capture"), ({"target": 0}, "target"), ({"target": None}, "count_out"),
])
def test_unknown_options_and_values_are_refused_naming_the_option(overrides, name):
    with pytest.raises(OptionError) as refused:
        resolve("cassino", overrides)
    assert refused.value.name == name and name in str(refused.value)


def test_seat_counts_are_checked_per_variant():
    with pytest.raises(OptionError, match="played by 4"):
        resolve("partnership", players=2)
    with pytest.raises(OptionError):
        resolve("cassino", players=5)
    with pytest.raises(OptionError, match="Unknown variant"):
        resolve("poker")


def test_options_round_trip_through_their_stored_form():
    opts = resolve("cassino", {"sweeps": 2, "target": None, "count_out": False})
    assert Options.from_dict(opts.to_dict()) == opts


def test_groups_name_the_targets_when_targets_are_not_given():
    body = {"card": "3C", "action": "build", "value": 8, "groups": [["3C", "5C"], ["8D"]]}
    assert Move.from_dict(body).targets == ("8D", "5C")
    assert Move.from_dict(body) == Move.parse("3C build 8 (3C 5C) (8D)")
    with pytest.raises(NotationError):
        Move(card("3C"), "build", (), 8, ())


@pytest.mark.parametrize("body,field", [
    ({"card": "5C", "action": "trail", "targets": []}, "targets"),
    ({"card": "5C", "action": "trail", "value": None}, "value"),
    ({"card": "5C", "action": "pluck", "groups": None}, "groups"),
    ({"card": "5C", "action": "steal", "targets": ["seat:1"], "value": 5}, "value"),
])
def test_a_move_body_naming_a_field_its_action_has_not_is_refused_not_read_in_part(body, field):
    with pytest.raises(NotationError) as refused:
        Move.from_dict(body)
    assert refused.value.field == field

"""A move is legal when a generation targeted at it makes it.

``Rules.resolve`` asks the kinds' generators about one move, narrowed to
the move's card, action and template; these tests hold the narrowing to
what the full generation does, and show that a move no generator makes is
refused even where no kind's check finds fault with it.
"""

from __future__ import annotations

import random

import pytest

from domain import RuleViolation
from domain.cassino import Move, Play, decide, is_legal, legal_moves
from domain.cassino.play import rules_for
from domain.cassino.play.listing import Lister, Target
from domain.paging import Budget
from domain.cassino.play.trail import Trail
from domain.groups import ONES

from .positions import position

HIGHEST = 14


def _lister(targeted: bool) -> Lister:
    state = position(table="5C 3D", hands=["8H 2C", "4S"])
    target = Target(Move.trail(state.hands[0][0]), ()) if targeted else None
    return Lister(rules_for(state.options), state, 0, Budget(None), set(), {}, target)


def _random_counts(rnd: random.Random, v: int) -> int:
    """A packed multiset of a few values up to ``v``."""
    return sum(ONES[rnd.randint(1, v)] for _ in range(rnd.randint(0, 9)))


def _sub_multisets(counts: int) -> list[int]:
    """Every sub-multiset of ``counts``, by brute force over the fields."""
    out = [0]
    for x in range(1, HIGHEST + 1):
        k = counts >> 8 * x & 127
        out = [s + j * ONES[x] for s in out for j in range(k + 1)]
    return out


def test_a_targeted_union_is_one_the_walk_visits_with_the_same_maximality():
    """``Lister.unions`` narrowed to one union yields it exactly when the full
    walk does, and says the same of whether more could be added."""
    rnd = random.Random(27)
    full, narrowed = _lister(False), _lister(True)
    checked = 0
    for _ in range(400):
        v = rnd.randint(2, HIGHEST)
        counts = _random_counts(rnd, v)
        walked = dict(full.unions(counts, v))
        for only in _sub_multisets(counts):
            assert dict(narrowed.unions(counts, v, only)) == ({only: walked[only]} if only in walked else {})
            checked += 1
    assert checked > 2000


def test_a_targeted_union_outside_the_counts_is_not_made():
    narrowed = _lister(True)
    assert list(narrowed.unions(ONES[3] + ONES[5], 8, ONES[3] + ONES[5] + ONES[8])) == []
    assert list(narrowed.unions(ONES[3] + ONES[5], 8, None)) == []


def test_a_move_no_generator_makes_is_refused_though_its_check_accepts_it(monkeypatch):
    state = position(table="5C 3D", hands=["8H 2C", "4S"])
    trail = Move.parse("2C trail")
    assert rules_for(state.options).accepts(state, 0, trail)
    monkeypatch.setattr(Trail, "moves", lambda self, lister, card, phase: iter(()))
    assert trail not in legal_moves(state, 0) and not is_legal(state, 0, trail)
    with pytest.raises(RuleViolation) as refused:
        decide(state, Play(0, trail))
    assert refused.value.rule == "illegal_trail"
    assert "not among your legal moves" in refused.value.message


def test_a_refused_move_names_the_rule_its_check_finds():
    state = position(table="5C 3D", hands=["8H 2C", "4S"])
    with pytest.raises(RuleViolation) as refused:
        decide(state, Play(0, Move.parse("8H capture 5C")))
    assert refused.value.rule == "illegal_capture"
    assert "cannot be split into groups that each make 8" in refused.value.message


def test_words_that_only_say_how_are_read_by_the_check_and_the_move_is_the_listed_one():
    """A capture's stated value and a build's groups: the move the generators
    make without them is listed, and the check reads the words."""
    state = position(table="5C 3D 7S", hands=["8H 2C AD", "4S"])
    listed = set(legal_moves(state, 0))
    with_value, grouped = Move.parse("8H capture 8 5C 3D"), Move.parse("2C build 9 (2C 7S)")
    assert Move.parse("8H capture 5C 3D") in listed and Move.parse("2C build 9 7S") not in listed  # no 9 held
    assert is_legal(state, 0, with_value)
    assert not is_legal(state, 0, Move.parse("8H capture 9 5C 3D"))
    assert not is_legal(state, 0, grouped)
    held = position(table="5C 3D 7S", hands=["8H 2C 9D", "4S"])
    assert Move.parse("2C build 9 7S") in set(legal_moves(held, 0)) and is_legal(held, 0, grouped)
    assert not is_legal(held, 0, Move.parse("2C build 9 (2C) (7S)"))


def test_a_move_named_in_another_spelling_of_a_listed_template_is_accepted():
    """Two loose 5s: the template that takes one 5 is checked on the first;
    the move naming the other is made too."""
    state = position(table="5C 5D 3D", hands=["5H 2C", "4S"])
    for move in ("5H capture 5C", "5H capture 5D", "5H capture 5C 5D"):
        assert is_legal(state, 0, Move.parse(move)), move

"""The generator is complete: every move the kinds' checks accept is listed.

A move is accepted when the targeted generation yields it, so a move that
a kind's check would accept but its generator never produces is refused.
This test looks for such moves: over the states of random hands of every
preset (and of option sets no preset makes, drawn the way the property
tests draw them), it puts many candidate moves to the check alone (the
explanation path, ``Rules.check``) and asserts that each one it accepts,
without the words that only say how (a capture's stated value, a move's
groups), is in the full, unbounded list of legal moves.

Candidates: every trail, plucks of each loose card, steals of each pile;
captures and builds of each card of the hand with every subset of a small
table (a sample of the subsets on a larger one, half of them adding up to a
multiple of a value), at each value the card has and each build value that
divides the sum; and, with ``augment_from_piles``, builds naming the top
cards of each pile.

States come also from the differential tests' random positions (builds of
either seat, single and multiple, under random options).

Bounded by default; ``CASINO_LONG_TESTS=1`` plays many more hands.
"""

from __future__ import annotations

import itertools
import random
from dataclasses import replace

import pytest
from hypothesis import HealthCheck, Phase, given, note, settings
from hypothesis import strategies as st

from domain import RuleViolation
from domain.cassino import VARIANTS, CreateGame, Deal, GameState, Move, Play, decide, fold, legal_moves
from domain.cassino.play import rules_for, values_of
from domain.cassino.table import Build
from tests.domain.test_differential import OPTION_SETS, random_position
from tests.domain.test_properties import option_overrides
from tests.scale import LONG, scaled

HANDS = scaled(1, long=30, quick=1)  # hands per case
STATE_EVERY = scaled(4, long=1, quick=8)  # put one turn in this many to the candidates
EXHAUSTIVE_ITEMS = 5  # every subset of the table up to this many items
SAMPLED = scaled(80, long=600, quick=40)  # subsets tried on larger tables
LISTING_CAP = 20_000  # states whose full list is longer than this are skipped (crowded tables)
NO_SHRINK = (Phase.explicit, Phase.reuse, Phase.generate)  # a seed has nothing to shrink
CASES = [(name, players, {}) for name, v in sorted(VARIANTS.items()) for players in v.players[:None if LONG else 1]] + [
    ("cassino", 2, {"builds_in_sums": True, "partial_capture": False}),
    ("royal", 2, {"partial_capture": False}),
    ("royal", 3, {"builds_in_sums": True}),
    ("buckeye", 2, {"partial_capture": False, "builds_in_sums": True}),
    ("tablanette", 2, {"partial_capture": False}),
    ("african", 2, {"owner_duty": "must_act"}),
    ("trailing-royals", 2, {"owner_duty": "strict"}),
    ("pluck", 2, {"pluck_after_stock": True}),
    ("royal", 2, {"owner_duty": "strict", "raise_with_table_cards": True}),
    ("trailing-royals", 3, {"owner_duty": "must_act", "builds_in_sums": True}),
    ("stealing-bundles", 4, {}),
    ("african", 4, {}),
    ("cassino", 2, {"owner_duty": "next_turn", "raise_own_build": "needs_both", "partial_capture": False}),
]


def check_accepts(state: GameState, seat: int, move: Move) -> bool:
    """Whether the kind's check (not the generator) accepts ``move``."""
    try:
        rules_for(state.options).check(state, seat, move)
    except RuleViolation:
        return False
    return True


def plain(move: Move) -> Move:
    """``move`` without what only says how it is made: its groups, and a capture's value."""
    return replace(move, groups=None, value=None if move.action == "capture" else move.value)


def number(item, options) -> tuple[int, ...]:
    """What ``item`` counts in sums: a build its value, a card its values or else its rank."""
    if isinstance(item, Build):
        return (item.value,)
    return values_of(item, options) or (item.rank,)


def subsets(rnd: random.Random, state: GameState, card) -> list[tuple]:
    """Subsets of the table's items: all of them on a small table; else a
    sample, half of them adding up to a multiple of one of the card's values."""
    items = list(state.table)
    if len(items) <= EXHAUSTIVE_ITEMS:
        return [sub for k in range(len(items) + 1) for sub in itertools.combinations(items, k)]
    out = []
    wanted = values_of(card, state.options) or (card.rank,)
    for n in range(SAMPLED):
        sub = tuple(it for it in items if rnd.random() < rnd.choice((0.2, 0.5, 0.8)))
        if n % 2 and not any(sum(number(it, state.options)[0] for it in sub) % v == 0
                             for v in wanted):
            continue
        out.append(sub)
    return out


def build_values(state: GameState, card, sub: tuple) -> set[int]:
    """The build values the card and ``sub`` could make: those dividing one of their totals."""
    opts = state.options
    parts = [number(card, opts), *(number(it, opts) for it in sub)]
    totals = {sum(a) for a in itertools.product(*parts)}
    return {v for v in range(1, opts.highest_value + 1) for t in totals if t % v == 0}


def candidates(rnd: random.Random, state: GameState, seat: int):
    opts = state.options
    piles = [f"seat:{s}" for s in range(state.players)]
    for card in dict.fromkeys(state.hands[seat]):
        yield Move(card, "trail")
        for pile in piles:
            yield Move(card, "steal", (pile,))
        for sub in subsets(rnd, state, card):
            ids = tuple(it.id for it in sub)
            if ids:
                yield Move(card, "capture", ids)
                for v in values_of(card, opts):
                    yield Move(card, "capture", ids, v)
            for v in build_values(state, card, sub):
                yield Move(card, "build", ids, v)
                if opts.augment_from_piles:
                    for refs in pile_refs(rnd, state, seat):
                        yield Move(card, "build", ids + refs, v)
    for it in state.table:
        if not isinstance(it, Build):
            yield Move(it, "pluck")


def pile_refs(rnd: random.Random, state: GameState, seat: int) -> list[tuple[str, ...]]:
    """A few ways to name the tops of the other seats' piles (one to three cards)."""
    others = [s for s, p in enumerate(state.captured) if p and s != seat]
    if not others:
        return []
    return [tuple(f"seat:{rnd.choice(others)}" for _ in range(rnd.randint(1, 3))) for _ in range(2)]


def check_state(rnd: random.Random, state: GameState, seat: int) -> int:
    """Every candidate the check accepts is listed; returns how many were accepted."""
    bounded = legal_moves(state, seat).first(limit=LISTING_CAP, work=10 * LISTING_CAP)
    if bounded.truncated:
        return 0
    listed = set(bounded.moves)
    accepted = 0
    for move in candidates(rnd, state, seat):
        if check_accepts(state, seat, move):
            accepted += 1
            assert plain(move) in listed, (
                f"{move.text} is accepted by the check but not listed; table "
                f"{' '.join(map(str, state.table))}, hand {' '.join(map(str, state.hands[seat]))}, "
                f"piles {[' '.join(map(str, p)) for p in state.captured]}, options {state.options}")
    return accepted


def play_hands(variant: str, players: int, options: dict, rnd: random.Random) -> int:
    """Random hands, the candidates put to the check on some of their turns
    (for both the seat to play and, with plucking, the seat just played);
    returns how many candidates were accepted."""
    accepted = 0
    for _ in range(HANDS):
        names = tuple(f"P{i}" for i in range(players))
        created = CreateGame(variant, names, rnd.randrange(players), options, seed=rnd.randbytes(32))
        state = fold(decide(None, created))
        state = fold(decide(state, Deal()), state)
        crowding = rnd.random() < 0.5
        turn = 0
        while state.status == "in_progress":
            seat = state.turn
            if turn % STATE_EVERY == 0:
                accepted += check_state(rnd, state, seat)
                if state.last_player is not None and state.last_player != seat:
                    accepted += check_state(rnd, state, state.last_player)
            turn += 1
            moves = legal_moves(state, seat).first().moves
            quiet = [m for m in moves if m.action in ("trail", "build")]
            move = rnd.choice(quiet if crowding and quiet and rnd.random() < 0.9 else moves)
            state = fold(decide(state, Play(seat, move, rnd.randbytes(32))), state)
    return accepted


@pytest.mark.parametrize("variant,players,options", CASES,
                         ids=[f"{v}-{n}-{'-'.join(o) or 'preset'}" for v, n, o in CASES])
@settings(max_examples=scaled(1, long=20, quick=1), deadline=None, suppress_health_check=list(HealthCheck),
          phases=NO_SHRINK)
@given(seed=st.integers(0, 2**32 - 1))
def test_every_move_the_check_accepts_is_listed(variant, players, options, seed):
    note(f"{variant} for {players} with {options}, seed {seed}")
    assert play_hands(variant, players, options, random.Random(seed)) > 0


@settings(max_examples=scaled(6, long=200, quick=2), deadline=None, suppress_health_check=list(HealthCheck),
          phases=NO_SHRINK)
@given(options=option_overrides(), seed=st.integers(0, 2**32 - 1))
def test_every_move_the_check_accepts_is_listed_under_random_options(options, seed):
    note(f"cassino with {options}, seed {seed}")
    assert play_hands("cassino", 2, options, random.Random(seed)) > 0


POSITIONS = scaled(25, long=2000, quick=8)  # random positions per option set


@pytest.mark.parametrize("option_set", list(OPTION_SETS))
def test_every_move_the_check_accepts_is_listed_in_random_positions(option_set):
    accepted = 0
    for k in range(POSITIONS):
        pos = random_position(7_000_003 * (1 + list(OPTION_SETS).index(option_set)) + k, OPTION_SETS[option_set])
        accepted += check_state(random.Random(k), pos.state, pos.seat)
    assert accepted > POSITIONS

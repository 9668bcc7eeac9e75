"""Listing and acceptance agree, for every preset and seat count.

Random hands of each preset are played through ``legal_moves``; at every
turn each listed move must be accepted by ``decide``, and random candidate
moves (any card of the hand, any action, any subset of the table's cards and
builds, any value or none) that ``decide`` accepts must be in the list,
unless the list says it was cut. Tests that only ever play listed moves
cannot see a move the engine accepts but never offers; this one can.

Bounded by default; ``CASINO_LONG_TESTS=1`` plays many more hands.
"""

from __future__ import annotations

import random
from dataclasses import replace

import pytest
from hypothesis import HealthCheck, given, note, settings
from hypothesis import strategies as st

from domain import RuleViolation
from domain.cassino import VARIANTS, CreateGame, Deal, GameState, Move, Play, decide, fold, legal_moves
from domain.cassino.moves import ACTIONS
from tests.scale import scaled

EXAMPLES = scaled(2, long=40, quick=1)  # hands per preset and seat count
LISTED_CHECKED = scaled(30, long=1000, quick=10)  # listed moves put to decide per turn
CANDIDATES = scaled(25, long=200, quick=10)  # random candidates per turn
CASES = [(name, players) for name, v in sorted(VARIANTS.items()) for players in v.players]
#: Options that change what is legal but no preset sets.
OPTION_CASES = [
    ("cassino", 2, {"builds_in_sums": True}),
    ("cassino", 3, {"builds_in_sums": True, "partial_capture": False}),
    ("cassino", 2, {"duty_penalty": 2}),
    ("cassino", 2, {"owner_duty": "next_turn"}),
    ("cassino", 2, {"spade_five_sweeps": True, "sweeps": 1}),
    ("pluck", 2, {"pluck_after_stock": True}),
]


def outcome(state: GameState, seat: int, move: Move) -> list | None:
    """The events ``move`` brings, or None when it is refused."""
    try:
        return decide(state, Play(seat, move))
    except RuleViolation:
        return None


def accepted(state: GameState, seat: int, move: Move) -> bool:
    return outcome(state, seat, move) is not None


def offered(state: GameState, seat: int, move: Move, listed: set[Move]) -> bool:
    """Whether ``move`` is listed, or states a capture's value where a listed
    move that leaves it out does exactly the same (the list names each play
    once, without a value the card has anyway)."""
    if move in listed:
        return True
    plain = replace(move, value=None)
    return (move.action == "capture" and plain in listed
            and outcome(state, seat, move) == outcome(state, seat, plain))


def random_candidate(rnd: random.Random, state: GameState, seat: int) -> Move:
    """Any card of the hand (or of the table, for a pluck), any action, any
    subset of the table's items, any value or none; half the time the value
    the card and targets add up to, since a random value rarely fits."""
    action = rnd.choice(ACTIONS)
    loose = [it for it in state.table if not hasattr(it, "groups")]
    if action == "pluck" and loose and rnd.random() < 0.8:
        card = rnd.choice(loose)
    else:
        card = rnd.choice(state.hands[seat])
    if action == "steal" and rnd.random() < 0.8:
        return steal_candidate(rnd, state, card)
    ids = [it.id for it in state.table]
    k = rnd.randint(0, len(ids)) if rnd.random() < 0.3 else rnd.randint(0, min(4, len(ids)))
    targets = rnd.sample(list(state.table), k)
    if rnd.random() < 0.5:  # the value the card and targets add up to, counting courts by rank
        value: int | None = card.rank + sum(it.value if hasattr(it, "groups") else it.rank for it in targets)
    else:
        value = rnd.randint(0, 15) if rnd.random() < 0.6 else None
    ids = tuple(it.id for it in targets)
    if action == "build" and state.options.augment_from_piles and rnd.random() < 0.5:
        ids += pile_candidates(rnd, state)
    return Move(card, action, ids, value)


def pile_candidates(rnd: random.Random, state: GameState) -> tuple[str, ...]:
    """``augment_from_piles``: one to three cards from the tops of any seats' piles."""
    seats = [s for s, p in enumerate(state.captured) if p] or list(range(state.players))
    return tuple(f"seat:{rnd.choice(seats)}" for _ in range(rnd.randint(1, 3)))


def steal_candidate(rnd: random.Random, state: GameState, card) -> Move:
    """A steal of any seat's pile (the player's own and empty ones included),
    now and then with a second pile or a value."""
    piles = [f"seat:{s}" for s in range(state.players)]
    targets = tuple(rnd.sample(piles, 2 if rnd.random() < 0.1 else 1))
    return Move(card, "steal", targets, rnd.choice([None, None, None, card.rank]))


def check_turn(rnd: random.Random, state: GameState, seat: int) -> tuple[Move, ...]:
    listed = legal_moves(state, seat).first()
    moves = listed.moves
    for move in rnd.sample(moves, min(len(moves), LISTED_CHECKED)):
        assert accepted(state, seat, move), f"listed move {move.text} is refused"
    if not listed.truncated:
        listed_set = set(moves)
        for _ in range(CANDIDATES):
            candidate = random_candidate(rnd, state, seat)
            assert not accepted(state, seat, candidate) or offered(state, seat, candidate, listed_set), (
                f"{candidate.text} is accepted but not listed; table "
                f"{' '.join(map(str, state.table))}, hand {' '.join(map(str, state.hands[seat]))}")
    return moves


def play_hand(variant: str, players: int, rnd: random.Random, options: dict | None = None) -> int:
    """One hand, checked at every turn; returns how many turns were checked."""
    names = tuple(f"P{i}" for i in range(players))
    created = CreateGame(variant, names, rnd.randrange(players), options or {}, seed=rnd.randbytes(32))
    state = fold(decide(None, created))
    state = fold(decide(state, Deal()), state)
    turns = 0
    crowding = rnd.random() < 0.5  # mostly trails and builds, so tables grow crowded
    while state.status == "in_progress":
        seat = state.turn
        moves = check_turn(rnd, state, seat)
        turns += 1
        quiet = [m for m in moves if m.action in ("trail", "build")]
        move = rnd.choice(quiet if crowding and quiet and rnd.random() < 0.9 else moves)
        state = fold(decide(state, Play(seat, move, rnd.randbytes(32))), state)
    return turns


@pytest.mark.parametrize("variant,players", CASES, ids=[f"{v}-{n}" for v, n in CASES])
@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=list(HealthCheck))
@given(seed=st.integers(0, 2**32 - 1))
def test_every_listed_move_is_accepted_and_every_accepted_move_is_listed(variant, players, seed):
    note(f"{variant} for {players}, seed {seed}")
    assert play_hand(variant, players, random.Random(seed)) > 0


@pytest.mark.parametrize("variant,players,options", OPTION_CASES,
                         ids=[f"{v}-{n}-{'-'.join(o)}" for v, n, o in OPTION_CASES])
@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=list(HealthCheck))
@given(seed=st.integers(0, 2**32 - 1))
def test_listing_and_acceptance_agree_under_the_options_no_preset_sets(variant, players, options, seed):
    note(f"{variant} for {players} with {options}, seed {seed}")
    assert play_hand(variant, players, random.Random(seed), options) > 0

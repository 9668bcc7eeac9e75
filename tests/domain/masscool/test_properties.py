"""Property tests: random games of 2 to 8 players played through the legal
moves, with a committed seed for every shuffle. At every event each card is
in exactly one place; the events fold to the state built step by step;
a sample of the listed moves at each turn is accepted; random candidate
moves are either listed or refused with a rule; every game ends; the shuffles pass the audit.

Bounded by default; ``CASINO_LONG_TESTS=1`` plays many more games.
"""

import hashlib
import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from domain.cards import full_deck
from domain.errors import RuleViolation
from domain.masscool import (CreateGame, Deal, Move, audit_shuffles, command_for, decide, evolve, fold, follow_up,
                             from_json, legal_moves, to_json)
from tests.scale import scaled

EXAMPLES = scaled(20, long=300, quick=8)
MAX_COMMANDS = 5000


def where_every_card_is(s) -> list:
    return [*(c for m in s.money for c in m), *(c for b in s.bets for c in b), *(h for h in s.hands if h),
            *s.stock, *s.discards, *s.gathered]


def random_candidate(s, rng: random.Random) -> tuple[int, Move]:
    """A move for a random seat: a stop, or a bet of a few cards drawn from
    the seat's money and anywhere else."""
    seat = rng.randrange(s.players)
    if rng.random() < 0.2:
        return seat, Move.stop()
    pool = list(s.money[seat]) + rng.sample(full_deck(), 3)
    return seat, Move.bet(*rng.sample(pool, rng.randint(0, min(4, len(pool)))))


def check_candidates(s, rng: random.Random) -> None:
    for _ in range(3):
        seat, move = random_candidate(s, rng)
        listed = move in legal_moves(s, seat)
        try:
            decide(s, command_for(seat, move))
        except RuleViolation:
            assert not listed, (seat, move)
        else:
            assert listed, (seat, move)


def secret(rng: random.Random) -> bytes:
    return hashlib.sha256(rng.randbytes(16)).digest()


def play_game(players: int, rng: random.Random, cautious: float):
    names = tuple(f"P{i}" for i in range(players))
    events = decide(None, CreateGame(names, rng.randrange(players), {}, secret(rng)))
    state = fold(events)
    command = Deal(None, state.first_dealer, secret(rng))
    for _ in range(MAX_COMMANDS):
        new = decide(state, command)
        for event in new:
            state = evolve(state, event)
            assert sorted(where_every_card_is(state)) == sorted(full_deck())
            assert from_json(to_json(event)) == event
        events += new
        if state.is_over:
            break
        command = follow_up(state, secret(rng))
        if command is None:
            seat = state.turn
            listed = legal_moves(state, seat).first()
            assert listed.moves
            for move in rng.sample(listed.moves, min(3, len(listed.moves))):
                decide(state, command_for(seat, move))  # accepted as listed
            check_candidates(state, rng)
            move = listed.moves[0] if rng.random() < cautious else rng.choice(listed.moves)
            command = command_for(seat, move)
    assert state.is_over, "the game did not end"
    assert fold(events) == state
    assert audit_shuffles(events) == []
    return state, events


@given(players=st.integers(2, 8), seed=st.integers(0, 2**32 - 1), cautious=st.sampled_from([0.3, 0.7, 0.95]))
@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=list(HealthCheck))
def test_random_games_conserve_cards_fold_to_the_same_state_and_end(players, seed, cautious):
    state, _ = play_game(players, random.Random(seed), cautious)
    assert state.outcome.reason in ("deck_out", "last_player")


def test_each_seat_count_plays_to_both_ends_and_through_ties():
    """Over a fixed set of games: every seat count ends at least once with the
    deck run out, and ties are reshuffled along the way."""
    rng = random.Random(15)
    seen = set()
    ties = 0
    for players in range(2, 9):
        for _ in range(6):
            state, events = play_game(players, rng, 0.9)
            seen.add((players, state.outcome.reason))
            ties += state.shuffles - 1
    assert {(p, "deck_out") for p in range(2, 9)} <= seen
    assert ties > 0

"""Checking a move and listing moves agree, because checking one is
generating it: ``resolve_play`` accepts a move when the kinds' generators,
targeted at it, make it, and a refusal names the rule the move's kind finds
broken (docs/design.md, The rules of a turn).

Hypothesis draws the positions: crowded two-player tables with builds of
either seat under random options (the differential tests' positions), and
positions reached by random plays of every preset and of option sets no
preset makes. For every seat of each:

- every generated move is accepted: ``resolve_play`` returns its play, and
  ``is_legal`` says yes;
- every accepted move is generated: of many candidates (the ones the
  generators' completeness test builds, and random ones of any card, action,
  targets and value), each that ``resolve_play`` accepts is in the full list,
  once the words that only say how it is made are left out;
- every refused move has a reason: a ``RuleViolation`` with a rule's
  machine name and a sentence, the same the move's kind's own check gives,
  and ``is_legal`` says no.

Bounded by default; ``CASINO_LONG_TESTS=1`` draws many more positions.
"""

from __future__ import annotations

import random
import re

from hypothesis import HealthCheck, given, note, settings
from hypothesis import strategies as st

from domain import RuleViolation, full_deck
from domain.cassino import CreateGame, Deal, GameState, Move, Play, decide, fold, is_legal, legal_moves
from domain.cassino.play import resolve_play, rules_for
from tests.domain.test_differential import OPTION_SETS, random_position
from tests.domain.test_generator_complete import CASES, LISTING_CAP, candidates, plain
from tests.domain.test_listing_agrees import random_candidate
from tests.scale import scaled

EXAMPLES = scaled(150, long=3000, quick=30)  # positions drawn per test
RANDOM_CANDIDATES = 40  # random candidates per seat, besides the completeness test's
RULE_NAME = re.compile(r"[a-z][a-z_]*[a-z]")

SEEDS = st.integers(0, 2**32 - 1)


@st.composite
def crowded_tables(draw) -> GameState:
    """A crowded two-player table with builds of either seat, under one of
    the differential tests' option sets (one draws every option at random)."""
    option_set = draw(st.sampled_from(list(OPTION_SETS)))
    return random_position(draw(SEEDS), OPTION_SETS[option_set]).state


@st.composite
def played_positions(draw) -> GameState:
    """Where a game of a preset (or an option set no preset makes) stands
    after some random plays of its first hand: in that hand, or just past it."""
    variant, players, options = draw(st.sampled_from(CASES))
    rnd = random.Random(draw(SEEDS))
    names = tuple(f"P{i}" for i in range(players))
    state = fold(decide(None, CreateGame(variant, names, rnd.randrange(players), options, seed=rnd.randbytes(32))))
    state = fold(decide(state, Deal()), state)
    for _ in range(draw(st.integers(0, 60))):
        if state.status != "in_progress":
            break
        move = rnd.choice(legal_moves(state, state.turn).first().moves)
        state = fold(decide(state, Play(state.turn, move, rnd.randbytes(32))), state)
    return state


def refusal(state: GameState, seat: int, move: Move, check) -> RuleViolation | None:
    """Why ``check`` refuses ``move`` by ``seat``, or None if it accepts it."""
    try:
        check(state, seat, move)
    except RuleViolation as error:
        return error
    return None


def check_seat(rnd: random.Random, state: GameState, seat: int) -> tuple[int, int]:
    """Generation and checking agree for ``seat``: returns how many
    candidates were accepted and how many refused."""
    listing = legal_moves(state, seat).first(limit=LISTING_CAP, work=10 * LISTING_CAP)
    for move in listing.moves:
        play = resolve_play(state, seat, move)
        assert play.move == move and is_legal(state, seat, move), move.text
    listed = None if listing.truncated else set(listing.moves)
    own_check = rules_for(state.options).check
    foreign = rnd.choice([c for c in full_deck() if c not in state.hands[seat]])
    tried = [Move.trail(foreign), *candidates(rnd, state, seat)]  # a card not in hand: refused always
    if state.hands[seat]:  # a random candidate plays a card of the hand
        tried += [random_candidate(rnd, state, seat) for _ in range(RANDOM_CANDIDATES)]
    accepted = refused = 0
    for move in tried:
        why = refusal(state, seat, move, resolve_play)
        if why is None:
            accepted += 1
            assert is_legal(state, seat, move), move.text
            assert listed is None or plain(move) in listed, f"{move.text} is accepted but not generated"
            continue
        refused += 1
        assert not is_legal(state, seat, move), move.text
        assert RULE_NAME.fullmatch(why.rule) and why.message.strip(), (move.text, why.rule, why.message)
        kinds = refusal(state, seat, move, own_check)
        assert kinds is not None, f"{move.text}: no kind's check refuses it, yet no generator makes it"
        assert (why.rule, why.message) == (kinds.rule, kinds.message), move.text
    return accepted, refused


def check_position(state: GameState, seed: int) -> None:
    note(f"{state.variant} for {state.players}, options {state.options}; table "
         f"{' '.join(map(str, state.table))}; hands {[' '.join(map(str, h)) for h in state.hands]}; "
         f"turn {state.turn}, status {state.status}")
    rnd = random.Random(seed)
    refused = 0
    for seat in range(state.players):
        refused += check_seat(rnd, state, seat)[1]
    assert refused >= state.players  # a card not in hand at the least


SETTINGS = settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@SETTINGS
@given(state=crowded_tables(), seed=SEEDS)
def test_on_crowded_tables_checking_a_move_is_generating_it(state, seed):
    check_position(state, seed)


@SETTINGS
@given(state=played_positions(), seed=SEEDS)
def test_in_played_games_checking_a_move_is_generating_it(state, seed):
    check_position(state, seed)

"""The play a generation makes is the play the check makes.

``resolve_play`` accepts a move when a generation targeted at it makes it,
and the play it answers is made from what the generation found (a kind's
``made``), not from the kind's check, which only explains a refusal. These
tests hold the two to each other on the property tests' positions (crowded
tables under random options, and positions of random plays of every
preset): for every move listed, and for every candidate move, the check
accepts exactly what the generation accepts, with the very same play (the
same build and groups, sweep, pips, default), or refuses it with the same
rule and sentence.
"""

from __future__ import annotations

import random

from hypothesis import given

from domain import RuleViolation, full_deck
from domain.cassino import GameState, Move
from domain.cassino.play import resolve_play, rules_for
from tests.domain.test_checking_is_generating import SEEDS, SETTINGS, crowded_tables, played_positions
from tests.domain.test_generator_complete import LISTING_CAP, candidates
from tests.domain.test_listing_agrees import random_candidate
from domain.cassino import legal_moves


def _outcome(decide, state: GameState, seat: int, move: Move) -> object:
    try:
        return decide(state, seat, move)
    except RuleViolation as error:
        return (error.rule, error.message)


def check_seat(rnd: random.Random, state: GameState, seat: int) -> int:
    """Returns how many moves were made (accepted) by both."""
    check = rules_for(state.options).check
    listed = legal_moves(state, seat).first(limit=LISTING_CAP // 10, work=LISTING_CAP).moves
    tried = [*listed, *candidates(rnd, state, seat)]
    if state.hands[seat]:
        tried += [random_candidate(rnd, state, seat) for _ in range(20)]
    tried.append(Move.trail(rnd.choice([c for c in full_deck() if c not in state.hands[seat]])))
    made = 0
    for move in tried:
        generated, checked = _outcome(resolve_play, state, seat, move), _outcome(check, state, seat, move)
        if isinstance(checked, tuple):  # refused by the check: refused by the generation, for the same reason
            assert generated == checked, move.text
        else:  # accepted by the check, it is generated, with the play the check makes
            assert generated == checked, move.text
            made += 1
    for move in listed:
        assert not isinstance(_outcome(check, state, seat, move), tuple), f"{move.text} is listed, the check refuses it"
    return made


def check_position(state: GameState, seed: int) -> None:
    rnd = random.Random(seed)
    for seat in range(state.players):
        check_seat(rnd, state, seat)


@SETTINGS
@given(state=crowded_tables(), seed=SEEDS)
def test_on_crowded_tables_the_generated_play_is_the_checked_play(state, seed):
    check_position(state, seed)


@SETTINGS
@given(state=played_positions(), seed=SEEDS)
def test_in_played_games_the_generated_play_is_the_checked_play(state, seed):
    check_position(state, seed)

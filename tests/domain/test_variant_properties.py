"""Property tests over every variant of the family: random hands played
through ``legal_moves``, checking at every step that every card is in exactly
one place, that folding the events gives the state built step by step, and
that each hand's points add up as the variant defines them.

Bounded by default; ``CASINO_LONG_TESTS=1`` plays many more hands.
"""

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from domain.cassino import CreateGame, Deal, Play, VARIANTS, decide, evolve, fold, legal_moves
from domain.cassino.dealing import deck_for
from domain.cassino.events import CardsCaptured, HandEnded, PointsScored
from domain.cassino.table import table_cards
from tests.scale import scaled

EXAMPLES = scaled(25, long=400, quick=8)
CASES = [(name, players) for name, v in sorted(VARIANTS.items()) for players in v.players]
#: 004's variations that score during a hand, which no preset sets (Michigan among them).
OPTION_CASES = [
    ("cassino", 2, {"sweeps": 1, "instant_sweeps": True}),
    ("cassino", 3, {"instant_points": True}),
    ("cassino", 2, {"sweeps": 1, "spade_five_sweeps": True}),
    ("cassino", 2, {"duty_penalty": 2, "sweeps": 2, "instant_sweeps": True, "target": 5, "strikes_to_lose": 3}),
    ("diamond", 3, {"instant_points": True, "instant_sweeps": True}),
    ("tablanette", 2, {"instant_points": True}),
]


def where_every_card_is(state) -> list:
    return [*state.stock, *(c for h in state.hands for c in h), *table_cards(state.table),
            *(c for p in state.captured for c in p)]


def cards_total(state) -> int:
    """``score_by_cards`` (Stealing Bundles): a point per card, so every card of the deck once."""
    return sum(len(p) for p in state.captured)


def african_total(state) -> int:
    """``african_points``: 2 for most cards and 2 for most spades (1 to each
    side tied for either), 1 for 2S, 2 for 10S, 1 per ace."""
    piles = [[c for s, p in enumerate(state.captured) if state.seats[s].team == t for c in p]
             for t in range(state.teams)]
    total = 0
    for counts in ([len(p) for p in piles], [sum(c.suit == "S" for c in p) for p in piles]):
        tied = counts.count(max(counts))
        total += 2 if tied == 1 else tied
    return total + 1 + 2 + 4  # every card is in some pile at the end of a hand


def team_piles(state) -> list[list]:
    return [[c for s, p in enumerate(state.captured) if state.seats[s].team == t for c in p]
            for t in range(state.teams)]


def most(counts: list[int], points: int) -> int:
    """A category won outright scores ``points``; a tie for the most scores nothing."""
    return points if counts.count(max(counts)) == 1 else 0


def diamond_total(state) -> int:
    """``diamond_points``: most cards 1, most diamonds 1, 7D 1, 2 for every rank
    of 7, 6 and ace of which one side holds all four; a point a sweep."""
    piles = team_piles(state)
    total = most([len(p) for p in piles], 1) + most([sum(c.suit == "D" for c in p) for p in piles], 1) + 1
    total += sum(2 for p in piles for rank in (7, 6, 1) if sum(c.rank == rank for c in p) == 4)
    return total + state.options.sweeps * sum(state.sweeps)


def tablanette_total(state) -> int:
    """``tablanette_points``: most cards 3; the twenty aces, tens and courts 1
    each, the 10D one more, the 2C 1 (every card is in a pile at the end).
    Sweeps score their pips during the hand, counted apart."""
    return most([len(p) for p in team_piles(state)], 3) + 20 + 1 + 1


def pips_of(capture: CardsCaptured, options) -> set[int]:
    """What a sweep's table cards may add up to (an ace 1 or 11), where the
    played card's value divides it: the pips a sweep may score."""
    from domain.cassino.play import values_of
    totals = {0}
    for card in capture.cards[:-1]:
        totals = {t + x for t in totals for x in values_of(card, options)}
    played = values_of(capture.card, options)
    return {t for t in totals if any(t % v == 0 for v in played)}


def expected_hand_total(state) -> int:
    """The hand's points, counted from the piles without the engine's scoring code."""
    opts = state.options
    if opts.score_by_cards:
        return cards_total(state)
    if opts.african_points:
        return african_total(state)
    if opts.diamond_points:
        return diamond_total(state)
    if opts.tablanette_points:
        return tablanette_total(state)
    piles = team_piles(state)
    sizes = [len(p) for p in piles]
    spades = [sum(c.suit == "S" for c in p) for p in piles]
    total = 0
    if sizes.count(max(sizes)) == 1:
        total += 3
    elif opts.most_cards_tie == "split":
        total += sizes.count(max(sizes))
    elif opts.most_cards_tie == "spades_decide":
        tied = [spades[t] for t in range(len(piles)) if sizes[t] == max(sizes)]
        total += 3 if tied.count(max(tied)) == 1 else 0
    if opts.spade_points != "each" and spades.count(max(spades)) == 1:
        total += 1
    taken = {c.code for p in piles for c in p}
    total += 2 * ("10D" in taken) + ("2S" in taken) + sum(a in taken for a in ("AS", "AH", "AD", "AC"))
    if opts.spade_points != "none":
        total += sum(spades) + ("JS" in taken)
    sweeps = [sum(state.sweeps[s] for s in range(len(state.seats)) if state.seats[s].team == t)
              for t in range(state.teams)]
    if opts.sweeps_cancel:
        sweeps = [n - min(sweeps) for n in sweeps]
    return total + opts.sweeps * sum(sweeps)


def play_hand(variant, players, rng, options=None):
    names = tuple(f"P{i}" for i in range(players))
    events = decide(None, CreateGame(variant, names, rng.randrange(players), options or {}, seed=rng.randbytes(32)))
    state = fold(events)
    new = decide(state, Deal())
    for event in new:
        state = evolve(state, event)
    events += new
    scored_now = pips = defaults = 0
    capture = None
    while state.status == "in_progress":
        seat = state.turn
        listed = legal_moves(state, seat).first()
        assert listed.moves
        move = rng.choice(listed.moves)
        new = decide(state, Play(seat, move, rng.randbytes(32)))
        for event in new:
            state = evolve(state, event)
            assert sorted(where_every_card_is(state)) == sorted(deck_for(state.options))
            if isinstance(event, CardsCaptured):
                capture = event
            if isinstance(event, PointsScored):
                scored_now += sum(a.points for a in event.awards)
                defaults += sum(a.points for a in event.awards if a.category == "default")
                if state.options.sweep_pips:
                    swept = [a.points for a in event.awards if a.category == "sweeps"]
                    assert all(capture.sweep and n in pips_of(capture, state.options) for n in swept)
                    pips += sum(swept)
            if isinstance(event, HandEnded):
                hand = scored_now + sum(a.points for a in event.points)
                assert hand == expected_hand_total(state) + pips + defaults + sum(
                    a.points for a in event.points if a.category == "all_eleven")
        events += new
    assert fold(events) == state
    return state


@given(case=st.sampled_from(CASES), seed=st.integers(0, 2**32 - 1))
@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=list(HealthCheck))
def test_every_variant_conserves_cards_scores_as_defined_and_folds_to_the_same_state(case, seed):
    variant, players = case
    state = play_hand(variant, players, random.Random(seed))
    assert state.status in ("hand_over", "finished")


def test_each_variant_and_seat_count_is_played_at_least_once():
    rng = random.Random(99)
    for variant, players in CASES:
        assert play_hand(variant, players, rng).status in ("hand_over", "finished")


@given(case=st.sampled_from(OPTION_CASES), seed=st.integers(0, 2**32 - 1))
@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=list(HealthCheck))
def test_scores_made_during_a_hand_add_up_as_defined(case, seed):
    variant, players, options = case
    state = play_hand(variant, players, random.Random(seed), options)
    assert state.status in ("hand_over", "finished")

"""Scoring a hand, settling the game, and checking a count-out.

Points are listed in the fixed scoring order of the standard game, so that
``end_rule: scoring_order`` can count them one by one:

most cards (3), most spades (1), big casino 10D (2), little casino 2S (1),
the aces in the order spades, clubs, hearts, diamonds (1 each), then sweeps.
"""

from __future__ import annotations

from dataclasses import dataclass

from .cards import Card
from .dealing import deck_for
from .options import Options
from .state import GameState

BIG_CASINO = Card.parse("10D")
LITTLE_CASINO = Card.parse("2S")
ACES = tuple(Card.parse(code) for code in ("AS", "AC", "AH", "AD"))
SPADES = 13



@dataclass(frozen=True, slots=True)
class Award:
    """Points a team scored in one category of a hand."""

    category: str  # most_cards, most_spades, big_casino, little_casino, ace_S, ..., sweeps
    team: int
    points: int


def _leader(counts: list[int]) -> int | None:
    """The team with strictly the most, or None on a tie for the most."""
    best = max(counts)
    leaders = [t for t, n in enumerate(counts) if n == best]
    return leaders[0] if len(leaders) == 1 else None


def hand_points(state: GameState) -> list[Award]:
    """Each team's points for the hand just played, in scoring order."""
    opts = state.options
    piles = [state.team_captures(t) for t in range(state.teams)]
    cards = [len(p) for p in piles]
    spades = [sum(1 for c in p if c.suit == "S") for p in piles]
    out: list[Award] = []
    out += _most_cards(cards, spades, opts)
    top = _leader(spades)
    if top is not None:
        out.append(Award("most_spades", top, 1))
    for special, category, points in ((BIG_CASINO, "big_casino", 2), (LITTLE_CASINO, "little_casino", 1)):
        out += [Award(category, t, points) for t, p in enumerate(piles) if special in p]
    for ace in ACES:
        out += [Award(f"ace_{ace.suit}", t, 1) for t, p in enumerate(piles) if ace in p]
    out += _sweep_points(state)
    return out


def _most_cards(cards: list[int], spades: list[int], opts: Options) -> list[Award]:
    top = _leader(cards)
    if top is not None:
        return [Award("most_cards", top, 3)]
    tied = [t for t, n in enumerate(cards) if n == max(cards)]
    if opts.most_cards_tie == "split":
        return [Award("most_cards", t, 1) for t in tied]
    if opts.most_cards_tie == "spades_decide":
        by_spades = [spades[t] if t in tied else -1 for t in range(len(cards))]
        winner = _leader(by_spades)
        if winner is not None:
            return [Award("most_cards", winner, 3)]
    return []


def _sweep_points(state: GameState) -> list[Award]:
    opts = state.options
    if not opts.sweeps:
        return []
    per_team = [sum(state.sweeps[s] for s in state.team_seats(t)) for t in range(state.teams)]
    if opts.sweeps_cancel:
        low = min(per_team)
        per_team = [n - low for n in per_team]
    return [Award("sweeps", t, n * opts.sweeps) for t, n in enumerate(per_team) if n]


def settle(state: GameState, points: list[Award]) -> tuple[tuple[int, ...], int | None, str | None]:
    """Add a hand's points; return the new scores, the winner (or None) and why.

    The reason is None while the game goes on.
    """
    opts = state.options
    scores = list(state.scores)
    winner = None
    for award in points:
        scores[award.team] += award.points
        if opts.target is not None and opts.end_rule == "scoring_order" and winner is None \
                and scores[award.team] >= opts.target:
            winner = award.team
    if opts.target is None:
        hand = [0] * state.teams
        for award in points:
            hand[award.team] += award.points
        top = _leader(hand)
        return tuple(scores), top, "single_hand" if top is not None else "draw"
    if winner is None and any(s >= opts.target for s in scores):
        winner = _leader(scores)  # end_rule "highest"; a tie at the top plays on
    return tuple(scores), winner, "target" if winner is not None else None


def secured_points(state: GameState, team: int) -> int:
    """Points ``team`` has already made sure of in the hand being played.

    Card points count once taken; most cards and most spades count only when
    no other team could still catch up; sweeps count unless they can be
    cancelled by the other side's later sweeps.
    """
    opts = state.options
    piles = [state.team_captures(t) for t in range(state.teams)]
    mine = piles[team]
    total = 0
    total += 2 if BIG_CASINO in mine else 0
    total += 1 if LITTLE_CASINO in mine else 0
    total += sum(1 for ace in ACES if ace in mine)
    if opts.sweeps and not opts.sweeps_cancel:
        total += opts.sweeps * sum(state.sweeps[s] for s in state.team_seats(team))
    out_cards = len(deck_for(opts)) - sum(len(p) for p in piles)
    spades = [sum(1 for c in p if c.suit == "S") for p in piles]
    out_spades = SPADES - sum(spades)
    others = [t for t in range(state.teams) if t != team]
    if all(len(mine) > len(piles[t]) + out_cards for t in others):
        total += 3
    if all(spades[team] > spades[t] + out_spades for t in others):
        total += 1
    return total

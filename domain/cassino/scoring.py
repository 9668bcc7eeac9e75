"""Scoring a hand, settling the game, and checking a count-out.

Points are listed in the fixed scoring order of the standard game, so that
``end_rule: scoring_order`` can count them one by one:

most cards (3), most spades (1), big casino 10D (2), little casino 2S (1),
the aces in the order spades, clubs, hearts, diamonds (1 each), then sweeps.
With ``score_by_cards`` a hand scores only its cards, one point each.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable
from dataclasses import dataclass

from ..cards import Card
from .dealing import deck_for
from .options import Options
from .state import EndReason, GameState

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


JACK_OF_SPADES = Card.parse("JS")
#: The categories of the standard eleven points, for ``all_eleven``.
ELEVEN = ("most_cards", "most_spades", "big_casino", "little_casino", "ace_S", "ace_C", "ace_H", "ace_D")


def hand_points(state: GameState) -> list[Award]:
    """Each team's points for the hand just played, in scoring order.

    With ``instant_scoring`` the card points and sweeps already scored during
    the hand are left out: they were counted as they were taken.
    """
    opts = state.options
    piles = [state.team_captures(t) for t in range(state.teams)]
    if opts.score_by_cards:
        return _cards_taken(piles)
    if opts.african_points:
        return _african(piles) + _sweep_points(state)
    cards = [len(p) for p in piles]
    spades = [sum(1 for c in p if c.suit == "S") for p in piles]
    out: list[Award] = []
    out += _most_cards(cards, spades, opts)
    top = _leader(spades)
    if top is not None and opts.spade_points != "each":
        out.append(Award("most_spades", top, 1))
    for t, pile in enumerate(piles):
        out += [Award(a.category, t, a.points) for a in card_points(pile, opts)]
    out.sort(key=lambda a: _ORDER.index(a.category))
    out += _sweep_points(state)
    out += _all_eleven(out, opts)
    if opts.instant_scoring:
        out = _less(out, state.instant_awards)
    return out


def _cards_taken(piles: list[tuple[Card, ...]]) -> list[Award]:
    """``score_by_cards`` (Stealing Bundles): a point per card in each pile."""
    return [Award("cards", t, len(pile)) for t, pile in enumerate(piles) if pile]


SPY_TWO = LITTLE_CASINO
BIG_TEN = Card.parse("10S")


def _african(piles: list[tuple[Card, ...]]) -> list[Award]:
    """``african_points`` (003 African), in its strict order: most cards 2,
    most spades 2 (a tie for either: 1 to each side tied), the 2 of spades
    ("spy two") 1, the 10 of spades ("big ten") 2, then the aces, 1 each."""
    out: list[Award] = []
    for category, counts in (("most_cards", [len(p) for p in piles]),
                             ("most_spades", [sum(1 for c in p if c.suit == "S") for p in piles])):
        tied = [t for t, n in enumerate(counts) if n == max(counts)]
        out += [Award(category, t, 2 if len(tied) == 1 else 1) for t in tied]
    for card, category, points in ((SPY_TWO, "spy_two", 1), (BIG_TEN, "big_ten", 2)):
        out += [Award(category, t, points) for t, p in enumerate(piles) if card in p]
    out += [Award(f"ace_{ace.suit}", t, 1) for ace in ACES for t, p in enumerate(piles) if ace in p]
    return out


def _less(points: list[Award], scored: Iterable[Award]) -> list[Award]:
    """``points`` less what was already ``scored`` in each category by each team."""
    already: dict[tuple[str, int], int] = {}
    for a in scored:
        already[a.category, a.team] = already.get((a.category, a.team), 0) + a.points
    out = []
    for a in points:
        left = a.points - already.pop((a.category, a.team), 0)
        if left > 0:
            out.append(Award(a.category, a.team, left))
    return out


def instant_points(state: GameState, seat: int, cards: Collection[Card], sweep: bool) -> list[Award]:
    """With ``instant_scoring``, what a capture scores at once: its cards' own
    points and its sweep."""
    team = state.team_of(seat)
    out = [Award(a.category, team, a.points) for a in card_points(cards, state.options)]
    if sweep:
        out.append(Award("sweeps", team, state.options.sweeps))
    return out


_ORDER = ("most_cards", "most_spades", "big_casino", "little_casino", "ace_S", "ace_C", "ace_H", "ace_D",
          "spades")


def card_points(cards: Collection[Card], opts: Options) -> list[Award]:
    """The points that cards score by themselves, for one team (team 0 here)."""
    out = []
    if BIG_CASINO in cards:
        out.append(Award("big_casino", 0, 2))
    if LITTLE_CASINO in cards:
        out.append(Award("little_casino", 0, 1))
    out += [Award(f"ace_{ace.suit}", 0, 1) for ace in ACES if ace in cards]
    if opts.spade_points != "none":
        n = sum(1 for c in cards if c.suit == "S") + (JACK_OF_SPADES in cards)
        if n:
            out.append(Award("spades", 0, n))
    return out


def _all_eleven(points: list[Award], opts: Options) -> list[Award]:
    """``bonus``: a side that took all eleven standard points scores a twelfth."""
    if opts.all_eleven != "bonus":
        return []
    return [Award("all_eleven", t, 1) for t in {a.team for a in points} if took_all_eleven(points, t)]


def took_all_eleven(points: list[Award], team: int) -> bool:
    """Whether ``team`` alone scored every one of the eleven standard points
    (a share of a split tie for cards is not all of them)."""
    mine = {a.category for a in points if a.team == team}
    others = {a.category for a in points if a.team != team}
    return set(ELEVEN) <= mine and not others & set(ELEVEN)


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


def settle(state: GameState, points: list[Award]) -> tuple[tuple[int, ...], int | None, EndReason | None]:
    """Add a hand's points; return the new scores, the winner (or None) and why.

    The reason is None while the game goes on.
    """
    opts = state.options
    scores = list(state.scores)
    winner = None
    if opts.all_eleven in ("win", "skunk") and (opts.all_eleven == "win" or state.hand_number == 1):
        sweeper = next((t for t in range(state.teams) if took_all_eleven(points, t)), None)
        if sweeper is not None:
            for award in points:
                scores[award.team] += award.points
            return tuple(scores), sweeper, EndReason.ALL_ELEVEN
    for award in points:
        scores[award.team] += award.points
        if opts.target is not None and opts.end_rule == "scoring_order" and winner is None \
                and scores[award.team] >= opts.target:
            winner = award.team
    if opts.deals_each is not None:
        if state.hand_number < opts.deals_each * state.players:
            return tuple(scores), None, None
        top = _leader(scores)
        return tuple(scores), top, EndReason.LAST_DEAL if top is not None else EndReason.DRAW
    if opts.target is None:
        hand = [0] * state.teams
        for award in points:
            hand[award.team] += award.points
        top = _leader(hand)
        return tuple(scores), top, EndReason.SINGLE_HAND if top is not None else EndReason.DRAW
    if winner is None and any(s >= opts.target for s in scores):
        winner = _leader(scores)  # end_rule "highest"; a tie at the top plays on
    return tuple(scores), winner, EndReason.TARGET if winner is not None else None


def secured_points(state: GameState, team: int) -> int:
    """Points ``team`` has already made sure of in the hand being played.

    Card points count once taken; most cards and most spades count only when
    no other team could still catch up; sweeps count unless they can be
    cancelled by the other side's later sweeps.
    """
    opts = state.options
    piles = [state.team_captures(t) for t in range(state.teams)]
    mine = piles[team]
    total = sum(a.points for a in card_points(mine, opts))
    total -= sum(a.points for a in state.instant_awards if a.team == team and a.category != "sweeps")
    if opts.sweeps and not opts.sweeps_cancel and not opts.instant_scoring:
        total += opts.sweeps * sum(state.sweeps[s] for s in state.team_seats(team))
    out_cards = len(deck_for(opts)) - sum(len(p) for p in piles)
    spades = [sum(1 for c in p if c.suit == "S") for p in piles]
    out_spades = SPADES - sum(spades)
    others = [t for t in range(state.teams) if t != team]
    if all(len(mine) > len(piles[t]) + out_cards for t in others):
        total += 3
    if opts.spade_points != "each" and all(spades[team] > spades[t] + out_spades for t in others):
        total += 1
    return total

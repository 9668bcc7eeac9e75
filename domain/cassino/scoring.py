"""Scoring a hand, settling the game, and checking a count-out.

A hand's points are counted by one of the scoring tables the options choose
(the standard one, or African, Diamond or Tablanette points), each listed in
its fixed order, so that ``end_rule: scoring_order`` can count them one by
one. The standard order:

most cards (3), most spades (1), big casino 10D (2), little casino 2S (1),
the aces in the order spades, clubs, hearts, diamonds (1 each), then sweeps.
With ``score_by_cards`` a hand scores only its cards, one point each.

Points already scored during the hand (sudden death, Tablanette's pips, a
default's penalty) are recorded in ``PointsScored`` events and not counted
again at its end.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable
from dataclasses import dataclass

from ..cards import Card
from .dealing import deck_for
from .options import Options
from .state import Award, EndReason, GameState

BIG_CASINO = Card.parse("10D")
LITTLE_CASINO = Card.parse("2S")
ACES = tuple(Card.parse(code) for code in ("AS", "AC", "AH", "AD"))
SPY_TWO = LITTLE_CASINO
BIG_TEN = Card.parse("10S")
SEVEN_OF_DIAMONDS = Card.parse("7D")
TWO_OF_CLUBS = Card.parse("2C")
JACK_OF_SPADES = Card.parse("JS")


def _leader(counts: list[int]) -> int | None:
    """The team with strictly the most, or None on a tie for the most."""
    best = max(counts)
    leaders = [t for t, n in enumerate(counts) if n == best]
    return leaders[0] if len(leaders) == 1 else None


#: The categories of the standard eleven points, for ``all_eleven``.
ELEVEN = ("most_cards", "most_spades", "big_casino", "little_casino", "ace_S", "ace_C", "ace_H", "ace_D")
_ACE_SCORES = tuple((ace, f"ace_{ace.suit}", 1) for ace in ACES)

#: What single cards score, per scoring table: (card, category, points).
_CARD_SCORES: dict[str, tuple[tuple[Card, str, int], ...]] = {
    "standard": ((BIG_CASINO, "big_casino", 2), (LITTLE_CASINO, "little_casino", 1), *_ACE_SCORES),
    "african": ((SPY_TWO, "spy_two", 1), (BIG_TEN, "big_ten", 2), *_ACE_SCORES),
    "diamond": ((SEVEN_OF_DIAMONDS, "seven_of_diamonds", 1),),
    "tablanette": ((BIG_CASINO, "ten_of_diamonds", 1), (TWO_OF_CLUBS, "two_of_clubs", 1)),
}
#: Diamond's sets: all four cards of a rank, 2 points each set.
_SETS = ((7, "four_sevens"), (6, "four_sixes"), (1, "four_aces"))
#: Tablanette's point cards: each ace, ten and court, 1 point.
_TABLANETTE_RANKS = frozenset((1, 10, 11, 12, 13))
#: Each table's categories in scoring order (sweeps come after them all).
_ORDERS = {
    "standard": (*ELEVEN, "spades"),
    "african": ("most_cards", "most_spades", "spy_two", "big_ten", "ace_S", "ace_C", "ace_H", "ace_D"),
    "diamond": ("most_cards", "most_diamonds", "seven_of_diamonds", *(c for _, c in _SETS)),
    "tablanette": ("most_cards", "point_cards", "ten_of_diamonds", "two_of_clubs"),
}
#: Categories only ever scored during a hand, never at its end.
_AT_ONCE_ONLY = ("sweeps", "default")
#: Every category an award can have, whatever the options.
CATEGORIES = frozenset({c for order in _ORDERS.values() for c in order} | {"cards", "all_eleven", *_AT_ONCE_ONLY})


def points_table(options: Options) -> str:
    """The scoring table the options choose."""
    if options.african_points:
        return "african"
    if options.diamond_points:
        return "diamond"
    if options.tablanette_points:
        return "tablanette"
    return "standard"


def hand_points(state: GameState) -> list[Award]:
    """Each team's points for the hand just played, in scoring order, less
    what was already scored during the hand (``PointsScored``)."""
    opts = state.options
    piles = [state.team_captures(t) for t in range(state.teams)]
    if opts.score_by_cards:
        return _cards_taken(piles)
    table = points_table(opts)
    out = _TABLES[table](piles, opts)
    for t, pile in enumerate(piles):
        out += [Award(a.category, t, a.points) for a in card_points(pile, opts)]
    order = _ORDERS[table]
    out.sort(key=lambda a: order.index(a.category))
    out += _sweep_points(state)
    out += _all_eleven(out, opts)
    return _less(out, state.instant_awards)


def _cards_taken(piles: list[tuple[Card, ...]]) -> list[Award]:
    """``score_by_cards`` (Stealing Bundles): a point per card in each pile."""
    return [Award("cards", t, len(pile)) for t, pile in enumerate(piles) if pile]


def _suited(pile: Iterable[Card], suit: str) -> int:
    return sum(1 for c in pile if c.suit == suit)


def _standard(piles: list[tuple[Card, ...]], opts: Options) -> list[Award]:
    """Most cards 3 (a tie as ``most_cards_tie`` says), most spades 1 (unless
    every spade scores by itself)."""
    spades = [_suited(p, "S") for p in piles]
    out = _most_cards([len(p) for p in piles], spades, opts, 3)
    top = _leader(spades)
    if top is not None and opts.spade_points != "each":
        out.append(Award("most_spades", top, 1))
    return out


def _african(piles: list[tuple[Card, ...]], opts: Options) -> list[Award]:
    """``african_points`` (003 African): most cards 2, most spades 2, a tie for
    either giving 1 to each side tied."""
    out: list[Award] = []
    for category, counts in (("most_cards", [len(p) for p in piles]),
                             ("most_spades", [_suited(p, "S") for p in piles])):
        tied = [t for t, n in enumerate(counts) if n == max(counts)]
        out += [Award(category, t, 2 if len(tied) == 1 else 1) for t in tied]
    return out


def _diamond(piles: list[tuple[Card, ...]], opts: Options) -> list[Award]:
    """``diamond_points`` (004 Diamond): most cards 1, most diamonds 1, and 2
    for each rank of 7s, 6s and aces of which a side took all four."""
    out = _most_cards([len(p) for p in piles], [_suited(p, "S") for p in piles], opts, 1)
    top = _leader([_suited(p, "D") for p in piles])
    if top is not None:
        out.append(Award("most_diamonds", top, 1))
    for rank, category in _SETS:
        out += [Award(category, t, 2) for t, p in enumerate(piles) if sum(1 for c in p if c.rank == rank) == 4]
    return out


def _tablanette(piles: list[tuple[Card, ...]], opts: Options) -> list[Award]:
    """``tablanette_points``: most cards 3; the cards score by themselves."""
    return _most_cards([len(p) for p in piles], [_suited(p, "S") for p in piles], opts, 3)


_TABLES: dict[str, Callable[[list[tuple[Card, ...]], Options], list[Award]]] = {
    "standard": _standard, "african": _african, "diamond": _diamond, "tablanette": _tablanette,
}


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


def instant_points(state: GameState, seat: int, cards: Collection[Card], sweep: bool, pips: int = 0,
                   default: bool = False) -> list[Award]:
    """What a play scores at once: the point cards it takes (``cards``, with
    ``instant_points``), its sweep (``instant_sweeps``; Tablanette's
    ``pips``), and a default's penalty (``duty_penalty``)."""
    opts = state.options
    team = state.team_of(seat)
    out = [Award(a.category, team, a.points) for a in card_points(cards, opts)] if opts.cards_at_once else []
    if sweep and opts.sweeps_at_once:
        out.append(Award("sweeps", team, pips if opts.sweep_pips else opts.sweeps))
    if default:
        out.append(Award("default", team, -opts.duty_penalty))
    return out


def strikes(awards: Iterable[Award], teams: int) -> list[int]:
    """Instant scores against each team (``strikes_to_lose``, Michigan): a
    default counts against its own side, a sweep against every other side."""
    out = [0] * teams
    for a in awards:
        for t in range(teams):
            out[t] += (a.category == "default" and a.team == t) or (a.category == "sweeps" and a.team != t)
    return out


def card_points(cards: Collection[Card], opts: Options) -> list[Award]:
    """The points that cards score by themselves, for one team (team 0 here)."""
    table = points_table(opts)
    out = [Award(category, 0, points) for card, category, points in _CARD_SCORES[table] if card in cards]
    if table == "tablanette":
        n = sum(1 for c in cards if c.rank in _TABLANETTE_RANKS)
        if n:
            out.append(Award("point_cards", 0, n))
    if opts.spade_points != "none":
        n = sum(1 for c in cards if c.suit == "S") + (JACK_OF_SPADES in cards)
        if n:
            out.append(Award("spades", 0, n))
    return out


def is_point_card(card: Card, options: Options) -> bool:
    """Whether a card scores, by itself or as one of a scoring set (Diamond's
    fours of 7s, 6s and aces)."""
    return bool(card_points((card,), options)) or (options.diamond_points and any(card.rank == r for r, _ in _SETS))


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


def _most_cards(cards: list[int], spades: list[int], opts: Options, points: int) -> list[Award]:
    """Most cards, worth ``points``; a tie as ``most_cards_tie`` says (a split
    gives each side tied 1)."""
    top = _leader(cards)
    if top is not None:
        return [Award("most_cards", top, points)]
    tied = [t for t, n in enumerate(cards) if n == max(cards)]
    if opts.most_cards_tie == "split":
        return [Award("most_cards", t, 1) for t in tied]
    if opts.most_cards_tie == "spades_decide":
        by_spades = [spades[t] if t in tied else -1 for t in range(len(cards))]
        winner = _leader(by_spades)
        if winner is not None:
            return [Award("most_cards", winner, points)]
    return []


def _sweep_points(state: GameState) -> list[Award]:
    """The hand's sweeps, unless they scored as they were made."""
    opts = state.options
    if not opts.sweeps or opts.sweeps_at_once:
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
    sweeper = _all_eleven_winner(state, points)
    if sweeper is not None:
        for award in points:
            scores[award.team] += award.points
        return tuple(scores), sweeper, EndReason.ALL_ELEVEN
    winner = _first_to_target(state, points, scores)
    if opts.deals_each is not None:
        if state.hand_number < opts.deals_each * state.players:
            return tuple(scores), None, None
        top = _leader(scores)
        return tuple(scores), top, EndReason.LAST_DEAL if top is not None else EndReason.DRAW
    if opts.target is None:
        return (tuple(scores), *_single_hand(state, points))
    if winner is None and any(s >= opts.target for s in scores):
        winner = _leader(scores)  # end_rule "highest"; a tie at the top plays on
    return tuple(scores), winner, EndReason.TARGET if winner is not None else None


def _first_to_target(state: GameState, points: list[Award], scores: list[int]) -> int | None:
    """Add ``points`` to ``scores`` in scoring order; return the side whose
    award first reached the target, where that decides the game."""
    opts = state.options
    winner = None
    for award in points:
        scores[award.team] += award.points
        if opts.target is not None and opts.end_rule == "scoring_order" and winner is None \
                and scores[award.team] >= opts.target:
            winner = award.team
    return winner


def _all_eleven_winner(state: GameState, points: list[Award]) -> int | None:
    """The side whose taking all eleven points wins the game now (``all_eleven``
    win, or skunk in the first hand), if one did."""
    opts = state.options
    if opts.all_eleven not in ("win", "skunk") or (opts.all_eleven == "skunk" and state.hand_number != 1):
        return None
    return next((t for t in range(state.teams) if took_all_eleven(points, t)), None)


def _single_hand(state: GameState, points: list[Award]) -> tuple[int | None, EndReason]:
    """The winner of a game of one hand (no target) and why: the most points in it, or a draw."""
    hand = [0] * state.teams
    for award in points:
        hand[award.team] += award.points
    top = _leader(hand)
    return top, EndReason.SINGLE_HAND if top is not None else EndReason.DRAW


def secured_points(state: GameState, team: int) -> int:
    """Points ``team`` has already made sure of in the hand being played.

    Card points count once taken; most cards and most spades count only when
    no other team could still catch up; sweeps count unless they can be
    cancelled by the other side's later sweeps.
    """
    opts = state.options
    piles = [state.team_captures(t) for t in range(state.teams)]
    total = sum(a.points for a in card_points(frozenset(piles[team]), opts))  # a set: many lookups
    total -= sum(a.points for a in state.instant_awards if a.team == team and a.category not in _AT_ONCE_ONLY)
    if opts.sweeps and not opts.sweeps_cancel and not opts.sweeps_at_once:
        total += opts.sweeps * sum(state.sweeps[s] for s in state.team_seats(team))
    return total + _secured_majorities(state, team, piles)


@dataclass(frozen=True, slots=True)
class CountOutClaim:
    """What ``team``'s count-out would count now: the points it has made
    sure of in the hand (``secured``), its score with them (``total``), and
    whether that reaches the target (a game without a target has no winning
    claim)."""

    secured: int
    total: int
    succeeds: bool


def count_out_claim(state: GameState, team: int) -> CountOutClaim:
    """The claim ``team`` would make by counting out in ``state`` (a hand being played)."""
    secured = secured_points(state, team)
    total = state.scores[team] + secured
    target = state.options.target
    return CountOutClaim(secured, total, target is not None and total >= target)


#: How many cards, and how many spades, each kind of deck holds (``_deck_counts``).
_DECK_COUNTS: dict[str, tuple[int, int]] = {}


def _deck_counts(options: Options) -> tuple[int, int]:
    """How many cards, and how many spades, the game's deck holds, counted
    once for each kind of deck: every seat's view asks (``count_out``)."""
    counts = _DECK_COUNTS.get(options.deck)
    if counts is None:
        deck = deck_for(options)
        counts = _DECK_COUNTS[options.deck] = (len(deck), _suited(deck, "S"))
    return counts


def _secured_majorities(state: GameState, team: int, piles: list[tuple[Card, ...]]) -> int:
    """The points for most cards and most spades ``team`` has made sure of:
    no other team could still catch up with the cards not yet taken."""
    opts = state.options
    mine = piles[team]
    deck_size, deck_spades = _deck_counts(opts)
    out_cards = deck_size - sum(len(p) for p in piles)
    spades = [_suited(p, "S") for p in piles]
    out_spades = deck_spades - sum(spades)
    others = [t for t in range(state.teams) if t != team]
    total = 0
    if all(len(mine) > len(piles[t]) + out_cards for t in others):
        total += 3
    if opts.spade_points != "each" and all(spades[team] > spades[t] + out_spades for t in others):
        total += 1
    return total

"""Properties of whole games, played at random through the public API.

Each example plays a few games: random decks (permutations of the full deck),
moves picked at random from ``legal_moves(...).first()``, now and then a
count-out claim. After every event the game is checked against invariants
that hold whatever the options:

- every one of the 52 cards is in exactly one place (stock, a hand, the
  table loose or in a build, a capture pile);
- ``fold`` of the whole log equals the state built step by step;
- each event survives ``to_json -> json.dumps -> json.loads -> from_json``;
- every listed move is accepted by ``decide``, and where the list is not
  cut, random moves not in it are refused with a ``RuleViolation``;
- sweeps are flagged exactly when a capture clears the table (as the
  options say), and each hand's points are what an independent count of the
  capture piles gives; the game ends exactly when the options say it does;
- a count-out claim's total never exceeds what the claimant's side ends the
  hand with (it counts only points already secured), less the penalties for
  defaults it pays afterwards (``duty_penalty``).

Random games find the shapes of play nobody thought to write down; the
hand-written rule tests pin down what each rule means.

``CASINO_LONG_TESTS=1`` plays thousands of games instead of a few hundred.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from dataclasses import dataclass, field

import pytest
from hypothesis import HealthCheck, Phase, given, note, settings
from hypothesis import strategies as st

from domain import Card, RuleViolation, full_deck
from domain.cassino import (Build, CountOut, CreateGame, Deal, Move, Play, decide, evolve, fold, from_json, legal_moves,
                            to_json)
from domain.cassino.events import (BuildMade, CardsCaptured, CardTrailed, CountedOut, GameFinished,
                           HandDealt, HandEnded, PointsScored, RoundDealt)
from tests.scale import scaled

EXAMPLES = scaled(8, long=150, quick=3)  # per preset and player count
PINNED_EXAMPLES = scaled(2, long=20, quick=1)  # per pinned option value
GAMES_PER_EXAMPLE = 3
MAX_HANDS = scaled(3, long=8)  # a game still going after this many hands is cut short
RANDOM_CANDIDATES = 6  # unlisted moves tried per turn
CROWD_TO = scaled(12, long=24)  # the crowding style stops crowding at this many table items

DECK = full_deck()
BIG_CASINO, LITTLE_CASINO = Card.parse("10D"), Card.parse("2S")
ACES_IN_ORDER = tuple(Card.parse(c) for c in ("AS", "AC", "AH", "AD"))

CONFIGS = [("cassino", 2), ("cassino", 3), ("cassino", 4), ("partnership", 4)]


# ---------------------------------------------------------------------------
# Options
# ---------------------------------------------------------------------------

#: Every value of each option the random games must meet, pinned one at a time.
DUTIES = ("no_trail", "must_act", "strict", "free", "next_turn")
PINNED = (
    [("owner_duty", v) for v in DUTIES]
    + [("duty_penalty", v) for v in (0, 2)]
    + [("builds", v) for v in (True, False)]
    + [("builds_in_sums", v) for v in (True, False)]
    + [("court_capture", v) for v in ("one_or_three", "one", "any", "valued")]
    + [("partial_capture", v) for v in (True, False)]
    + [("raise_own_build", v) for v in ("allowed", "needs_both", "forbidden")]
    + [("raise_with_table_cards", v) for v in (True, False)]
    + [("sweeps", v) for v in (0, 1, 2)]
    + [("sweeps_cancel", v) for v in (True, False)]
    + [("sweep_on_last_play", v) for v in (True, False)]
    + [("most_cards_tie", v) for v in ("none", "spades_decide", "split")]
    + [("end_rule", v) for v in ("scoring_order", "highest")]
    + [("target", None)]
)


@st.composite
def option_overrides(draw, pinned: tuple[str, object] | None = None) -> dict:
    """A random, valid set of overrides (``pinned`` fixes one of them)."""
    o = {
        "owner_duty": draw(st.sampled_from(DUTIES)),
        "duty_penalty": draw(st.sampled_from([0, 0, 2])),
        "builds": draw(st.sampled_from([True, True, True, False])),
        "builds_in_sums": draw(st.booleans()),
        "court_capture": draw(st.sampled_from(["one_or_three", "one", "any", "valued"])),
        "partial_capture": draw(st.booleans()),
        "raise_own_build": draw(st.sampled_from(["allowed", "needs_both", "forbidden"])),
        "raise_with_table_cards": draw(st.booleans()),
        "sweeps": draw(st.sampled_from([0, 1, 2])),
        "sweeps_cancel": draw(st.booleans()),
        "sweep_on_last_play": draw(st.booleans()),
        "most_cards_tie": draw(st.sampled_from(["none", "spades_decide", "split"])),
        "end_rule": draw(st.sampled_from(["scoring_order", "highest"])),
        # short games finish within a few hands, so endings are checked too;
        # tiny targets make ties at the top (end_rule "highest") common
        "target": draw(st.sampled_from([11, 21, None, 6, 3, 2])),
    }
    if pinned is not None:
        o[pinned[0]] = pinned[1]
    _fit(o, pinned[0] if pinned is not None else None)
    o["count_out"] = False if o["target"] is None else draw(st.booleans())
    return o


def _fit(o: dict, pinned: str | None) -> None:
    """Make drawn options fit together, keeping the pinned one: builds taken
    in sums and a penalty for defaults need builds, and a penalty a duty."""
    if not o["builds"]:
        if pinned in ("builds_in_sums", "duty_penalty") and o[pinned]:
            o["builds"] = True
        else:
            o["builds_in_sums"], o["duty_penalty"] = False, 0
    if o["owner_duty"] == "free" and o["duty_penalty"]:
        if pinned == "duty_penalty":
            o["owner_duty"] = "no_trail"
        else:
            o["duty_penalty"] = 0


# ---------------------------------------------------------------------------
# An independent count of a hand's points
# ---------------------------------------------------------------------------


def _strict_leader(counts: list[int]) -> int | None:
    best = max(counts)
    top = [t for t, n in enumerate(counts) if n == best]
    return top[0] if len(top) == 1 else None


def expected_awards(options, team_of: list[int], piles: list[list[Card]],
                    sweeps: list[int]) -> list[tuple[str, int, int]]:
    """(category, team, points) in the documented scoring order: most cards 3,
    most spades 1, big casino 2, little casino 1, the aces S C H D, sweeps.

    ``piles`` and ``sweeps`` are per seat; partners pool them."""
    teams = max(team_of) + 1
    team_piles: list[list[Card]] = [[] for _ in range(teams)]
    team_sweeps = [0] * teams
    for seat, pile in enumerate(piles):
        team_piles[team_of[seat]] += pile
        team_sweeps[team_of[seat]] += sweeps[seat]
    n_cards = [len(p) for p in team_piles]
    n_spades = [sum(c.suit == "S" for c in p) for p in team_piles]
    out: list[tuple[str, int, int]] = []
    leader = _strict_leader(n_cards)
    if leader is not None:
        out.append(("cards", leader, 3))
    else:
        tied = [t for t in range(teams) if n_cards[t] == max(n_cards)]
        if options.most_cards_tie == "split":
            out += [("cards", t, 1) for t in tied]
        elif options.most_cards_tie == "spades_decide":
            among = _strict_leader([n_spades[t] if t in tied else -1 for t in range(teams)])
            if among is not None:
                out.append(("cards", among, 3))
    leader = _strict_leader(n_spades)
    if leader is not None:
        out.append(("spades", leader, 1))
    for special, points in [(BIG_CASINO, 2), (LITTLE_CASINO, 1)] + [(a, 1) for a in ACES_IN_ORDER]:
        out += [(special.code, t, points) for t in range(teams) if special in team_piles[t]]
    if options.sweeps:
        counts = list(team_sweeps)
        if options.sweeps_cancel:
            counts = [n - min(counts) for n in counts]
        out += [("sweeps", t, n * options.sweeps) for t, n in enumerate(counts) if n]
    return out


# ---------------------------------------------------------------------------
# Playing and checking
# ---------------------------------------------------------------------------


@dataclass
class Game:
    """One game being played, with what the checks track on their own."""

    rnd: random.Random
    events: list = field(default_factory=list)
    state: object = None
    last_capturer: int | None = None  # in the hand being played, by our own count
    sweeps: list[int] = field(default_factory=list)
    # (team, total) this hand, the total less the penalties its side paid after the claim (duty_penalty)
    claims: list[tuple[int, int]] = field(default_factory=list)
    pending_end: tuple | None = None  # how the hand just scored must end the game
    plays: int = 0
    hands: int = 0
    counted_out: bool = False
    style: str = "even"  # how this game's moves are picked; see choose()
    first_dealer: int = 0


def cards_in_play(state) -> Counter:
    where: Counter = Counter(state.stock)
    for hand in state.hands:
        where.update(hand)
    for it in state.table:
        where.update(it.cards if isinstance(it, Build) else (it,))
    for pile in state.captured:
        where.update(pile)
    return where


def check_cards_conserved(state) -> None:
    where = cards_in_play(state)
    assert set(where) == set(DECK) and all(n == 1 for n in where.values()), (
        f"cards lost or doubled: missing {sorted(c.code for c in set(DECK) - set(where))}, "
        f"doubled {sorted(c.code for c, n in where.items() if n > 1)}")


def number(card: Card, options) -> int | None:
    return card.rank if card.rank <= 10 or options.court_capture == "valued" else None


def check_table(state) -> None:
    """Builds are well formed: each group makes the value; ids are unique."""
    ids = [it.id for it in state.table]
    assert len(ids) == len(set(ids)), f"two table items share an id: {ids}"
    for it in state.table:
        if isinstance(it, Build):
            assert 0 <= it.owner < state.players
            assert it.groups and all(it.groups)
            for group in it.groups:
                assert sum(number(c, state.options) for c in group) == it.value, str(it)
            if not it.multiple:
                assert len(it.groups[0]) >= 2, f"a single build of one card: {it}"


def check_roundtrip(event) -> None:
    stored = json.loads(json.dumps(to_json(event)))
    assert from_json(stored) == event, f"{type(event).__name__} changed through JSON: {stored}"


def random_candidate(rnd: random.Random, state, seat: int) -> Move:
    """A random move of the shapes players send: any card of the hand, any
    action, any subset of table ids, any build value 1..14."""
    card = rnd.choice(state.hands[seat])
    action = rnd.choice(["trail", "capture", "build"])
    ids = [it.id for it in state.table]
    k = rnd.randint(0, len(ids)) if rnd.random() < 0.3 else rnd.randint(0, min(3, len(ids)))
    targets = tuple(rnd.sample(ids, k))
    value = rnd.randint(1, 14) if action == "build" else None
    return Move(card, action, targets, value)


def check_turn(game: Game) -> Move:
    """Checks on a position where a seat is to play; returns the chosen move."""
    state, rnd = game.state, game.rnd
    seat = state.turn
    assert state.hands[seat], "the seat to play has no cards"
    listed = legal_moves(state, seat).first()
    moves = listed.moves
    assert moves, "the seat to play has no legal move"
    assert len(set(moves)) == len(moves), "a move is listed twice"
    for move in moves:
        try:
            events = decide(state, Play(seat, move))
        except RuleViolation as refused:
            raise AssertionError(f"listed move {move.text} refused: {refused!r}") from None
        check_outcome(state, seat, move, events[0])
    for other in range(state.players):
        if other != seat:
            assert not legal_moves(state, other).first().moves, "a seat out of turn has moves"
    listed_set = set(moves)
    if not listed.truncated:
        for _ in range(RANDOM_CANDIDATES):
            candidate = random_candidate(rnd, state, seat)
            if candidate in listed_set:
                continue
            try:
                decide(state, Play(seat, candidate))
            except RuleViolation:
                continue
            raise AssertionError(f"{candidate.text} is accepted but not in the complete list of legal "
                                 f"moves; table {' '.join(map(str, state.table))}, "
                                 f"hand {' '.join(map(str, state.hands[seat]))}")
    other = rnd.choice([s for s in range(state.players) if s != seat])
    with pytest.raises(RuleViolation):
        decide(state, Play(other, rnd.choice(moves)))
    return choose(rnd, moves, game.style, len(state.table))


def check_outcome(state, seat: int, move: Move, event) -> None:
    """The first event of a play does what the move says."""
    assert type(event) is {"trail": CardTrailed, "capture": CardsCaptured,
                           "build": BuildMade}[move.action]
    assert event.seat == seat and event.card == move.card
    named = Counter(c for t in move.targets for it in [state.item(t)]
                    for c in (it.cards if isinstance(it, Build) else (it,)))
    if move.action == "capture":
        assert event.targets == move.targets
        assert Counter(event.cards) == named + Counter([move.card]), f"{move.text} took {event.cards}"
    elif move.action == "build":
        build = event.build
        assert build.value == move.value and build.owner == seat, f"{move.text} made {build}"
        assert Counter(build.cards) == named + Counter([move.card]), f"{move.text} made {build}"


STYLES = ("even", "even", "greedy", "crowding")


def choose(rnd: random.Random, moves, style: str, table_size: int) -> Move:
    """A random move in the game's style.

    - ``even``: each action as likely as the others, then any move of it, so
      builds and captures happen often even when the list is mostly one kind;
    - ``greedy``: mostly the capture taking the most, so sweeps (and their
      options) come up often;
    - ``crowding``: mostly trails and builds until the table holds
      ``CROWD_TO`` items, so tables grow crowded and listings get long.
    """
    by_action: dict[str, list[Move]] = {}
    for m in moves:
        by_action.setdefault(m.action, []).append(m)
    if style == "greedy" and "capture" in by_action and rnd.random() < 0.9:
        most = max(len(m.targets) for m in by_action["capture"])
        return rnd.choice([m for m in by_action["capture"] if len(m.targets) == most])
    if style == "crowding" and table_size < CROWD_TO and rnd.random() < 0.9:
        for action in ("trail", "build"):
            if action in by_action and (action == "trail" or rnd.random() < 0.5):
                return rnd.choice(by_action[action])
    return rnd.choice(by_action[rnd.choice(sorted(by_action))])


def probe_count_out(game: Game) -> list | None:
    """Ask (without applying) what a count-out claim by a random seat gives;
    remember its total, and sometimes make the claim for real."""
    state, rnd = game.state, game.rnd
    seat = rnd.randrange(state.players)
    if not state.options.count_out:
        with pytest.raises(RuleViolation):
            decide(state, CountOut(seat))
        return None
    events = decide(state, CountOut(seat))
    claim, finished = events
    assert isinstance(claim, CountedOut) and isinstance(finished, GameFinished)
    team = state.team_of(seat)
    assert claim.team == team and claim.total >= state.scores[team]
    assert claim.success == (claim.total >= state.options.target)
    assert finished.reason == "count_out" and finished.scores == state.scores
    assert (finished.winner == team) if claim.success else (finished.winner != team)
    game.claims.append((team, claim.total))
    if claim.success and rnd.random() < 0.3 or rnd.random() < 0.003:
        return events
    return None


def apply(game: Game, events: list) -> None:
    """Append events one by one, checking each."""
    for event in events:
        check_roundtrip(event)
        before = game.state
        game.state = evolve(before, event)
        game.events.append(event)
        check_event(game, before, event)
        assert game.state.version == len(game.events)
    assert fold(game.events) == game.state, "fold of the log differs from the state built step by step"
    if game.state.hand_number:
        check_cards_conserved(game.state)
    check_table(game.state)


def check_event(game: Game, before, event) -> None:
    state = game.state
    n = state.players
    if isinstance(event, HandDealt):
        game.last_capturer, game.sweeps, game.claims = None, [0] * n, []
        game.hands += 1
        dealer = game.first_dealer if event.hand_number == 1 else (before.dealer + 1) % n
        assert event.dealer == dealer, "the deal passes to the left"
        hands, table, rest = expected_deal(event.deck, n, dealer, first=True)
        assert (event.hands, event.table, state.stock) == (hands, table, rest), "not dealt as documented"
        assert state.turn == (dealer + 1) % n, "the player left of the dealer plays first"
    elif isinstance(event, RoundDealt):
        assert not any(before.hands) and before.stock
        hands, _, rest = expected_deal(before.stock, n, state.dealer, first=False)
        assert (event.hands, state.stock, event.last) == (hands, rest, not rest), "not dealt as documented"
        assert state.turn == (state.dealer + 1) % n, "the player left of the dealer plays first"
    elif isinstance(event, PointsScored):  # only defaults score at once in these games
        assert all(a.category == "default" and a.points == -state.options.duty_penalty for a in event.awards)
        game.claims = [(t, total + sum(a.points for a in event.awards if a.team == t)) for t, total in game.claims]
    elif isinstance(event, (CardTrailed, CardsCaptured, BuildMade)):
        assert before.turn == event.seat
        assert state.turn == (event.seat + 1) % n, "the turn passes to the left"
    if isinstance(event, CardsCaptured):
        game.last_capturer = event.seat
        cleared = not state.table
        last_play = not before.stock and sum(len(h) for h in before.hands) == 1
        sweep = cleared and bool(state.options.sweeps) and (
            state.options.sweep_on_last_play or not last_play)
        assert event.sweep == sweep, f"sweep flag {event.sweep}, expected {sweep}"
        game.sweeps[event.seat] += sweep
        assert event.cards[-1] == event.card
    elif isinstance(event, HandEnded):
        check_hand_end(game, before, event)
    elif isinstance(event, GameFinished):
        assert state.is_over and state.outcome.winner == event.winner


def expected_deal(deck, players: int, dealer: int, first: bool):
    """The documented deal, written out again: packets of two from the top,
    to each player from the dealer's left round to the dealer; in a hand's
    first round two go face up to the table just before the dealer's packet;
    the same again, so everyone has four (and the table four)."""
    order = [(dealer + i) % players for i in range(1, players + 1)]  # the dealer last
    hands: list[list[Card]] = [[] for _ in range(players)]
    table: list[Card] = []
    top = 0
    for _ in range(2):
        for seat in order:
            if first and seat == dealer:
                table += deck[top:top + 2]
                top += 2
            hands[seat] += deck[top:top + 2]
            top += 2
    return tuple(map(tuple, hands)), tuple(table), tuple(deck[top:])


def check_hand_end(game: Game, before, event: HandEnded) -> None:
    opts = before.options
    assert not before.stock and not any(before.hands), "the hand ended with cards still to play"
    residue = [c for it in before.table for c in (it.cards if isinstance(it, Build) else (it,))]
    assert sorted(event.residue) == sorted(residue)
    assert event.last_capturer == (game.last_capturer if game.last_capturer is not None else before.dealer)
    piles = [list(p) for p in before.captured]
    # The last capturer takes the residue; in a hand without captures, the dealer.
    taker = game.last_capturer if game.last_capturer is not None else before.dealer
    piles[taker] += residue
    team_of = [before.team_of(s) for s in range(before.players)]
    expected = expected_awards(opts, team_of, piles, game.sweeps)
    teams = before.teams
    got_totals, want_totals = [0] * teams, [0] * teams
    for award in event.points:
        got_totals[award.team] += award.points
    for _, team, points in expected:
        want_totals[team] += points
    assert got_totals == want_totals, (
        f"hand points {got_totals}, counted {want_totals} "
        f"(total {sum(got_totals)}, expected {sum(want_totals)}): {event.points}")
    scores = [s + p for s, p in zip(before.scores, want_totals)]
    assert list(event.scores) == scores
    for team, total in game.claims:
        assert scores[team] >= total, (
            f"a count-out claim counted {total} for team {team}, which ended the hand on {scores[team]}")
    game.pending_end = expected_ending(opts, before.scores, expected, want_totals)


def expected_ending(opts, scores_before, awards, hand_totals) -> tuple[set, str] | None:
    """The winners allowed after this hand and the reason, or None while the
    game goes on. A winner of None is a draw.

    - target null: the hand is the game; the side with strictly the most
      points wins it (two sides sharing 11 points: 6 or more), else a draw;
    - scoring_order: points count one category at a time, in order; the
      first side to reach the target wins (sides reaching it on the same
      category are equally first, so either is accepted);
    - highest: once a side has reached the target, strictly the highest wins;
      a tie at the top plays on."""
    if opts.target is None:
        leader = _strict_leader(hand_totals)
        return {leader}, ("single_hand" if leader is not None else "draw")
    if opts.end_rule == "scoring_order":
        running = list(scores_before)
        for category in dict.fromkeys(c for c, _, _ in awards):
            for c, team, points in awards:
                if c == category:
                    running[team] += points
            reached = {t for t, s in enumerate(running) if s >= opts.target}
            if reached:
                return reached, "target"
        return None
    final = [s + p for s, p in zip(scores_before, hand_totals)]
    if max(final) >= opts.target and _strict_leader(final) is not None:
        return {_strict_leader(final)}, "target"
    return None


def play_game(rnd: random.Random, variant: str, players: int, overrides: dict) -> Game:
    game = Game(rnd, style=rnd.choice(STYLES), first_dealer=rnd.randrange(players))
    names = tuple(f"P{i}" for i in range(players))
    apply(game, decide(None, CreateGame(variant, names, game.first_dealer, overrides)))
    while not game.state.is_over:
        state = game.state
        if state.status == "in_progress":
            if rnd.random() < 0.08:
                claim = probe_count_out(game)
                if claim:
                    apply(game, claim)
                    game.counted_out = True
                    break
            move = check_turn(game)
            apply(game, decide(state, Play(state.turn, move)))
            game.plays += 1
            if isinstance(game.events[-1], HandEnded) or isinstance(game.events[-1], GameFinished):
                check_ending(game)
        else:  # waiting for the first deal, or between hands
            if game.hands >= MAX_HANDS:
                break
            with pytest.raises(RuleViolation):
                decide(state, Play(state.dealer, Move.trail(DECK[0])))
            deck = list(DECK)
            rnd.shuffle(deck)
            apply(game, decide(state, Deal(tuple(deck))))
    if game.state.is_over:
        with pytest.raises(RuleViolation):
            decide(game.state, Deal(DECK))
    return game


def check_ending(game: Game) -> None:
    last = game.events[-1]
    allowed = game.pending_end
    if allowed is None:
        assert isinstance(last, HandEnded), f"the game ended early: {last}"
        assert game.state.status == "hand_over"
    else:
        winners, reason = allowed
        assert isinstance(last, GameFinished), f"the game should have ended, winner in {winners}"
        assert last.winner in winners, f"winner {last.winner}, expected one of {winners}"
        assert last.reason == reason


def run_games(rnd: random.Random, variant: str, players: int, overrides: dict) -> list[Game]:
    note(f"{variant} for {players}, options {overrides}")
    games = []
    for k in range(GAMES_PER_EXAMPLE):
        note(f"game {k + 1} starts with {rnd!r}")
        games.append(play_game(rnd, variant, players, overrides))
    assert all(g.plays > 0 or g.counted_out for g in games)  # a false claim may end one at once
    return games


#: No shrinking: an example is whole games, so shrinking one takes many
#: minutes; the failure report names the options and each game's seed.
SETTINGS = settings(max_examples=EXAMPLES, deadline=None, print_blob=True,
                    phases=[Phase.explicit, Phase.reuse, Phase.generate],
                    suppress_health_check=[HealthCheck.too_slow])


@pytest.mark.parametrize("variant,players", CONFIGS)
@SETTINGS
@given(rnd=st.randoms(use_true_random=True), overrides=option_overrides())
def test_random_games_keep_every_invariant(variant, players, rnd, overrides):
    run_games(rnd, variant, players, overrides)


@pytest.mark.parametrize("name,value", PINNED, ids=[f"{n}={v}" for n, v in PINNED])
@settings(SETTINGS, max_examples=PINNED_EXAMPLES)
@given(data=st.data(), rnd=st.randoms(use_true_random=True))
def test_random_games_keep_every_invariant_with_each_option_value(name, value, data, rnd):
    variant, players = data.draw(st.sampled_from(CONFIGS), label="preset")
    overrides = data.draw(option_overrides(pinned=(name, value)), label="options")
    run_games(rnd, variant, players, overrides)


def test_a_hand_without_any_capture_keeps_every_card():
    """Everyone trails every card (always legal: nobody ever owns a build)."""
    events = decide(None, CreateGame("cassino", ("Ann", "Bob"), 1))
    state = fold(events)
    events += decide(state, Deal(DECK))
    state = fold(events)
    while state.status == "in_progress":
        trail = next(m for m in legal_moves(state, state.turn) if m.action == "trail")
        events += decide(state, Play(state.turn, trail))
        state = fold(events)
    ended = next(e for e in events if isinstance(e, HandEnded))
    assert ended.last_capturer == state.dealer and len(ended.residue) == 52
    check_cards_conserved(state)


# The independent count checks itself on piles whose points are known by hand,
# so that a mistake in it cannot hide the same mistake in the engine.


def _piles(*texts: str) -> list[list[Card]]:
    return [[Card.parse(c) for c in t.split()] for t in texts]


def _options(**overrides):
    from domain.cassino.options import resolve
    return resolve("cassino", overrides)


def _totals(awards, teams: int) -> list[int]:
    out = [0] * teams
    for _, team, points in awards:
        out[team] += points
    return out


def test_the_independent_count_gives_eleven_points_to_share_in_a_plain_hand():
    mine = ("AS 2S 3S 4S 5S 6S 7S 10D AH 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH "
            "2D 3D 4D 5D 6D 7D 8D 9D")  # 29 cards, 7 spades
    theirs = " ".join(c.code for c in DECK if c.code not in mine.split())  # 23 cards, AD AC
    piles = _piles(mine, theirs)
    awards = expected_awards(_options(), [0, 1], piles, [0, 0])
    # most cards 3, most spades 1, 10D 2, 2S 1, AS AH 2 | AD AC 2
    assert _totals(awards, 2) == [9, 2]


def test_the_independent_count_follows_the_most_cards_tie_options():
    first = [c.code for c in DECK[:26]]  # all the spades and the hearts
    piles = _piles(" ".join(first), " ".join(c.code for c in DECK[26:]))
    team_of = [0, 1]
    # 26 cards each: no most-cards points; 13 spades, 2S, AS, AH | 10D, AD, AC
    assert _totals(expected_awards(_options(), team_of, piles, [0, 0]), 2) == [4, 4]
    assert _totals(expected_awards(_options(most_cards_tie="split"), team_of, piles, [0, 0]), 2) == [5, 5]
    assert _totals(expected_awards(_options(most_cards_tie="spades_decide"), team_of, piles, [0, 0]),
                   2) == [7, 4]


def test_the_independent_count_pools_partners_and_cancels_sweeps():
    piles = _piles("AS 2S", "3S", "4S 10D", "5S")  # seats 0 and 2 are partners
    awards = expected_awards(_options(sweeps=2, sweeps_cancel=True), [0, 1, 0, 1], piles, [2, 1, 0, 0])
    # team 0: 4 cards (3), 3 spades (1), 10D (2), 2S (1), AS (1), one sweep left (2)
    assert _totals(awards, 2) == [10, 0]
    three = expected_awards(_options(), [0, 1, 2], _piles("AS 2S", "3S 4S", "5H 6H"), [0, 0, 0])
    assert _totals(three, 3) == [2, 0, 0]  # most cards and most spades tied: nobody scores them

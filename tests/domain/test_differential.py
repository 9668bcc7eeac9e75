"""A second, deliberately naive implementation of the rules of a turn, checked
against the engine on random positions.

The engine decides captures and builds with a dynamic programme over value
counts (``domain.groups``) and lists moves from templates (``domain.cassino.legal``).
The checker below does neither: it is written from ``RULES.md`` as plain
recursion over subsets and partitions of the named table items, slow and
obvious. It reads positions through ``domain.cards`` and ``domain.cassino.state``
only; it must never import ``domain.groups`` or ``domain.cassino.play``, or the two
sides could share a mistake.

For every random position, every candidate move (each card in hand, each
action, every subset of the table as targets, every build value 1..14) is
put to both, and they must agree. Where the table is small enough to try
every candidate, the brute force's set of legal moves must also be exactly
what ``legal_moves`` lists.

``CASINO_LONG_TESTS=1`` tries many more positions.
"""

from __future__ import annotations

import functools
import itertools
import random
from dataclasses import dataclass

import pytest

from domain.cassino import Move, is_legal, legal_moves
from domain.cards import Card, cards, full_deck
from domain.cassino.options import resolve
from domain.cassino.state import GameState, Seat
from domain.cassino.table import Build
from tests.scale import scaled

CHUNKS = scaled(4, long=60, quick=1)  # pytest cases per option set; the default ones come first
POSITIONS_PER_CHUNK = 10
EXHAUSTIVE_BUDGET = 8000  # try every candidate when there are at most this many
SAMPLED_CANDIDATES = 3000  # otherwise this many, half of them "plausible"
LISTING_MAX_ITEMS = 9  # list every legal move by brute force up to this many table items
CROWDED = scaled(30, long=400, quick=10)  # extra crowded tables for the listing tests


# ---------------------------------------------------------------------------
# The brute-force rules. Written from RULES.md; every search is a plain walk
# over subsets. Nothing here is clever, on purpose.
# ---------------------------------------------------------------------------


def number_value(card: Card, options) -> int | None:
    """A card's number for sums: A=1 .. 10=10; courts have none unless the
    game gives them Royal values (J 11, Q 12, K 13)."""
    if card.rank <= 10 or options.court_capture == "valued":
        return card.rank
    return None


def item_value(item, options) -> int | None:
    return item.value if isinstance(item, Build) else number_value(item, options)


def subsets_with_sum(pieces: list, values: list[int], need: int, start: int = 0):
    """Every subset of ``pieces[start:]`` (as index lists) whose values add up
    to ``need``. Values are positive, so a branch stops once it overshoots."""
    if need == 0:
        yield []
        return
    for i in range(start, len(pieces)):
        if values[i] <= need:
            for rest in subsets_with_sum(pieces, values, need - values[i], i + 1):
                yield [i, *rest]


def can_partition(pieces: list, values: list[int], target: int, group_ok) -> bool:
    """Can ``pieces`` be split into groups that each add up to ``target`` and
    each pass ``group_ok``? The first piece must sit in some group: try every
    subset of the others that tops it up, then split what is left."""
    if not pieces:
        return True
    first, first_value = pieces[0], values[0]
    if first_value is None or first_value > target:
        return False
    others, other_values = pieces[1:], values[1:]
    if any(v is None for v in other_values):
        return False
    for chosen in subsets_with_sum(others, other_values, target - first_value):
        group = [first, *(others[i] for i in chosen)]
        if not group_ok(group):
            continue
        left = [i for i in range(len(others)) if i not in chosen]
        if can_partition([others[i] for i in left], [other_values[i] for i in left], target, group_ok):
            return True
    return False


def brute_capture_ok(state: GameState, card: Card, items: list, value: int | None) -> bool:
    opts = state.options
    v = number_value(card, opts)
    if not items:
        return False  # a capture names what it takes
    if value is not None and value != v:
        return False
    if v is None:  # a court card with no number: it pairs with its own rank
        if any(not isinstance(it, Card) or it.rank != card.rank for it in items):
            return False
        on_table = sum(1 for it in state.table if isinstance(it, Card) and it.rank == card.rank)
        if opts.court_capture == "one":
            return len(items) == 1
        if opts.court_capture == "one_or_three":
            return len(items) == 1 or (len(items) == 3 and on_table == 3)
        return True  # "any"
    # A number card takes builds of its value, and loose cards that split
    # into groups each making its value. A build is never split or combined.
    if any(isinstance(it, Build) and it.value != v for it in items):
        return False
    loose = [it for it in items if isinstance(it, Card)]
    values = [number_value(c, opts) for c in loose]
    if not can_partition(loose, values, v, lambda group: True):
        return False
    if not opts.partial_capture:  # the capture must leave nothing it could have taken
        taken = {it.id for it in items}
        rest = [it for it in state.table if it.id not in taken]
        if any(isinstance(it, Build) and it.value == v for it in rest):
            return False
        rest_values = [number_value(c, opts) for c in rest if isinstance(c, Card)]
        rest_values = [x for x in rest_values if x is not None]
        if next(subsets_with_sum(rest_values, rest_values, v), None) is not None:
            return False
    return True


def brute_build_ok(state: GameState, seat: int, card: Card, items: list, value: int | None,
                   hand_after: tuple[Card, ...]) -> bool:
    opts = state.options
    cv = number_value(card, opts)
    if cv is None or value is None:
        return False
    if not 1 <= value <= (13 if opts.court_capture == "valued" else 10):
        return False
    if not items:
        return False
    if not any(number_value(h, opts) == value for h in hand_after):
        return False  # a builder keeps a card to take the build
    if any(isinstance(it, Card) and number_value(it, opts) is None for it in items):
        return False

    def group_ok(group: list) -> bool:
        builds = [g for g in group if isinstance(g, Build)]
        if not builds:
            return True  # loose cards (and perhaps the played card) making the value
        if len(builds) > 1:
            return False  # two builds are never added together
        build = builds[0]
        if build.value == value:
            return len(group) == 1  # an existing build of this value is a group by itself
        # Otherwise this group raises the build to a new value.
        if build.multiple or card not in group:
            return False  # a multiple build is fixed; a raise uses the card played
        if len(group) > 2 and not opts.raise_with_table_cards:
            return False
        if build.owner == seat:
            if opts.raise_own_build == "forbidden":
                return False
            if opts.raise_own_build == "needs_both" and not any(
                    number_value(h, opts) == build.value for h in hand_after):
                return False
        return True

    pieces = [card, *items]
    values = [cv, *(item_value(it, opts) for it in items)]
    return can_partition(pieces, values, value, group_ok)


def brute_owner_duty_ok(state: GameState, seat: int, action: str, items: list, value,
                        hand_after: tuple[Card, ...]) -> bool:
    """What the owner of a build (last to make, raise or add to it) may do."""
    opts = state.options
    owned = [it for it in state.table if isinstance(it, Build) and it.owner == seat]
    if opts.owner_duty == "free" or not owned:
        return True
    if action == "trail":
        return False
    touched = {it.id for it in items}
    acts_on_own = any(b.id in touched for b in owned)
    if opts.owner_duty == "must_act" and not acts_on_own:
        return False
    if opts.owner_duty == "strict" and action == "capture" and not acts_on_own:
        return False
    for b in owned:
        if b.id in touched:
            continue
        if not any(number_value(h, opts) == b.value for h in hand_after):
            return False  # never play away the last card that takes your build
        if opts.owner_duty == "strict" and action == "build" and value == b.value:
            return False  # strict: one build per value; add to the one you have
    return True


def brute_is_legal(state: GameState, seat: int, move: Move) -> bool:
    if state.status != "in_progress" or state.turn != seat:
        return False
    hand = state.hands[seat]
    if move.card not in hand or move.groups is not None:
        return False
    if len(set(move.targets)) != len(move.targets):
        return False
    by_id = {it.id: it for it in state.table}
    if any(t not in by_id for t in move.targets):
        return False
    items = [by_id[t] for t in move.targets]
    hand_after = tuple(h for h in hand if h != move.card)
    if move.action == "trail":
        ok = not items and move.value is None
    elif move.action == "capture":
        ok = brute_capture_ok(state, move.card, items, move.value)
    else:
        ok = brute_build_ok(state, seat, move.card, items, move.value, hand_after)
    return ok and brute_owner_duty_ok(state, seat, move.action, items, move.value, hand_after)


# ---------------------------------------------------------------------------
# Random positions
# ---------------------------------------------------------------------------

OPTION_SETS = {
    "default": {},
    "no_partial_capture": {"partial_capture": False},
    "raise_with_table_cards": {"raise_with_table_cards": True},
    "mixed": None,  # every option that matters for legality drawn at random
}


def random_overrides(rnd: random.Random) -> dict:
    return {
        "owner_duty": rnd.choice(["no_trail", "must_act", "strict", "free"]),
        "court_capture": rnd.choice(["one_or_three", "one", "any", "valued"]),
        "raise_own_build": rnd.choice(["allowed", "needs_both", "forbidden"]),
        "raise_with_table_cards": rnd.random() < 0.5,
        "partial_capture": rnd.random() < 0.5,
    }


def _random_parts(rnd: random.Random, total: int, parts: int, top: int) -> list[int] | None:
    """``total`` written as ``parts`` positive numbers, none above ``top``."""
    if parts > total:
        return None
    cuts = sorted(rnd.sample(range(1, total), parts - 1))
    out = [b - a for a, b in zip([0, *cuts], [*cuts, total])]
    return out if max(out) <= top else None


def _take(pool: list[Card], rank: int) -> Card | None:
    for i, c in enumerate(pool):
        if c.rank == rank:
            return pool.pop(i)
    return None


def random_build(rnd: random.Random, pool: list[Card], ident: str, owner: int, top: int) -> Build | None:
    """A single build (one group of two or more cards) or a multiple build
    (two or three groups), made of cards still in ``pool``."""
    value = rnd.randint(2, top)
    multiple = rnd.random() < 0.4
    shapes = ([rnd.choice([1, 1, 2, 3]) for _ in range(rnd.choice([2, 2, 3]))] if multiple
              else [rnd.choice([2, 2, 3])])
    groups: list[tuple[Card, ...]] = []
    for parts in shapes:
        split = _random_parts(rnd, value, parts, top) if parts > 1 else [value]
        group = [found for rank in split or () if (found := _take(pool, rank)) is not None]
        groups.append(tuple(group))
        if split is None or len(group) < len(split):  # no such build here: put the cards back
            pool.extend(c for g in groups for c in g)
            return None
    return Build(ident, value, tuple(groups), owner)


@dataclass
class Position:
    state: GameState
    seat: int
    seed: int

    def describe(self) -> str:
        s = self.state
        table = " ".join(str(it) for it in s.table)
        return (f"seed {self.seed}, options {s.options}, seat {self.seat} to play,\n"
                f"  hand {' '.join(c.code for c in s.hands[self.seat])},\n  table {table}")


def random_position(seed: int, overrides: dict | None) -> Position:
    rnd = random.Random(seed)
    options = resolve("cassino", random_overrides(rnd) if overrides is None else overrides, players=2)
    top = 13 if options.court_capture == "valued" else 10
    numbered = [c for c in full_deck() if c.rank <= top]
    courts = [c for c in full_deck() if c.rank > top]
    rnd.shuffle(numbered)
    rnd.shuffle(courts)
    seat = rnd.randrange(2)
    n_items = rnd.choice([0, 1, 2, 3, 4, 5, 6, 6, 7, 7, 8, 8, 9, 10, 11, 12])
    n_builds = min(n_items, rnd.choice([0, 0, 1, 1, 2, 3]))
    items: list = []
    for k in range(n_builds):
        build = random_build(rnd, numbered, f"B{k + 1}", rnd.randrange(2), top)
        if build is not None:
            items.append(build)
    rest = numbered + courts
    while len(items) < n_items:
        # mostly number cards, so that captures and builds are possible
        source = courts if courts and rnd.random() < 0.12 else numbered
        if not source:
            source = courts or numbered
        pick = source.pop()
        rest.remove(pick)
        items.append(pick)
    rnd.shuffle(items)
    hand_size = rnd.choice([1, 2, 3, 4, 4, 4])
    hand: list[Card] = []
    builds = [it for it in items if isinstance(it, Build)]
    if builds and rnd.random() < 0.7:  # hold a card to take some build, as owners must
        wanted = _take(rest, rnd.choice(builds).value)
        if wanted is not None:
            hand.append(wanted)
    rnd.shuffle(rest)
    while len(hand) < hand_size:
        hand.append(rest.pop())
    other = tuple(rest.pop() for _ in range(4))
    hands = (tuple(hand), other) if seat == 0 else (other, tuple(hand))
    names = [it.id for it in items if isinstance(it, Build)]
    state = GameState(
        variant="cassino", options=options, seats=(Seat("P0", 0), Seat("P1", 1)),
        status="in_progress", version=3, hand_number=1, dealer=1 - seat, turn=seat, round=1,
        stock=tuple(rest), hands=hands, table=tuple(items), captured=((), ()), sweeps=(0, 0),
        last_capturer=None, next_build=len(names) + 1, scores=(0, 0),
    )
    return Position(state, seat, seed)


# ---------------------------------------------------------------------------
# Candidates
# ---------------------------------------------------------------------------


def all_candidates(pos: Position):
    """Every move of the shape the engine lists, plus a few malformed ones:
    each card, trail, capture and build 1..14 with every subset of targets."""
    state = pos.state
    ids = [it.id for it in state.table]
    hand = state.hands[pos.seat]
    subsets = [sub for k in range(len(ids) + 1) for sub in itertools.combinations(ids, k)]
    for card in hand:
        for sub in subsets:
            yield Move(card, "capture", sub)
            for value in range(1, 15):
                yield Move(card, "build", sub, value)
        yield Move(card, "trail")
    yield from odd_candidates(pos, random.Random(pos.seed))


def odd_candidates(pos: Position, rnd: random.Random):
    """Moves no legal-move list would hold: wrong card, unknown or repeated
    targets, trails naming things, captures stating a value."""
    state = pos.state
    hand = state.hands[pos.seat]
    ids = [it.id for it in state.table]
    not_held = [c for c in full_deck() if c not in hand]
    for _ in range(6):
        card = rnd.choice(hand)
        some = tuple(rnd.sample(ids, rnd.randint(0, len(ids))))
        yield Move(rnd.choice(not_held), rnd.choice(["trail", "capture", "build"]), some,
                   rnd.randint(2, 10) if rnd.random() < 0.5 else None)
        yield Move(card, "trail", some)
        yield Move(card, "capture", some, rnd.randint(1, 13))
        yield Move(card, "capture", some + ("B99",))
        if ids:
            yield Move(card, "capture", (ids[0], ids[0]))
            yield Move(card, "build", (ids[0], ids[0]), rnd.randint(2, 10))


def sampled_candidates(pos: Position, budget: int):
    """For tables too big to try everything: every trail, then ``budget``
    random (card, action, value, subset) candidates. Half of them are
    *plausible*: the values named (with the played card, for a build) add up
    to a multiple of the value, since random subsets of a big table are
    almost all refused for that most obvious reason."""
    rnd = random.Random(pos.seed * 7919 + 1)
    state = pos.state
    opts = state.options
    items = list(state.table)
    hand = state.hands[pos.seat]
    for card in hand:
        yield Move(card, "trail")
    n = len(items)
    values = [item_value(it, opts) for it in items]
    sums, unvalued = [0] * (1 << n), [False] * (1 << n)
    for mask in range(1, 1 << n):
        low = mask & -mask
        i = low.bit_length() - 1
        sums[mask] = sums[mask ^ low] + (values[i] or 0)
        unvalued[mask] = unvalued[mask ^ low] or values[i] is None
    kinds = [(card, "capture", number_value(card, opts)) for card in hand]
    kinds += [(card, "build", value) for card in hand for value in range(1, 15)]
    plausible: dict[tuple, list[int]] = {}
    for made in range(budget):
        card, action, value = kind = rnd.choice(kinds)
        mask = rnd.getrandbits(n) if n else 0
        if made % 2 == 0 and value is not None:
            if kind not in plausible:
                extra = (number_value(card, opts) or 0) if action == "build" else 0
                plausible[kind] = [m for m in range(1, 1 << n)
                                   if not unvalued[m] and (sums[m] + extra) % value == 0]
            if plausible[kind]:
                mask = rnd.choice(plausible[kind])
        ids = tuple(items[i].id for i in range(n) if mask >> i & 1)
        yield Move(card, action, ids, value if action == "build" else None)
    yield from odd_candidates(pos, rnd)


def candidate_count(pos: Position) -> int:
    return len(pos.state.hands[pos.seat]) * (2 ** len(pos.state.table)) * 15


def is_exhaustive(pos: Position) -> bool:
    return candidate_count(pos) <= EXHAUSTIVE_BUDGET


def positions(option_set: str, chunk: int):
    overrides = OPTION_SETS[option_set]
    base = (list(OPTION_SETS).index(option_set) * 1_000_003 + chunk * POSITIONS_PER_CHUNK) * 31
    for k in range(POSITIONS_PER_CHUNK):
        yield random_position(base + k, overrides)


# ---------------------------------------------------------------------------
# The tests
# ---------------------------------------------------------------------------

CASES = [(name, chunk) for name in OPTION_SETS for chunk in range(CHUNKS)]


@pytest.mark.parametrize("option_set,chunk", CASES)
def test_is_legal_agrees_with_brute_force_on_every_candidate(option_set, chunk):
    checked = legal = 0
    for pos in positions(option_set, chunk):
        candidates = (all_candidates(pos) if is_exhaustive(pos)
                      else sampled_candidates(pos, SAMPLED_CANDIDATES))
        wrong = []
        for move in candidates:
            checked += 1
            engine = is_legal(pos.state, pos.seat, move)
            brute = brute_is_legal(pos.state, pos.seat, move)
            legal += brute
            if engine != brute:
                wrong.append(f"{move.text}: engine says {'legal' if engine else 'illegal'}, "
                             f"brute force {'legal' if brute else 'illegal'}")
        assert not wrong, f"{pos.describe()}\n" + "\n".join(wrong[:10])
    assert legal > 20 and checked > 1000, (legal, checked)  # not only the easy refusals


def candidates_for(pos: Position, action: str):
    """Every candidate of one action, in the shape the engine lists moves
    (captures state no value; builds every value the game allows)."""
    state = pos.state
    ids = [it.id for it in state.table]
    top = 13 if state.options.court_capture == "valued" else 10
    for card in state.hands[pos.seat]:
        if action == "trail":
            yield Move(card, "trail")
            continue
        for k in range(1, len(ids) + 1):
            for sub in itertools.combinations(ids, k):
                if action == "capture":
                    yield Move(card, "capture", sub)
                else:
                    for value in range(1, top + 1):
                        yield Move(card, "build", sub, value)


def listing_positions():
    """Positions small enough to list every legal move by brute force: the
    ordinary ones of each option set, and crowded tables of loose low cards
    (where a capture or build can be many groups at once)."""
    for name in OPTION_SETS:
        for chunk in range(CHUNKS):
            for pos in positions(name, chunk):
                if len(pos.state.table) <= LISTING_MAX_ITEMS:
                    yield pos
    for k in range(CROWDED):
        yield crowded_position(k)


def crowded_position(k: int) -> Position:
    seed = 9_000_000 + k
    rnd = random.Random(seed)
    overrides = rnd.choice([{}, {}, {"partial_capture": False}, {"raise_with_table_cards": True}])
    options = resolve("cassino", overrides, players=2)
    low = [c for c in full_deck() if c.rank <= 10]
    rnd.shuffle(low)
    n = rnd.randint(6, LISTING_MAX_ITEMS)
    table = tuple(low[:n])
    hand = tuple(low[n:n + rnd.randint(1, 3)])
    rest = tuple(c for c in full_deck() if c not in table and c not in hand)
    state = GameState(
        variant="cassino", options=options, seats=(Seat("P0", 0), Seat("P1", 1)),
        status="in_progress", version=3, hand_number=1, dealer=1, turn=0, round=1,
        stock=rest[4:], hands=(hand, rest[:4]), table=table, captured=((), ()), sweeps=(0, 0),
        next_build=1, scores=(0, 0))
    return Position(state, 0, seed)


@functools.lru_cache(maxsize=1)
def _listings() -> tuple:
    """For each listing position: the view, the moves it lists, and per action
    the brute force's legal set. Shared by the listing tests (it is the slow
    part, and both read the same answers)."""
    out = []
    for pos in listing_positions():
        view = legal_moves(pos.state, pos.seat)
        listed = list(view)
        per_action = {}
        for action in ("trail", "capture", "build"):
            want = {m for m in candidates_for(pos, action) if brute_is_legal(pos.state, pos.seat, m)}
            per_action[action] = (want, {m for m in listed if m.action == action})
        out.append((pos, view, listed, per_action))
    return tuple(out)


def _listing_report(check) -> list[str]:
    problems = []
    for pos, view, listed, per_action in _listings():
        for action, (want, got) in per_action.items():
            problem = check(pos, view, listed, want, got)
            if problem:
                problems.append(f"{pos.describe()}\n  {action}: {problem}")
    return problems


def test_legal_moves_lists_only_legal_moves_and_first_agrees_with_the_full_view():
    def check(pos, view, listed, want, got):
        if got - want:
            return f"listed but illegal: {sorted(m.text for m in got - want)[:5]}"
        if len(listed) != len(set(listed)):
            return "a move is listed twice"
        first = view.first()
        if not set(first.moves) <= set(listed):
            return "first() lists moves the full view does not"
        if not first.truncated and set(first.moves) != set(listed):
            return "first() is not marked truncated but lacks moves"
        return None

    problems = _listing_report(check)
    assert not problems, f"{len(problems)} problems, e.g.\n" + "\n".join(problems[:3])


def test_legal_moves_lists_every_legal_move():
    def check(pos, view, listed, want, got):
        if want - got:
            return f"legal but not listed: {sorted(m.text for m in want - got)[:5]}"
        return None

    problems = _listing_report(check)
    assert not problems, f"{len(problems)} positions lack legal moves, e.g.\n" + "\n".join(problems[:3])


def test_legal_moves_lists_a_capture_of_two_groups_when_a_third_group_overlaps_one():
    # Groups of 9 on this table: 8D+AH, 6C+2C+AH, 5H+4C. Taking 6C+2C+AH leaves
    # 5H+4C still free, so the union of those two groups is a legal capture.
    state = _hand_position(list(cards("4C 8D 5H 2C 6C AH")), "9C")
    move = Move.parse("9C capture AH 5H 2C 4C 6C")
    listed = legal_moves(state, 0).first()
    assert is_legal(state, 0, move) and brute_is_legal(state, 0, move)
    assert not listed.truncated
    assert move in listed.moves


def test_legal_moves_lists_every_maximal_capture_when_partial_capture_is_off():
    state = _hand_position(list(cards("4C 3C AS 5C 4H 9S 3H")), "10H", {"partial_capture": False})
    move = Move.parse("10H capture AS 3H 4H 3C 4C 5C")  # leaves only the 9S
    listed = legal_moves(state, 0).first()
    assert is_legal(state, 0, move) and brute_is_legal(state, 0, move)
    assert not listed.truncated
    assert move in listed.moves


def test_legal_moves_lists_a_multiple_build_of_three_groups():
    state = _hand_position(list(cards("6C 4S AD AS 5S 7D 8C")), "3S 9S")
    move = Move.parse("3S build 9 AS 4S 5S AD 7D 6C")
    listed = legal_moves(state, 0).first()
    assert is_legal(state, 0, move) and brute_is_legal(state, 0, move)
    assert not listed.truncated
    assert move in listed.moves


# ---------------------------------------------------------------------------
# The checker checks itself on positions whose answers are known by hand,
# so that a broken brute force cannot make the comparison above vacuous.
# ---------------------------------------------------------------------------


def _hand_position(table: list, hand: str, options: dict | None = None, seat: int = 0) -> GameState:
    opts = resolve("cassino", options or {}, players=2)
    other = cards("KS KH KD KC") if "K" not in hand else cards("QS QH QD QC")
    hands = (cards(hand), other) if seat == 0 else (other, cards(hand))
    return GameState(variant="cassino", options=opts, seats=(Seat("P0", 0), Seat("P1", 1)),
                     status="in_progress", version=3, hand_number=1, dealer=1 - seat, turn=seat,
                     round=1, stock=(), hands=hands, table=tuple(table), captured=((), ()),
                     sweeps=(0, 0), next_build=9, scores=(0, 0))


def _c(code: str) -> Card:
    return Card.parse(code)


@pytest.mark.parametrize("text,legal", [
    ("8H capture 8S", True),
    ("8H capture 5D 3C", True),
    ("8H capture 8S 5D 3C", True),
    ("8H capture 8S 5D", False),  # 13: not groups of 8
    ("8H capture 2C 6S 5D 3C", True),  # 2+6 and 5+3
    ("8H capture 6S 5D 3C", False),  # 14
    ("8H capture B1", False),  # a build of 9
    ("9C capture B1", False),  # the 9C is not in hand
    ("3H build 8 5D", True),  # 3+5, keeping an 8 to take it
    ("2D build 9 B1", False),  # the 2 alone does not make 9
    ("2D build 11 B1", False),  # no build is worth 11
    ("2D build 1 2C", False),  # 2 + 2 do not make 1
    ("8H build 8 8S", True),  # pairing into a multiple build, keeping the 8D
    ("8D build 16 8S", False),
    ("3H build 5 2C", False),  # no 5 in hand to take it
    ("5D trail", False),  # the 5D is on the table, not in hand
    ("2D trail", True),
    ("2D trail 8S", False),
])
def test_brute_force_knows_the_basic_rules(text, legal):
    table = [_c("8S"), _c("5D"), _c("3C"), _c("2C"), _c("6S"),
             Build("B1", 9, ((_c("4H"), _c("5S")),), owner=1)]
    state = _hand_position(table, "8H 8D 3H 2D")
    assert brute_is_legal(state, 0, Move.parse(text)) is legal


def test_brute_force_enforces_owner_duty_and_raises():
    own = Build("B1", 7, ((_c("4H"), _c("3S")),), owner=0)
    state = _hand_position([own, _c("2C")], "7D 9C 2H")
    assert not brute_is_legal(state, 0, Move.parse("2H trail"))  # owner may not trail
    assert not brute_is_legal(state, 0, Move.parse("7D capture 2C"))  # illegal capture anyway
    assert brute_is_legal(state, 0, Move.parse("7D capture B1"))
    assert brute_is_legal(state, 0, Move.parse("2H build 9 B1"))  # raise own build, holding the 9
    strict = _hand_position([own, _c("2C")], "7D 9C 2H", {"raise_own_build": "needs_both"})
    assert brute_is_legal(strict, 0, Move.parse("2H build 9 B1"))  # still holds the 7
    lone = _hand_position([own, _c("2C")], "9C 2H", {"raise_own_build": "needs_both", "owner_duty": "free"})
    assert not brute_is_legal(lone, 0, Move.parse("2H build 9 B1"))
    with_table = _hand_position([Build("B1", 6, ((_c("4H"), _c("2S")),), owner=1), _c("AC")], "2H 9C")
    assert not brute_is_legal(with_table, 0, Move.parse("2H build 9 B1 AC"))
    rwtc = _hand_position([Build("B1", 6, ((_c("4H"), _c("2S")),), owner=1), _c("AC")], "2H 9C",
                          {"raise_with_table_cards": True})
    assert brute_is_legal(rwtc, 0, Move.parse("2H build 9 B1 AC"))


def test_brute_force_enforces_maximal_captures_when_partial_capture_is_off():
    table = [_c("8S"), _c("5D"), _c("3C"), _c("4H")]
    partial = _hand_position(table, "8H 2D")
    whole = _hand_position(table, "8H 2D", {"partial_capture": False})
    assert brute_is_legal(partial, 0, Move.parse("8H capture 8S"))
    assert not brute_is_legal(whole, 0, Move.parse("8H capture 8S"))
    assert brute_is_legal(whole, 0, Move.parse("8H capture 8S 5D 3C"))


def test_random_positions_are_varied():
    """The generator must produce builds of both owners, crowded tables and
    legal captures and builds, or the agreement above proves little."""
    seen = {"own_build": 0, "their_build": 0, "multiple": 0, "crowded": 0, "capture": 0, "build": 0}
    for pos in positions("default", 0):
        s = pos.state
        seen["crowded"] += len(s.table) >= 10
        for b in s.builds():
            seen["own_build" if b.owner == pos.seat else "their_build"] += 1
            seen["multiple"] += b.multiple
        for m in legal_moves(s, pos.seat).first().moves:
            if m.action in ("capture", "build"):
                seen[m.action] += 1
    assert all(seen.values()), seen


def test_brute_force_knows_aces_build_as_ones():
    """002: a build names "the number value (from 1 to 10)"."""
    state = _hand_position([_c("AS"), _c("7C")], "AH AD")
    assert brute_is_legal(state, 0, Move.parse("AH build 1 AS"))
    assert not brute_is_legal(_hand_position([_c("AS")], "AH 9C"), 0, Move.parse("AH build 1 AS"))

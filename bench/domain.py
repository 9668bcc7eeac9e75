"""How fast the rules engine is: whole games, folding, and crowded tables.

Run from the repository root::

    python bench/domain.py            # about twenty seconds
    python bench/domain.py --seed 7   # other random games and tables
    python bench/domain.py --cpu      # CPU time of this process, not wall time
    python bench/domain.py --cpu --against /tmp/old   # old and new, in one run
    python bench/domain.py --cpu --against e50f4c1    # the same, the old side a commit

``--cpu`` times with :func:`time.process_time`, so that on a shared, busy
machine a figure counts this process's work and not the others' (games
per second, then, per CPU second). ``--against DIR`` runs the bench on the
checkout in ``DIR`` (``git worktree add /tmp/old COMMIT``; or name a commit,
whose ``domain/`` is written to a temporary directory) and on this one
in turn, ``--runs`` times each, alternating, and prints the best figure of
each side and new/old; its last line holds both sides and the ratios. A
worst case there (``validate_ms_N``, ``legal_moves_ms_N``) is each call's
fastest over every run of its side (each run checks the same moves on the
same tables), then the slowest of those: the slowest call of one run is
often one the machine disturbed in every repeat, and a run of the bench
against its own code gave these ratios from 0.70 to 1.13 when each side's
figure was the best of its runs' own worst cases.

It prints figures for people, and as its last line one JSON object for
machines (CI keeps it; compare runs on the same machine only):

- ``games_per_s``: random two-player games of ``cassino`` played end to end
  (``legal_moves(...).first()``, a random move, ``decide``, ``evolve``);
  the best of several rounds, since slower rounds measure the machine's
  other work rather than the engine;
- ``fold_events_per_s``: ``fold`` over recorded event lists (events already
  decoded), best of several rounds;
- ``validate_ms_N`` and ``legal_moves_ms_N`` for N = 10, 20, 30, 40 table
  items: the *worst case* over crowded tables of low cards (a deck has only
  40 cards from ace to ten, so 40 items is every one of them) of checking
  one proposed move with ``is_legal``, and of ``legal_moves(state,
  seat).first()``;
- ``legal_moves_worst_ms``: the slowest ``first()`` over every table above
  and over crowded tables where seat 0 owns one or two builds, with and
  without a second card of each build's value in hand (the owner's duty
  refuses most moves there);
- ``narrowed_card_ms``: the slowest ``legal_moves(state, seat).narrowed(card).first()``,
  one card's moves (what a player who has picked a card is offered), over
  each hand card of the slowest table to list of each size above;
- ``validate_all_ms``: ``is_legal`` over every candidate move of every
  table above, each call's fastest repeat, added up (what checking costs
  on the whole, where the worst case says only what one move may cost).
  Each is timed with the engine's memo caches emptied first
  (a cold start is what a new position costs), taking the fastest of a few
  repeats of the same call to drop scheduler noise, then the slowest call.
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import platform
import random
import statistics
import subprocess
import sys
import tempfile
import time
from itertools import product


def _root(argv: list[str]) -> str:
    """The checkout whose ``domain`` is benched: ``--root DIR``, or this one."""
    if "--root" in argv[:-1]:
        return os.path.abspath(argv[argv.index("--root") + 1])
    return os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


sys.path.insert(0, _root(sys.argv))

from domain import Card, full_deck  # noqa: E402
from domain.cassino import (Build, CreateGame, Deal, Move, Play, decide, evolve, fold,  # noqa: E402
                            is_legal, legal_moves)
from domain.cassino.options import resolve  # noqa: E402
from domain.cassino.state import GameState, Seat  # noqa: E402

SIZES = (10, 20, 30, 40)
TARGETS = {  # what the engine should manage on a modest machine
    "fold_events_per_s": (">", 200_000),
    "validate_ms_30": ("<", 1.0),
    "legal_moves_ms_30": ("<", 20.0),
    "legal_moves_worst_ms": ("<", 20.0),
    "narrowed_card_ms": ("<", 5.0),
}
REPEATS = 3  # timings of the same call; the fastest counts
clock = time.perf_counter  # time.process_time with --cpu


def clear_caches() -> None:
    """Empty every memo cache in the engine (found by looking, so the bench
    keeps working when the engine's private helpers change)."""
    for module in list(sys.modules.values()):
        if getattr(module, "__name__", "").startswith("domain"):
            for value in vars(module).values():
                clear = getattr(value, "cache_clear", None)
                if callable(clear):
                    clear()


def timed(fn, cold: bool = True) -> float:
    """Seconds for the fastest of REPEATS calls of ``fn``."""
    best = float("inf")
    for _ in range(REPEATS):
        if cold:
            clear_caches()
        start = clock()
        fn()
        best = min(best, clock() - start)
    return best


# -- whole games --------------------------------------------------------------


def play_game(rnd: random.Random) -> list:
    """One random two-player game of cassino to its end; returns its events."""
    events = decide(None, CreateGame("cassino", ("Ann", "Bob"), rnd.randrange(2)))
    state = fold(events)
    deck = list(full_deck())
    while not state.is_over:
        if state.status == "in_progress":
            move = rnd.choice(legal_moves(state, state.turn).first().moves)
            new = decide(state, Play(state.turn, move))
        else:
            rnd.shuffle(deck)
            new = decide(state, Deal(tuple(deck)))
        for event in new:
            state = evolve(state, event)
        events += new
    return events


def bench_games(rnd: random.Random, rounds: int, per_round: int) -> tuple[float, list[list]]:
    rates, logs = [], []
    for _ in range(rounds):
        start = clock()
        for _ in range(per_round):
            logs.append(play_game(rnd))
        rates.append(per_round / (clock() - start))
    print(f"games: {rounds} rounds of {per_round} two-player games; games/s per round: "
          + ", ".join(f"{r:.1f}" for r in rates))
    lengths = [len(log) for log in logs]
    print(f"  events per game: median {statistics.median(lengths):.0f}, max {max(lengths)}")
    return max(rates), logs


def bench_fold(logs: list[list], rounds: int) -> float:
    total = sum(len(log) for log in logs)
    rates = []
    for _ in range(rounds):
        gc.collect()
        start = clock()
        for log in logs:
            fold(log)
        rates.append(total / (clock() - start))
    print(f"fold: {len(logs)} games, {total} events, {rounds} rounds; events/s per round: "
          + ", ".join(f"{r:,.0f}" for r in rates))
    return max(rates)


# -- crowded tables -------------------------------------------------------------


LOW = [c for c in full_deck() if c.rank <= 10]


def crowded_table(rnd: random.Random, size: int, with_builds: bool) -> GameState:
    """``size`` table items of low cards (a few of them the opponent's builds
    when cards allow), four random cards in the hand of seat 0 to play."""
    pool = LOW[:]
    rnd.shuffle(pool)
    spare = len(pool) - size  # cards that can go into builds beyond one per item
    builds = min(3, spare) if with_builds else 0
    items: list = [two_card_build(pool, f"B{k + 1}", owner=1) for k in range(builds)]
    rest = fill(rnd, items, pool, size) + [c for c in full_deck() if c.rank > 10]
    rnd.shuffle(rest)
    return position(items, tuple(rest[:4]), rest[4:])


def owned_table(rnd: random.Random, size: int, owned: int, guards: bool) -> GameState:
    """The owner's duty on a crowded table: seat 0 owns ``owned`` builds and
    holds the card that takes each (two of each with ``guards``), the rest of
    the hand courts, so most moves would leave a build without its card."""
    pool = LOW[:]
    rnd.shuffle(pool)
    items: list = [two_card_build(pool, f"B{k + 1}", owner=0) for k in range(owned)]
    hand: list[Card] = []
    for build in items:
        for _ in range(2 if guards else 1):
            taker = next(c for c in pool if c.rank == build.value)
            pool.remove(taker)
            hand.append(taker)
    courts = [c for c in full_deck() if c.rank > 10]
    rnd.shuffle(courts)
    filler = 4 - len(hand)
    hand += courts[:filler]
    rest = fill(rnd, items, pool, size) + courts[filler:]
    return position(items, tuple(hand), rest)


def two_card_build(pool: list[Card], ident: str, owner: int) -> Build:
    """A single build of two cards from ``pool``, worth 4 to 10 (so a card
    of its value is left to take it)."""
    a, b = next((a, b) for i, a in enumerate(pool) for b in pool[i + 1:] if 4 <= a.rank + b.rank <= 10)
    pool.remove(a)
    pool.remove(b)
    return Build(ident, a.rank + b.rank, ((a, b),), owner=owner)


def fill(rnd: random.Random, items: list, pool: list[Card], size: int) -> list[Card]:
    """Add loose cards from ``pool`` until the table holds ``size`` items;
    shuffle the table; return the cards left."""
    while len(items) < size:
        items.append(pool.pop())
    rnd.shuffle(items)
    return pool


def position(items: list, hand: tuple[Card, ...], rest: list[Card]) -> GameState:
    """Seat 0 to play ``hand`` on a table of ``items`` (two players)."""
    builds = sum(isinstance(it, Build) for it in items)
    return GameState(
        variant="cassino", options=resolve("cassino", {}, players=2),
        seats=(Seat("Ann", 0), Seat("Bob", 1)), status="in_progress", version=3, hand_number=1,
        dealer=1, turn=0, round=1, stock=tuple(rest[4:]), hands=(hand, tuple(rest[:4])), table=tuple(items),
        captured=((), ()), sweeps=(0, 0), next_build=builds + 1, scores=(0, 0))


def value(card: Card) -> int:
    return card.rank if card.rank <= 10 else 0


def candidates(rnd: random.Random, state: GameState, listed: tuple[Move, ...], plain: int) -> list[Move]:
    """Moves to validate on one table, legal and illegal: what legal_moves
    lists, the biggest captures (every loose card a card could take, which
    makes the split into groups work hardest), random subsets that add up
    to a multiple of the card (the hard refusals), plain random moves, and
    big multiple builds."""
    hand = state.hands[0]
    items = list(state.table)
    loose = [it for it in items if isinstance(it, Card)]
    out = list(listed)
    for card in hand:
        v = value(card)
        if not v:
            out.append(Move(card, "capture", tuple(c.id for c in loose if c.rank == card.rank)[:1]))
            continue
        small = [c.id for c in loose if value(c) <= v]
        builds = [b.id for b in items if isinstance(b, Build) and b.value == v]
        out.append(Move(card, "capture", tuple(small) + tuple(builds)))
        out.append(Move(card, "capture", tuple(c.id for c in loose)))
        found = tries = 0
        while found < 25 and tries < 5000:
            tries += 1
            sub = [c for c in loose if value(c) <= v and rnd.random() < 0.6]
            if sub and sum(value(c) for c in sub) % v == 0:
                out.append(Move(card, "capture", tuple(c.id for c in sub)))
                found += 1
        for target in range(max(v, 2), 11):  # builds of many groups, the card in one
            sub = [c for c in loose if value(c) <= target and rnd.random() < 0.7]
            out.append(Move(card, "build", tuple(c.id for c in sub), target))
    ids = [it.id for it in items]
    for _ in range(plain):
        card = rnd.choice(hand)
        action = rnd.choice(["trail", "capture", "build"])
        sub = tuple(rnd.sample(ids, rnd.randint(0, len(ids))))
        out.append(Move(card, action, () if action == "trail" else sub,
                        rnd.randint(2, 10) if action == "build" else None))
    return list(dict.fromkeys(out))


def bench_tables(rnd: random.Random, tables: int, plain: int) -> tuple[dict, dict[str, list[float]]]:
    """The crowded tables' figures, and each worst case's calls (seconds, in
    the order made) by the figure's name."""
    results: dict = {}
    calls: dict[str, list[float]] = {}
    worst_listing = validate_total = narrowed_worst = 0.0
    checked_total = legal_total = 0
    print(f"crowded tables: {tables} per size, seat 0 to play with four cards; "
          f"times are the fastest of {REPEATS} cold-cache calls")
    for size in SIZES:
        validate_worst, validate_all, legal_worst, legal_all = (0.0, None), [], (0.0, None, None), []
        legal_count = truncated = checked = 0
        for k in range(tables):
            state = crowded_table(rnd, size, with_builds=k % 2 == 1)
            listed = legal_moves(state, 0).first()
            truncated += listed.truncated
            t = timed(lambda: legal_moves(state, 0).first())
            legal_all.append(t)
            if t > legal_worst[0]:
                legal_worst = (t, " ".join(str(it) for it in state.table), state)
            for move in candidates(rnd, state, listed.moves, plain):
                t = timed(lambda: is_legal(state, 0, move))
                checked += 1
                legal_count += is_legal(state, 0, move)
                validate_all.append(t)
                if t > validate_worst[0]:
                    validate_worst = (t, move.text)
        worst_listing = max(worst_listing, legal_worst[0])
        narrowed_worst = max(narrowed_worst, narrowed_card(legal_worst[2]))
        validate_total += sum(validate_all)
        checked_total, legal_total = checked_total + checked, legal_total + legal_count
        results[f"validate_ms_{size}"] = round(validate_worst[0] * 1000, 3)
        results[f"legal_moves_ms_{size}"] = round(legal_worst[0] * 1000, 3)
        calls[f"validate_ms_{size}"], calls[f"legal_moves_ms_{size}"] = validate_all, legal_all
        print(f"  {size} items: validate {checked} moves ({legal_count} legal): "
              f"median {statistics.median(validate_all) * 1e6:.0f} us, "
              f"worst {validate_worst[0] * 1000:.3f} ms ({validate_worst[1]})")
        print(f"  {size} items: legal_moves().first(): median {statistics.median(legal_all) * 1000:.2f} ms, "
              f"worst {legal_worst[0] * 1000:.2f} ms; {truncated} of {tables} lists cut")
    print(f"  every size: validate {checked_total} moves ({legal_total} legal): {validate_total * 1000:.1f} ms")
    results["validate_all_ms"] = round(validate_total * 1000, 1)
    results["narrowed_card_ms"] = round(narrowed_worst * 1000, 3)
    print(f"  one card's moves (narrowed), each card of each size's slowest table: worst "
          f"{narrowed_worst * 1000:.2f} ms")
    worst_listing = max(worst_listing, bench_owned_tables(rnd, tables))
    results["legal_moves_worst_ms"] = round(worst_listing * 1000, 3)
    return results, calls


def narrowed_card(state: GameState) -> float:
    """The slowest ``first()`` of one hand card's moves (seconds), over the
    cards of seat 0's hand; 0 for a checkout whose moves do not narrow."""
    moves = legal_moves(state, 0)
    if not hasattr(moves, "narrowed"):
        return 0.0
    return max(timed(lambda: moves.narrowed(card.code).first()) for card in dict.fromkeys(state.hands[0]))


OWNED_SIZES = (10, 20, 30)  # each owned build takes two low cards and one or two more in the hand


def bench_owned_tables(rnd: random.Random, tables: int) -> float:
    """The slowest ``legal_moves().first()`` (seconds) where seat 0 owns one
    or two builds, with and without a second card of each build's value."""
    print("crowded tables with seat 0's own builds: legal_moves().first()")
    worst = 0.0
    for size in OWNED_SIZES:
        for owned, guards in product((1, 2), (False, True)):
            times, cut = [], 0
            for _ in range(tables):
                state = owned_table(rnd, size, owned, guards)
                cut += legal_moves(state, 0).first().truncated
                times.append(timed(lambda: legal_moves(state, 0).first()))
            worst = max(worst, *times)
            print(f"  {size} items, {owned} own build{'s' * (owned > 1)}, "
                  f"{'with' if guards else 'without'} guard cards: median "
                  f"{statistics.median(times) * 1000:.2f} ms, worst {max(times) * 1000:.2f} ms; "
                  f"{cut} of {tables} lists cut")
    return worst


def worst_of_fastest(runs: list[dict[str, list[float]]]) -> dict[str, float]:
    """Each worst case over ``runs`` of one side (their calls by figure, as
    :func:`bench_tables` returns them), in milliseconds: every call's
    fastest time over the runs, then the slowest of those."""
    out = {}
    for key in runs[0]:
        each = [run[key] for run in runs]
        assert len({len(times) for times in each}) == 1, f"{key}: the runs made different calls"
        out[key] = round(max(min(times) for times in zip(*each)) * 1000, 3)
    return out


def best(runs: list[dict]) -> dict:
    """Each figure's best over ``runs``: the most per second, the fewest milliseconds."""
    pick = {key: (max if key.endswith("_per_s") else min) for key, got in runs[0].items()
            if key.endswith(("_per_s", "_ms")) or "_ms_" in key}
    return {key: choose(run[key] for run in runs) for key, choose in pick.items()}


def against(old: str, argv: list[str], runs: int) -> int:
    """The bench on the checkout ``old`` and on this one, ``runs`` times
    each, alternating (the first of a pair flips every run); prints the
    best figures of each side and new/old."""
    here = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    if not os.path.isdir(old):  # a commit: its domain/, written out
        with tempfile.TemporaryDirectory(prefix="bench-domain-") as tmp:
            archive = subprocess.run(["git", "-C", here, "archive", old, "domain"], check=True,
                                     capture_output=True).stdout
            subprocess.run(["tar", "-x", "-C", tmp], input=archive, check=True)
            return against_dir(tmp, old, argv, runs)
    return against_dir(old, old, argv, runs)


def against_dir(old: str, label: str, argv: list[str], runs: int) -> int:
    """:func:`against`, the old side's checkout in the directory ``old``."""
    here = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    sides: dict[str, list[dict]] = {"old": [], "new": []}
    calls: dict[str, list[dict]] = {"old": [], "new": []}
    with tempfile.TemporaryDirectory(prefix="bench-calls-") as tmp:
        for k in range(runs):
            for side in (("old", "new") if k % 2 == 0 else ("new", "old")):
                root = os.path.abspath(old) if side == "old" else here
                kept = os.path.join(tmp, f"{side}-{k}.json")
                out = subprocess.run([sys.executable, os.path.abspath(__file__), "--root", root, "--calls", kept,
                                      *argv], check=True, capture_output=True, text=True).stdout
                sides[side].append(json.loads(out.strip().splitlines()[-1]))
                with open(kept) as f:
                    calls[side].append(json.load(f))
                print(f"run {k + 1} {side}: {sides[side][-1]}", flush=True)
    found = {side: {**best(got), **worst_of_fastest(calls[side])} for side, got in sides.items()}
    ratios = {key: round(found["new"][key] / found["old"][key], 3) for key in found["new"] if found["old"].get(key)}
    print(f"best of {runs} runs each, old ({label}) / new (this checkout) / new over old:")
    for key, ratio in ratios.items():
        print(f"  {key}: {found['old'][key]:,} / {found['new'][key]:,} / {ratio}")
    print(json.dumps({"old": found["old"], "new": found["new"], "new_over_old": ratios}))
    return 0


def main(argv=None) -> int:
    global clock
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--rounds", type=int, default=5, help="rounds of games and of folds")
    parser.add_argument("--games", type=int, default=20, help="games per round")
    parser.add_argument("--tables", type=int, default=20, help="crowded tables per size")
    parser.add_argument("--plain", type=int, default=150, help="plain random moves per table")
    parser.add_argument("--cpu", action="store_true", help="time in this process's CPU time, not wall time")
    parser.add_argument("--root", help="bench the domain of the checkout in this directory")
    parser.add_argument("--against", metavar="DIR", help="bench the checkout in DIR (or a commit's domain/) and "
                        "this one, alternating")
    parser.add_argument("--runs", type=int, default=3, help="runs of each side, with --against")
    parser.add_argument("--calls", metavar="FILE", help="write each worst case's calls' times here (JSON)")
    args = parser.parse_args(argv)
    if args.against:
        given = list(sys.argv[1:] if argv is None else argv)
        for flag in ("--against", "--runs"):
            while flag in given:
                del given[given.index(flag):given.index(flag) + 2]
        return against(args.against, given, args.runs)
    clock = time.process_time if args.cpu else time.perf_counter
    rnd = random.Random(args.seed)
    print(f"casino domain bench: Python {platform.python_version()} on {platform.machine()}, "
          f"seed {args.seed}, {'CPU' if args.cpu else 'wall'} time, domain of {_root(sys.argv)}")
    started = time.perf_counter()
    games_per_s, logs = bench_games(rnd, args.rounds, args.games)
    fold_per_s = bench_fold(logs, args.rounds)
    results = {"games_per_s": round(games_per_s, 2), "fold_events_per_s": round(fold_per_s)}
    tables, calls = bench_tables(rnd, args.tables, args.plain)
    results.update(tables)
    if args.calls:
        with open(args.calls, "w") as f:
            json.dump(calls, f)
    print("targets:")
    met = {}
    for key, (sense, goal) in TARGETS.items():
        got = results[key]
        ok = got > goal if sense == ">" else got < goal
        met[key] = ok
        print(f"  {key}: {got:,} (target {sense} {goal:,}) {'met' if ok else 'MISSED'}")
    print(f"took {time.perf_counter() - started:.1f} s")
    results["targets_met"] = met
    results["seed"] = args.seed
    print(json.dumps(results))
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""The crowded tables ``bench/domain.py`` times, for tests: the same
builders (low cards crowding the table, some of them the opponent's builds;
and tables where seat 0 owns builds), with seeds of their own."""

from __future__ import annotations

import importlib.util
import itertools
import random
from pathlib import Path
from types import ModuleType

from domain.cassino import GameState, legal_moves

_BENCH = Path(__file__).resolve().parent.parent / "bench" / "domain.py"


def _bench() -> ModuleType:
    spec = importlib.util.spec_from_file_location("bench_domain", _BENCH)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


BENCH = _bench()


def crowded(size: int, seed: int, with_builds: bool) -> GameState:
    """Seat 0 to play four cards on ``size`` table items, as the bench deals them."""
    return BENCH.crowded_table(random.Random(seed), size, with_builds)


def owned(size: int, seed: int, builds: int, guards: bool) -> GameState:
    """Seat 0 to play on ``size`` items, owning ``builds`` of them, as the bench deals them."""
    return BENCH.owned_table(random.Random(seed), size, builds, guards)


def crowded_tables(most: int = 20_000) -> list[GameState]:
    """The most crowded tables the bench knows, every size of the bench with
    and without builds, and seat 0's own builds: those with at most
    ``most`` legal moves (all of them can be listed in a test's time)."""
    tables = [crowded(size, seed, seed % 2 == 1) for size in BENCH.SIZES for seed in (1, 2, 3, 4)] + [
        owned(size, seed, builds, guards) for size in BENCH.OWNED_SIZES
        for seed, (builds, guards) in enumerate(((1, False), (2, True)))]
    return [t for t in tables if sum(1 for _ in itertools.islice(legal_moves(t, 0), most + 1)) <= most]

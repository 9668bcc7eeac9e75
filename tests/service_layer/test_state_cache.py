"""The cache of folded states: the most recently used kept, never an older state over a newer."""

from __future__ import annotations

from typing import NamedTuple

from service.cache import StateCache


class Versioned(NamedTuple):
    version: int


def test_the_least_recently_used_game_goes_first_and_a_newer_state_is_never_replaced():
    cache = StateCache(size=2)
    cache.put("a", Versioned(1))
    cache.put("b", Versioned(1))
    assert cache.get("a") == Versioned(1)  # "a" used last: "b" goes when "c" comes
    cache.put("c", Versioned(1))
    assert (cache.get("a"), cache.get("b"), cache.get("c")) == (Versioned(1), None, Versioned(1))

    cache.put("a", Versioned(5))
    cache.put("a", Versioned(3))  # a slower command's older state
    assert cache.get("a") == Versioned(5)
    cache.drop("a")
    assert cache.get("a") is None
    cache.clear()
    assert cache.get("c") is None

"""Splitting table cards into groups that each make a value.

Every capture and build comes down to one question: can these card values be
split into groups that each add up to ``v``? Trying subsets is exponential in
the number of cards, so the search here works on *value counts* (how many
1s, 2s, ... there are), which is at most four of each value per deck, and
memoises what it learns. The largest value left must sit in some group, so
each step removes it together with a sub-multiset that tops it up to ``v``;
those sub-multisets are partitions of a number no larger than 13, so there
are few of them.

    >>> can_split([8, 6, 2, 5, 3], 8)     # 8 | 6+2 | 5+3
    True
    >>> can_split([1, 2, 3, 5, 6, 8], 8)  # the sum is 25, not a multiple of 8
    False
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

Counts = tuple[int, ...]


def counts_of(values: Sequence[int], v: int) -> Counts | None:
    """The count vector of ``values`` (index = value), or None if one exceeds ``v``."""
    counts = [0] * (v + 1)
    for x in values:
        if x > v or x < 1:
            return None
        counts[x] += 1
    return tuple(counts)


def can_split(values: Sequence[int], v: int) -> bool:
    """True when ``values`` split into groups that each add up to ``v``.

    An empty list splits trivially.
    """
    if sum(values) % v:
        return False
    counts = counts_of(values, v)
    return counts is not None and _can(counts, v)


def split(values: Sequence[int], v: int) -> list[list[int]] | None:
    """One way to split ``values`` into groups adding up to ``v``, as lists of
    *positions* in ``values``; None when there is none."""
    if sum(values) % v:
        return None
    counts = counts_of(values, v)
    if counts is None or not _can(counts, v):
        return None
    where: dict[int, list[int]] = {}
    for i, x in enumerate(values):
        where.setdefault(x, []).append(i)
    return [[where[x].pop() for x in group] for group in _witness(counts, v)]


def splits_with(values: Sequence[int], v: int, need: int) -> list[int] | None:
    """Positions of a sub-multiset of ``values`` adding up to ``need`` whose
    remainder still splits into groups of ``v``; None when there is none.

    This is the raise of a build with loose cards from the table: the raised
    build and the played card leave ``need`` to be made up from the table.
    """
    counts = counts_of(values, v)
    if counts is None or need < 0 or (sum(values) - need) % v:
        return None
    for sub in _sub_multisets(counts, need, v):
        rest = _minus(counts, sub)
        if _can(rest, v):
            where: dict[int, list[int]] = {}
            for i, x in enumerate(values):
                where.setdefault(x, []).append(i)
            return [where[x].pop() for x in range(1, v + 1) for _ in range(sub[x])]
    return None


def _minus(a: Counts, b: Counts) -> Counts:
    return tuple(x - y for x, y in zip(a, b))


@lru_cache(maxsize=1 << 16)
def _sub_multisets(counts: Counts, need: int, top: int) -> tuple[Counts, ...]:
    """Every sub-multiset of ``counts`` using values <= ``top`` that adds up to
    ``need``, as count vectors, those using larger values first."""
    found: list[Counts] = []
    chosen = [0] * len(counts)

    def walk(value: int, left: int) -> None:
        if left == 0:
            found.append(tuple(chosen))
            return
        if value == 0:
            return
        most = min(counts[value], left // value)
        for k in range(most, -1, -1):
            chosen[value] = k
            walk(value - 1, left - k * value)
        chosen[value] = 0

    walk(min(top, need, len(counts) - 1), need)
    return tuple(found)


def _largest(counts: Counts) -> int:
    for value in range(len(counts) - 1, 0, -1):
        if counts[value]:
            return value
    return 0


@lru_cache(maxsize=1 << 18)
def _can(counts: Counts, v: int) -> bool:
    top = _largest(counts)
    if top == 0:
        return True
    rest = list(counts)
    rest[top] -= 1
    rest_t = tuple(rest)
    if top == v:
        return _can(rest_t, v)
    return any(_can(_minus(rest_t, sub), v) for sub in _sub_multisets(rest_t, v - top, top))


def _witness(counts: Counts, v: int) -> list[list[int]]:
    """The groups (as lists of values) that :func:`_can` found."""
    groups: list[list[int]] = []
    while (top := _largest(counts)) :
        rest = list(counts)
        rest[top] -= 1
        rest_t = tuple(rest)
        if top == v:
            groups.append([v])
            counts = rest_t
            continue
        for sub in _sub_multisets(rest_t, v - top, top):
            left = _minus(rest_t, sub)
            if _can(left, v):
                groups.append([top] + [x for x in range(top, 0, -1) for _ in range(sub[x])])
                counts = left
                break
    return groups

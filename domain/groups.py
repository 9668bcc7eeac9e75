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

Value counts are *packed* into one int, a field of :data:`BITS` bits per
value (the count of ``x`` is ``counts >> BITS * x & 127``), so that adding
and taking away multisets is adding and subtracting ints, and whether one
multiset lies inside another is a single subtraction (see :func:`fitting`).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from functools import lru_cache
from operator import mul

Counts = int  # packed value counts, see the module docstring

BITS = 8
_FIELD = (1 << BITS - 1) - 1  # a count, far above the five cards a value can have; the top bit stays clear
_HIGHEST = 14  # no card is worth more than a Royal ace
_GUARD = sum(1 << BITS * x + BITS - 1 for x in range(_HIGHEST + 1))  # every field's top bit


def one(x: int) -> Counts:
    """The multiset holding a single ``x``."""
    return 1 << BITS * x


#: ``one(x)`` for every value a card may count, to look up rather than shift.
ONES = tuple(one(x) for x in range(_HIGHEST + 1))


def value_counts(counts: Counts) -> list[tuple[int, int]]:
    """The values in ``counts`` with how many there are, smallest first."""
    out = []
    x = 0
    while counts:
        k = counts & _FIELD
        if k:
            out.append((x, k))
        counts >>= BITS
        x += 1
    return out


def pips(counts: Counts) -> int:
    """What the values in ``counts`` add up to (a field is a byte, so the
    bytes of ``counts`` are the counts of 0, 1, 2 ...)."""
    return sum(map(mul, counts.to_bytes(_HIGHEST + 1, "little"), range(_HIGHEST + 1)))


def counts_of(values: Sequence[int], v: int) -> Counts | None:
    """The packed counts of ``values``, or None if one exceeds ``v``."""
    counts = 0
    for x in values:
        if x > v or x < 1:
            return None
        counts += 1 << BITS * x
    return counts


def fitting(groups: Iterable[Counts], counts: Counts) -> tuple[Counts, ...]:
    """The multisets among ``groups`` that lie inside ``counts``, in order.

    With every field's top bit set in ``counts``, taking away a multiset that
    lies inside leaves those bits set; one that does not borrows from the top
    bit of a field where it has more than ``counts``.
    """
    room = counts | _GUARD
    return tuple([g for g in groups if (room - g) & _GUARD == _GUARD])


def can_split(values: Sequence[int], v: int) -> bool:
    """True when ``values`` split into groups that each add up to ``v``.

    An empty list splits trivially.
    """
    if sum(values) % v:
        return False
    counts = counts_of(values, v)
    return counts is not None and _can(counts, v)


def splits_into(counts: Counts, v: int) -> bool:
    """True when the packed ``counts`` split into groups that each add up to
    ``v`` (:func:`can_split` on value counts; the empty multiset splits)."""
    return counts < one(v + 1) and _can(counts, v)


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
        if _can(counts - sub, v):
            where: dict[int, list[int]] = {}
            for i, x in enumerate(values):
                where.setdefault(x, []).append(i)
            return [where[x].pop() for x, k in value_counts(sub) for _ in range(k)]
    return None


def _partitions(highest: int) -> list[tuple[Counts, ...]]:
    """For each ``n`` up to ``highest``, every multiset of values adding up to
    ``n``, packed, in decreasing order: those with more of the larger values
    first. Each is some copies of its largest value and a partition of the
    rest into smaller values, so the lists are built from the shorter ones."""
    table: list[tuple[Counts, ...]] = [(0,)]
    for n in range(1, highest + 1):
        table.append(tuple(k * one(x) + rest for x in range(n, 0, -1) for k in range(n // x, 0, -1)
                           for rest in table[n - k * x] if rest < one(x)))
    return table


#: ``_PARTITIONS[n][top]``: the partitions of ``n`` into values up to ``top``
#: (a tail of the list for ``top = n``, as smaller values make smaller ints).
_PARTITIONS = tuple(tuple(tuple(p for p in every if p < one(top + 1)) for top in range(n + 1))
                    for n, every in enumerate(_partitions(_HIGHEST)))


@lru_cache(maxsize=1 << 16)
def _sub_multisets(counts: Counts, need: int, top: int) -> tuple[Counts, ...]:
    """Every sub-multiset of ``counts`` using values <= ``top`` that adds up to
    ``need``, those using larger values first."""
    return fitting(_PARTITIONS[need][min(top, need)], counts)


def _largest(counts: Counts) -> int:
    return (counts.bit_length() - 1) // BITS


@lru_cache(maxsize=1 << 18)
def _can(counts: Counts, v: int) -> bool:
    if not counts:
        return True
    top = _largest(counts)
    rest = counts - one(top)
    if top == v:
        return _can(rest, v)
    for sub in _sub_multisets(rest, v - top, top):  # a loop, not any(): a search makes few turns of it
        if _can(rest - sub, v):
            return True
    return False


def _witness(counts: Counts, v: int) -> list[list[int]]:
    """The groups (as lists of values, largest first) that :func:`_can` found."""
    groups: list[list[int]] = []
    while counts:
        top = _largest(counts)
        rest = counts - one(top)
        if top == v:
            groups.append([v])
            counts = rest
            continue
        for sub in _sub_multisets(rest, v - top, top):
            if _can(rest - sub, v):
                groups.append([top] + [x for x, k in reversed(value_counts(sub)) for _ in range(k)])
                counts = rest - sub
                break
    return groups

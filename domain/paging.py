"""Pages of legal moves: a game's moves listed in its own fixed order, a
page at a time, so that following the pages from the first lists every
legal move exactly once, however many there are.

A page ends where its generation stopped: after ``limit`` moves, or when
the work it may do for one page is spent (a crowded Cassino table can
make a page's worth of work find no move). :class:`Resume` says where:
how many moves were given before, and how much work the generation had
done when it stopped. The next page generates again from the start, skips
the moves given, and may do that much work and one page's worth more, so
that each page moves on; the order is fixed, so it skips exactly those.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Generic, TypeVar

M = TypeVar("M")


@dataclass(frozen=True, slots=True)
class Resume:
    """Where the next page starts: after ``given`` moves, with ``work``
    spent by the generation when the page before stopped."""

    given: int
    work: int = 0


@dataclass(frozen=True, slots=True)
class MoveList(Generic[M]):
    """A page of legal moves, and where the next starts (None on the last page)."""

    moves: tuple[M, ...]
    next: Resume | None = None

    @property
    def truncated(self) -> bool:
        """More legal moves exist than this page lists."""
        return self.next is not None


class OutOfWork(Exception):
    """The work a page may do is spent."""


class Budget:
    """How much work a generation may still do (None: no limit), and how much it has done."""

    def __init__(self, work: int | None):
        self.work = work
        self.spent = 0

    def spend(self) -> None:
        self.spent += 1
        if self.work is not None and self.spent > self.work:
            raise OutOfWork


def page(generate: Callable[[Budget], Iterator[M]], limit: int, after: Resume | None = None,
         work: int | None = None) -> MoveList[M]:
    """The page of at most ``limit`` moves after ``after`` (from the first
    when None) of the moves ``generate`` makes, each page doing at most
    ``work`` more work than the pages before it (None: no bound)."""
    start = after or Resume(0)
    budget = Budget(None if work is None else start.work + work)
    out: list[M] = []
    try:
        for given, move in enumerate(generate(budget)):
            if given < start.given:
                continue
            if len(out) == limit:
                return MoveList(tuple(out), Resume(start.given + limit, budget.spent))
            out.append(move)
    except OutOfWork:
        return MoveList(tuple(out), Resume(start.given + len(out), budget.spent - 1))
    return MoveList(tuple(out))

"""Reads that may come from a replica, never older than what their client
has seen.

A replica (a hot standby of the primary) takes reads off the primary. It
replays the primary's commits a little later, so a read there could find a
game older than its client was already shown, or than the client's own
command made it. So a routed read says what its client has seen
(``Seen``): a version of the game it reads (the ``ETag`` it was given, or
the version of its command's answer) and a position in the global order
(the ``Consistency-Token`` every command's answer and every routed read's
answer carries). A replica answers only once it has caught up with both:
its settled horizon past the position (``EventStore.horizon``), asked
before the read, and the game read at that version or later. A replica
behind is given up to ``wait`` seconds (a healthy one is a few milliseconds
behind), then the primary answers. A game the replica does not know, a
replica that cannot be reached (it is skipped for ``REST_SECONDS`` then),
and any read with no replica configured go to the primary too.

The answer's own token is the replica's horizon reached after the read: any
server whose settled horizon is past it holds everything the answer showed.

Which reads may come from a replica is the caller's one-line decision: it
calls ``Reads.routed`` with its read as a function of a ``Source`` (a
server's ``GameReads`` and read model), and ``replica=False`` when this
caller's read must not (a seat's view of its own game, read right after
its own commands). A read that finds on a replica what the primary may
already have moved past (a game not finished yet) raises ``NotYet``.
Commands, and reads that a command's correctness rests on (a deadline
claimed ``FOR UPDATE SKIP LOCKED``, say), never come here: they use the
primary's ``GameService``.
"""

from __future__ import annotations

import itertools
import logging
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Generic, TypeVar

from service.events import EventStore
from service.games import GameReads
from service.metrics import ROUTED_READS
from service.readmodel import ReadModel

T = TypeVar("T")

#: The first pause before a replica behind is looked at again; each pause doubles, up to ``LONGEST_POLL``.
FIRST_POLL = 0.002
LONGEST_POLL = 0.05
#: Seconds a replica that could not be reached is left alone.
REST_SECONDS = 5.0

_log = logging.getLogger("casino.replicas")


@dataclass(frozen=True)
class Seen:
    """What a client says it has been shown: a version of the game it reads
    (0: none said) and a position in the global order (0: none said)."""

    version: int = 0
    position: int = 0


@dataclass(frozen=True)
class Replica:
    """A standby's adapters: its events and its games read model, read only."""

    store: EventStore
    read_model: ReadModel


@dataclass(frozen=True)
class Source:
    """One server to read: its games (through a cache of their own), its
    games read model, and whether it is a replica."""

    games: GameReads
    read_model: ReadModel
    replica: bool


class NotYet(LookupError):
    """A read on a replica found something the primary may be past: let the primary answer."""


@dataclass(frozen=True)
class Read(Generic[T]):
    """What a routed read found, where, and the position its answer shows up
    to (0 when no replica is configured: a single server needs no token)."""

    value: T
    position: int
    replica: bool


class Reads:
    """Routes reads to the replicas, in turn, when they have caught up."""

    def __init__(self, primary: Source, replicas: Sequence[Source], *, wait: float,
                 unavailable: tuple[type[Exception], ...], clock: Callable[[], float] = time.monotonic,
                 sleep: Callable[[float], None] = time.sleep):
        self._primary = primary
        self._replicas = tuple(replicas)
        self._wait = wait
        self._unavailable = unavailable
        self._clock = clock
        self._sleep = sleep
        self._turns = itertools.count()
        self._resting: dict[int, float] = {}  # replica index -> when it may be tried again
        self._lock = threading.Lock()

    def routed(self, read: Callable[[Source], T], seen: Seen = Seen(),
               version: Callable[[T], int] | None = None, *, replica: bool = True) -> Read[T]:
        """``read`` on a replica that has caught up with ``seen`` (its
        settled horizon past ``seen.position`` and, given ``version``,
        ``version(found)`` at least ``seen.version``), else on the primary;
        on the primary alone when not ``replica`` (with no token of its own:
        the read costs the primary nothing more)."""
        if not replica:
            return Read(read(self._primary), seen.position, False)
        chosen = self._choose()
        if chosen is not None:
            found = self._from_replica(chosen, read, seen, version)
            if found is not None:
                ROUTED_READS.labels("replica").inc()
                return found
        ROUTED_READS.labels("primary").inc()
        value = read(self._primary)
        if not self._replicas:
            return Read(value, 0, False)
        return Read(value, max(seen.position, self._primary.games.horizon().reached - 1), False)

    def _choose(self) -> int | None:
        """The next replica in turn that is not resting; None if there is none."""
        if not self._replicas:
            return None
        now = self._clock()
        with self._lock:
            for _ in range(len(self._replicas)):
                index = next(self._turns) % len(self._replicas)
                if self._resting.get(index, 0.0) <= now:
                    return index
        return None

    def _from_replica(self, index: int, read: Callable[[Source], T], seen: Seen,
                      version: Callable[[T], int] | None) -> Read[T] | None:
        """``read`` on the replica once it has caught up, within ``wait``
        seconds; None when it did not, does not know what was asked, or
        cannot be reached."""
        replica = self._replicas[index]
        deadline = self._clock() + self._wait
        pause = FIRST_POLL
        try:
            while True:
                if seen.position == 0 or replica.games.horizon().settled > seen.position:
                    value = read(replica)
                    if version is None or version(value) >= seen.version:
                        return Read(value, replica.games.horizon().reached - 1, True)
                if self._clock() + pause > deadline:
                    return None
                self._sleep(pause)
                pause = min(2 * pause, LONGEST_POLL)
        except LookupError:
            return None  # not there yet (or at all, or NotYet): the primary says which
        except self._unavailable as error:
            _log.warning("replica %d cannot be reached; reads go elsewhere for %g s: %s",
                         index, REST_SECONDS, error)
            with self._lock:
                self._resting[index] = self._clock() + REST_SECONDS
            return None

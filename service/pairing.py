"""Pairing: players ask for a game (a variant, a seat count, a clock, rated
or not) and the service seats those who asked alike at one table, nearest
in rating first.

A player's ask is kept in PostgreSQL (``Pairings``; a row of ``pairings``,
migration 0015) until a game is made for it or the player cancels it.
Every ``casino serve`` worker runs a ``Pairer`` (a thread, a greenlet under
gevent), which claims the waiting asks of one pool at a time (the same
variant, seat count, clock and rated flag) with ``FOR UPDATE SKIP LOCKED``
and a lease, as the deadlines are claimed (``service.timeouts``), groups
them (``groups``: nearest in rating first, the range allowed widening as
they wait), and creates a game for each group with every player seated.
The append that creates the game also ends its pairings, once: it removes
their waiting rows and writes each one's result under the pairing's id, so
a pairing that ended meanwhile (cancelled, or paired by another worker
whose lease had lapsed) makes the append write nothing. So every waiting
player ends up in one game at most, whichever process pairs; a worker that
dies holding a claim leaves it to lapse; a restart finds the waiting asks
where they were. Each player is told on the player stream
(``game_started``, with the pairing).

A pairer looks again at once after a claim; else when a player asks
through its process (``Pairer.wake``), or ``IDLE_SECONDS`` on, for the
asks made through other processes that their own pairers did not pair.
"""

from __future__ import annotations

import logging
import random
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any, Protocol
from uuid import UUID

from domain import clocks

from service import jsonio
from service.commands import CreateGame, SeatedPlayer
from service.writes import Paired

#: How long a claim keeps the other workers from a pool's asks.
LEASE = timedelta(seconds=2)
#: How long a worker's pairer waits, when its last claim found no asks, before
#: it looks again, unless an ask made through this process wakes it first:
#: how soon asks made through other processes, and asks set aside (``HOLD``)
#: or leased by a process that died, are looked at again.
IDLE_SECONDS = 1.0
#: The asks one claim takes at most.
BATCH = 400
#: How long asks a claim could not pair are left to the other pools' claims before
#: their own pool is claimed again (with those who asked since).
HOLD = timedelta(seconds=0.3)
#: The rating range a group may span at once, and how much wider it grows each second its longest waiter waits.
RANGE = 100.0
WIDENING_PER_SECOND = 50.0

_log = logging.getLogger("casino.pairing")


@dataclass(frozen=True)
class Ask:
    """What a player asks to play: every player of a game made for it asked the same."""

    variant: str
    seats: int
    clock: dict[str, Any] | None
    rated: bool

    def to_dict(self) -> dict[str, Any]:
        return {"variant": self.variant, "seats": self.seats, "clock": self.clock, "rated": self.rated}

    @property
    def pool(self) -> str:
        """The asks paired together have this in common (canonical JSON)."""
        return jsonio.dumps(self.to_dict(), sort_keys=True).decode()

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Ask:
        return cls(data["variant"], data["seats"], data["clock"], data["rated"])


@dataclass(frozen=True)
class Waiting:
    """A player waiting to be paired, since ``since``, with its rating in the variant when it asked."""

    id: UUID
    player: UUID
    name: str
    ask: Ask
    rating: float
    since: datetime


@dataclass(frozen=True)
class Pairing:
    """A pairing as its player sees it: ``waiting``, ``paired`` (into
    ``game_id``, at ``seat``) or ``cancelled``."""

    id: UUID
    player: UUID
    ask: Ask
    status: str
    game_id: UUID | None = None
    seat: int | None = None


class Pairings(Protocol):
    """Where the asks wait, and how they ended (the appends that create
    games end them: ``service.events.Paired``)."""

    def ask(self, waiting: Waiting) -> bool:
        """Keep a new ask; False (nothing kept) when the player waits in a pairing already."""

    def find(self, pairing_id: UUID) -> Pairing | None:
        """The pairing, waiting or ended; None for none."""

    def cancel(self, pairing_id: UUID, at: datetime) -> Pairing | None:
        """End a waiting pairing, with no game; the pairing as it stands after (None for none)."""

    def claim(self, now: datetime, limit: int, lease: timedelta) -> list[Waiting]:
        """Up to ``limit`` waiting asks of one pool (the pool of the oldest
        one no other claimer holds), oldest first, each now leased to this
        caller until ``now + lease``: those no claimer holds, and those a
        claim set aside (``release``), so that a claim of the pool sees
        every ask of it that no other claim is working on."""

    def release(self, pairing_ids: Sequence[UUID], until: datetime) -> None:
        """Set those asks (still waiting, not paired by this claim) aside
        until ``until``: only a claim of their pool takes them before then."""


def groups(waiting: Sequence[Waiting], seats: int, now: datetime) -> list[list[Waiting]]:
    """The tables to make of one pool's ``waiting`` asks, ``seats`` players
    each: the closest group in rating first, of players next to each other
    by rating, and only a group whose ratings span no more than ``RANGE``,
    widened by ``WIDENING_PER_SECOND`` for each second its longest waiter
    has waited. Each group is in the order its players asked."""
    left = sorted(waiting, key=lambda w: (w.rating, w.since))
    made = []
    while len(left) >= seats:
        best = _closest(left, seats, now)
        if best is None:
            break
        made.append(sorted(left[best:best + seats], key=lambda w: w.since))
        del left[best:best + seats]
    return made


def _closest(ordered: Sequence[Waiting], seats: int, now: datetime) -> int | None:
    """Where the closest group of ``seats`` neighbours that may be paired
    now begins in ``ordered`` (by rating); None for none."""
    best, narrowest = None, float("inf")
    for start in range(len(ordered) - seats + 1):
        group = ordered[start:start + seats]
        spread = group[-1].rating - group[0].rating
        waited = (now - min(w.since for w in group)).total_seconds()
        if spread < narrowest and spread <= RANGE + WIDENING_PER_SECOND * max(waited, 0.0):
            best, narrowest = start, spread
            if spread == 0:
                break
    return best


def game_for(group: Sequence[Waiting]) -> CreateGame:
    """The creation of the game for ``group``: what they asked, each seated
    in the order they asked, unlisted, and the end of their pairings."""
    ask = group[0].ask
    seated = tuple(SeatedPlayer(seat, w.player, w.name) for seat, w in enumerate(group))
    return CreateGame(variant=ask.variant, seats=(None,) * len(group), options={}, clock=clocks.rule(ask.clock),
                      rated=ask.rated, seated=seated,
                      paired=tuple(Paired(w.id, w.player, ask.to_dict(), seat) for seat, w in enumerate(group)))


class Pairer:
    """Claims waiting asks and makes a game of each group (``make``, which
    raises when the append that would end the group's pairings lost to an
    end before it)."""

    def __init__(self, pairings: Pairings, make: Callable[[Sequence[Waiting]], object],
                 clock: Callable[[], datetime]):
        self._pairings = pairings
        self._make = make
        self._clock = clock
        self._stop = threading.Event()
        self._woken = threading.Event()
        self._thread: threading.Thread | None = None

    def tick(self) -> int:
        """Claim a pool's waiting asks and pair them; how many asks were
        claimed. Those not paired are set aside a moment (``HOLD``), so that
        the next claim takes another pool's, unless another ask of their own
        pool comes (a claim of a pool takes them along)."""
        now = self._clock()
        claimed = self._pairings.claim(now, BATCH, LEASE)
        if not claimed:
            return 0
        paired: set[UUID] = set()
        for group in groups(claimed, claimed[0].ask.seats, now):
            try:
                self._make(group)
            except Exception:  # noqa: BLE001 - one ended meanwhile, or the database is away: the rest go on
                _log.warning("pairing: a game for %s was not made", [str(w.id) for w in group], exc_info=True)
                continue
            paired.update(w.id for w in group)
        self._pairings.release([w.id for w in claimed if w.id not in paired], now + HOLD)
        return len(claimed)

    def start(self) -> None:
        self._thread = threading.Thread(target=self.run, name="casino-pairer", daemon=True)
        self._thread.start()

    def wake(self) -> None:
        """Look now (a player asked, through this process)."""
        self._woken.set()

    def run(self) -> None:
        """Claim and pair: again at once after a claim (another pool may
        wait), else when woken, or some ``IDLE_SECONDS`` after (the processes'
        pairers out of step, so that none claims the same pool at the same moment)."""
        while not self._stop.is_set():
            try:
                busy = self.tick() > 0
            except Exception:  # noqa: BLE001 - the database may be away for a moment; try again
                _log.exception("pairer: claiming waiting asks failed")
                busy = False
            if not busy and self._woken.wait(IDLE_SECONDS * random.uniform(0.5, 1.5)):
                self._woken.clear()

    def stop(self) -> None:
        self._stop.set()
        self._woken.set()
        if self._thread is not None:
            self._thread.join(timeout=5)

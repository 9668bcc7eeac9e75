"""The time keeper: acts on the deadlines that fall due, with nobody
calling the API.

Every ``casino serve`` worker runs one (``TimeKeeper.run`` in a thread of
its own, a greenlet under gevent), and so does every process that serves
the database: each asks for the due deadlines (``service.deadlines``),
which spreads them over the workers that ask, and claims each game's
time-out through the service like any command (``service.commands.TimeOut``:
the game's rules decide it with the time it is claimed at, and its events
are appended with the game's version check). Whichever worker or machine
gets there first appends ``TimedOut`` and its consequence; any other that
decided it on the same version loses the append and, reading the game
again, finds nothing due. That version check, not the claim, is what makes
a time-out happen once: a claim is only a lease that keeps the others from
doing the same work at the same moment, and a worker killed while it holds
one leaves it to lapse within ``LEASE``. A restarted service finds the
deadlines where it left them.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from datetime import datetime, timedelta
from uuid import UUID

from domain.errors import RuleViolation
from domain.game_types import game_of

from service.commands import TimeOut
from service.deadlines import DeadlineClaims
from service.games import GameNotFound, PreconditionFailed, VersionConflict

#: How long a claim keeps the other workers from a due game.
LEASE = timedelta(seconds=1)
#: How often a worker looks for due deadlines when it found none due.
POLL_SECONDS = 0.2
#: Time-outs a worker appends at once (each waits on the database in turn).
AT_ONCE = 4
#: Deadlines one claim takes at most: few enough to be done well within the
#: lease, however busy the worker (else another worker would claim them
#: again and do the same work, to lose the append); a full claim is followed
#: by the next at once.
BATCH = 2 * AT_ONCE

_log = logging.getLogger(__name__)


class TimeKeeper:
    """Claims due deadlines and appends their time-outs, through ``execute``
    (``Services.execute``: the command, then the computer seats' turns)."""

    def __init__(self, execute: Callable[[TimeOut], object], load: Callable[[UUID], object],
                 claims: DeadlineClaims, clock: Callable[[], datetime]):
        self._execute = execute
        self._load = load
        self._claims = claims
        self._clock = clock
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def tick(self, limit: int = BATCH) -> int:
        """Claim the deadlines due now and act on each, a few at once; how many were claimed."""
        claimed = self._claims.claim(self._clock(), limit, LEASE)
        if len(claimed) > 1:
            with ThreadPoolExecutor(AT_ONCE) as pool:
                list(pool.map(self.time_out, claimed))
        elif claimed:
            self.time_out(claimed[0])
        return len(claimed)

    def time_out(self, game_id: UUID) -> bool:
        """Claim the time-out of the game; whether this call appended it."""
        try:
            self._execute(TimeOut(game_id=game_id))
        except (PreconditionFailed, VersionConflict):
            return False  # another worker appended first
        except RuleViolation:  # not due (another worker appended first, or clocks differ a little), or over
            self._forget_if_none(game_id)
            return False
        except GameNotFound:
            return False
        return True

    def _forget_if_none(self, game_id: UUID) -> None:
        """A kept deadline that the game itself does not have (events written
        by other means than the service's appends) is dropped."""
        kept = self._claims.due_at(game_id)
        if kept is None:
            return
        state = self._load(game_id)
        if game_of(state.variant).deadline(state) != kept:  # type: ignore[attr-defined]
            self._claims.forget(game_id, kept)

    # -- in the background ----------------------------------------------------

    def start(self) -> None:
        """Keep the deadlines in a thread of this process (a greenlet under gevent)."""
        self._thread = threading.Thread(target=self.run, name="casino-time-keeper", daemon=True)
        self._thread.start()

    def run(self) -> None:
        while not self._stop.is_set():
            try:
                full = self.tick() == BATCH
            except Exception:  # noqa: BLE001 - the database may be away for a moment; try again
                _log.exception("time keeper: claiming due deadlines failed")
                full = False
            if not full:
                self._stop.wait(POLL_SECONDS)

    def stop(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=5)

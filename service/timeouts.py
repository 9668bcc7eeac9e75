"""The time keeper: acts on the deadlines that fall due, with nobody
calling the API.

Every ``casino serve`` worker runs one (``TimeKeeper.run`` in a thread of
its own, a greenlet under gevent), and so does every process that serves
the database: each asks for the due deadlines (``service.deadlines``),
which spreads them over the workers that ask, and claims each game's
time-out through the service like any command (``service.commands.TimeOut``:
the game's rules decide it with the time it is claimed at, and its events
are appended with the game's version check). A claim's time-outs are
decided one after another and appended in one transaction, each with its
own version check (``EventStore.append_each``): one commit, and one round
trip, for the lot; one that loses its check is written by itself after,
without the others. Whichever worker or machine
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
from collections.abc import Callable, Mapping, Sequence
from datetime import datetime, timedelta
from uuid import UUID

from domain.errors import RuleViolation
from domain.game_types import game_of

from service.commands import TimeOut
from service.deadlines import DeadlineClaims
from service.games import CorruptGame, GameNotFound, PreconditionFailed, VersionConflict

#: How long a claim keeps the other workers from a due game.
LEASE = timedelta(seconds=1)
#: How often a worker looks for due deadlines when it found none due.
POLL_SECONDS = 0.2
#: Deadlines one claim takes at most. Their time-outs are decided one after
#: another and appended in one transaction (a few milliseconds of the
#: worker's time each on the 2-core machine, under load): few enough to be done well
#: within the lease however busy the worker (else another worker would claim
#: them again and do the same work, to lose the append), many enough that
#: one commit and one round trip serve many. A full claim is followed by the
#: next at once.
BATCH = 32
#: Claims a worker works on at once: while one waits for the database, the
#: other decides its time-outs.
AT_ONCE = 2

_log = logging.getLogger(__name__)


class TimeKeeper:
    """Claims due deadlines and appends their time-outs: together, through
    ``execute_together`` (``GameService.execute_together``, then the
    computer seats' turns), and any that could not be appended so, each by
    itself through ``execute`` (``Services.execute``: the command, then the
    computer seats' turns)."""

    def __init__(self, execute: Callable[[TimeOut], object],
                 execute_together: Callable[[Sequence[TimeOut]], Mapping[UUID, object]],
                 load: Callable[[UUID], object], claims: DeadlineClaims, clock: Callable[[], datetime]):
        self._execute = execute
        self._execute_together = execute_together
        self._load = load
        self._claims = claims
        self._clock = clock
        self._stop = threading.Event()
        self._threads: list[threading.Thread] = []

    def tick(self, limit: int = BATCH) -> int:
        """Claim the deadlines due now and act on them; how many were claimed."""
        claimed = self._claims.claim(self._clock(), limit, LEASE)
        if not claimed:
            return 0
        done = self._execute_together([TimeOut(game_id=game_id) for game_id in claimed])
        for game_id in claimed:
            if game_id not in done:  # refused as the game was cached, or the append lost: read it again
                self.time_out(game_id)
        return len(claimed)

    def time_out(self, game_id: UUID) -> bool:
        """Claim the time-out of the game; whether this call appended it. A
        damaged game (``CorruptGame``) is logged and left, not raised: it
        must not keep the time-outs of the rest of its claim from coming."""
        try:
            self._execute(TimeOut(game_id=game_id))
        except (PreconditionFailed, VersionConflict):
            return False  # another worker appended first
        except RuleViolation:  # not due (another worker appended first, or clocks differ a little), or over
            self._forget_if_none(game_id)
            return False
        except GameNotFound:
            return False
        except CorruptGame as damaged:
            # Nothing can be decided on a game the service cannot read
            # (docs/audit.md): its deadline stays, claimed again each lease
            # and told each time, while the claim's other games go on.
            _log.error("time keeper: %s Its time-out waits for the operator (casino verify).", damaged)
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
        """Keep the deadlines in ``AT_ONCE`` threads of this process
        (greenlets under gevent), which look for due ones in turn: each
        every ``AT_ONCE * POLL_SECONDS`` while none are due, so that the
        worker looks as often as one would."""
        self._threads = [threading.Thread(target=self.run, args=(n * POLL_SECONDS, AT_ONCE * POLL_SECONDS),
                                          name=f"casino-time-keeper-{n}", daemon=True) for n in range(AT_ONCE)]
        for thread in self._threads:
            thread.start()

    def run(self, delay: float = 0.0, poll: float = POLL_SECONDS) -> None:
        """Claim due deadlines after ``delay`` seconds, and again at once after a
        full claim, or ``poll`` seconds after any other."""
        self._stop.wait(delay)
        while not self._stop.is_set():
            try:
                full = self.tick() == BATCH
            except Exception:  # noqa: BLE001 - the database may be away for a moment; try again
                _log.exception("time keeper: claiming due deadlines failed")
                full = False
            if not full:
                self._stop.wait(poll)

    def stop(self) -> None:
        self._stop.set()
        for thread in self._threads:
            thread.join(timeout=5)

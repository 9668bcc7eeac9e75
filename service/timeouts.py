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

The computer seats act the same way (``service.turns``): an append that
leaves a game awaiting a computer writes so, and the time keeper claims
such games as it claims deadlines and lets the computer make its command
(``ComputerPlayers.act``), appended with the version it looked at as its
``If-Match``. The game service's message bus wakes this process's time
keeper when one of its own appends awaits a computer (``wake``), so the
computer answers at once rather than at the next look; a game of
computers alone plays on, one claim after another, with nobody calling.

A keeper looks when something may be due, not several times a second:
each look asks when the earliest deadline nobody holds falls
(``DeadlineClaims.next_due``) and plans the next look for then (``Looks``).
The message bus brings a look forward when this process writes a deadline
that falls sooner (``expect``) or awaits a computer (``wake``). A look comes
at least every ``IDLE_SECONDS`` besides, for what another process wrote and
did not live to act on: its deadlines and computers' turns, and the leases
it held. On a Citus cluster a look is a statement on every node, so what
an idle service costs the cluster is counted in looks (docs/scaling.md).

A finished game's row is the look its rematch's last answer asked for
(``service.games.REMATCH_LOOK``): its time-out is refused, and the keeper,
dropping the row, makes the rematch's new game first if its process died
before it did (``service.rematches.make_if_missing``).
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from datetime import datetime, timedelta
from uuid import UUID

from domain.errors import RuleViolation
from domain.game_types import game_of

from service import rematches
from service.commands import TimeOut
from service.computer import ComputerPlayers
from service.deadlines import DeadlineClaims
from service.games import CorruptGame, GameNotFound, GameService, PreconditionFailed, VersionConflict
from service.turns import TurnClaims

#: How long a claim keeps the other workers from a due game.
LEASE = timedelta(seconds=1)
#: The longest a keeper goes without a look: what a deadline written by
#: another process (which died before it fell due) or a lease that lapsed
#: waits at most to be seen.
IDLE_SECONDS = 1.0
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
    """Claims due deadlines and appends their time-outs through ``games``:
    together (``GameService.execute_together``), and any that could not be
    appended so, each by itself (``GameService.execute``); and claims the
    games that await a computer (``turns``) and lets ``computers`` act."""

    def __init__(self, games: GameService, computers: ComputerPlayers, deadlines: DeadlineClaims,
                 turns: TurnClaims, clock: Callable[[], datetime]):
        self._games = games
        self._computers = computers
        self._claims = deadlines
        self._turns = turns
        self._clock = clock
        self._looks = Looks()
        self._deadlines = True
        self._start_when_woken = False
        self._starting = threading.Lock()
        self._threads: list[threading.Thread] = []

    def tick(self, limit: int = BATCH) -> int:
        """Claim the deadlines due now and act on them; how many were claimed."""
        claimed = self._claims.claim(self._clock(), limit, LEASE)
        if not claimed:
            return 0
        done = self._games.execute_together([TimeOut(game_id=game_id) for game_id in claimed])
        for game_id in claimed:
            if game_id not in done:  # refused as the game was cached, or the append lost: read it again
                self.time_out(game_id)
        return len(claimed)

    def time_out(self, game_id: UUID) -> bool:
        """Claim the time-out of the game; whether this call appended it. A
        damaged game (``CorruptGame``) is logged and left, not raised: it
        must not keep the time-outs of the rest of its claim from coming."""
        try:
            self._games.execute(TimeOut(game_id=game_id))
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

    def play(self, limit: int = BATCH) -> int:
        """Claim the games that await a computer and let it act in each; how
        many computers' commands were appended. Each append says again
        whether a computer is awaited, so the next claim finds the game
        again while it is; a kept row the game does not bear out is dropped."""
        played = 0
        for game_id in self._turns.claim(self._clock(), limit, LEASE):
            try:
                acted = self._computers.act(game_id)
            except GameNotFound:
                acted = None
            except CorruptGame as damaged:
                _log.error("time keeper: %s Its computer waits for the operator (casino verify).", damaged)
                continue
            if acted is None:
                kept = self._turns.due_at(game_id)
                if kept is not None:
                    self._turns.forget(game_id, kept)
            played += bool(acted)
        return played

    def wake(self) -> None:
        """Have the keeper look for work now rather than at its next look (a
        computer is awaited in a game this process just appended to); a
        keeper told to ``start_when_woken`` starts now, the first time."""
        with self._starting:
            if self._start_when_woken and not self._threads and not self._looks.stopped:
                self.start(deadlines=False)
        self._looks.plan(0.0)

    def expect(self, at: datetime) -> None:
        """Have the keeper look at ``at`` at the latest (this process just
        wrote a deadline that falls then)."""
        self._looks.plan((at - self._clock()).total_seconds())

    def start_when_woken(self) -> None:
        """Play the computers only, from the first ``wake`` on: a process
        that keeps no deadlines (a test's app, a tool) runs no thread until
        one of its own appends awaits a computer."""
        self._start_when_woken = True

    def _forget_if_none(self, game_id: UUID) -> None:
        """A kept deadline that the game itself does not have is dropped: one
        written by other means than the service's appends, or the look the
        answer that completed a finished game's rematch asked for, once its
        new game is made (``service.rematches.make_if_missing``)."""
        kept = self._claims.due_at(game_id)
        if kept is None:
            return
        state = self._games.load(game_id)
        rematches.make_if_missing(self._games, game_id, state)
        if game_of(state.variant).deadline(state) != kept:
            self._claims.forget(game_id, kept)

    # -- in the background ----------------------------------------------------

    def start(self, deadlines: bool = True) -> None:
        """Keep the deadlines (unless ``deadlines`` is false: the computers
        only) in ``AT_ONCE`` threads of this process (greenlets under
        gevent), which take the looks in turn (``Looks``)."""
        self._deadlines = deadlines
        self._threads = [threading.Thread(target=self.run, name=f"casino-time-keeper-{n}", daemon=True)
                         for n in range(AT_ONCE)]
        for thread in self._threads:
            thread.start()

    def run(self) -> None:
        """Take the looks as they come due (``Looks.wait``): each claims
        what is due, and plans the next, at once after a claim or a
        computer's command (another thread may take it while this one
        works), else when the earliest deadline no one holds falls."""
        while self._looks.wait():
            try:
                busy, upcoming = self.look()
            except Exception:  # noqa: BLE001 - the database may be away for a moment; try again
                if self._looks.stopped:
                    return  # stopped mid-claim: the process is closing its pool, nothing failed
                _log.exception("time keeper: claiming due deadlines or computer turns failed")
                continue
            if busy:
                self._looks.plan(0.0)
            elif upcoming is not None:
                self._looks.plan((upcoming - self._clock()).total_seconds())

    def look(self) -> tuple[bool, datetime | None]:
        """One look: claim the deadlines due now, and the games that await
        a computer, if there are any (a read of each first: a claim is a
        write). Whether to look again at once (something was claimed or
        played), and when the earliest deadline no one holds falls (None
        for none, or when the deadlines are not kept)."""
        now = self._clock()
        upcoming = self._claims.next_due(now) if self._deadlines else None
        due = upcoming is not None and upcoming <= now
        busy = due and self.tick() > 0
        busy = (self._turns.next_due(now) is not None and self.play() > 0) or busy
        # One found due but not claimed is another claimer's, whose lease is not yet written.
        return busy, None if busy or due else upcoming

    def stop(self) -> None:
        self._looks.stop()
        for thread in self._threads:
            thread.join(timeout=5)


class Looks:
    """When a keeper's threads look next: at a moment planned (a monotonic
    time), never later than ``IDLE_SECONDS`` after the last look began.
    One thread takes each look; a plan made meanwhile (a deadline written,
    a computer awaited, a full claim) brings the next one forward, for
    another thread if this one is still at work."""

    def __init__(self) -> None:
        self._idle = IDLE_SECONDS
        self._changed = threading.Condition()
        self._at = time.monotonic()  # the first look at once
        self.stopped = False

    def wait(self) -> bool:
        """Wait for the next look and take it (True), or for ``stop`` (False)."""
        with self._changed:
            while not self.stopped:
                now = time.monotonic()
                if self._at <= now:
                    self._at = now + self._idle
                    return True
                self._changed.wait(self._at - now)
            return False

    def plan(self, seconds: float) -> None:
        """Look within ``seconds`` (now, if not positive), unless a look is planned sooner."""
        with self._changed:
            at = time.monotonic() + max(seconds, 0.0)
            if at < self._at:
                self._at = at
                self._changed.notify()

    def stop(self) -> None:
        with self._changed:
            self.stopped = True
            self._changed.notify_all()

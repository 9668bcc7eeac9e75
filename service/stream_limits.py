"""How many live streams one caller may hold open in a worker, and the
worker in all (``Admission``).

Every open stream costs its worker a connection and a buffer, and a worker
serves at most ``STREAM_MAX_OPEN``: without a share each, one client could
take them all. So each caller is counted by what names it, a ``Holder``:

- a seat by its game and seat number (what its token stands for);
- a player by the player (a player token stands for the player in every
  game, and for the player's own stream), whichever game it streams;
- the operator as one holder;
- a caller without a token by its client address (``service.web.clients``:
  the connection's peer, or ``X-Forwarded-For`` from a trusted proxy).

Each kind of holder has its limit (``LIMIT_SETTINGS``). A token that names
another kind of caller is one more kind: a branch of ``holder_of`` and a
setting. Counts are per worker, like ``STREAM_MAX_OPEN``:
a caller may hold its limit in each worker of a server.

A stream whose client has gone holds its share only until it matters: a
stream waiting for events learns that its client went only when it next
writes (a keep-alive, up to ``STREAM_KEEPALIVE_SECONDS`` later), so each
stream comes with a way to ask whether its client is still connected, and
a holder at its limit has the streams whose clients went let go first. A
client that reconnects after a network change is not refused meanwhile.
The asking is done at most once a second for a holder (``SWEEP_SECONDS``),
so a flood of streams past a share costs a refusal each, not a look at
every stream the flooder holds.
"""

from __future__ import annotations

import itertools
import threading
import time
from collections.abc import Callable, Mapping
from typing import Any, NamedTuple
from uuid import UUID

from service import metrics
from service.auth import Caller

#: The setting that bounds each kind of holder's streams in a worker.
LIMIT_SETTINGS = {"seat": "STREAM_LIMIT_SEAT", "player": "STREAM_LIMIT_PLAYER",
                  "operator": "STREAM_LIMIT_OPERATOR", "address": "STREAM_LIMIT_ADDRESS"}


class Holder(NamedTuple):
    kind: str  # a key of LIMIT_SETTINGS
    key: str


def holder_of(caller: Caller, game_id: UUID | None, address: str) -> Holder:
    """Whose share a stream of ``game_id`` (None: a player's own) opened by
    ``caller`` from ``address`` counts against."""
    if caller.player is not None:
        return Holder("player", caller.player.hex)
    if caller.is_seat:
        return Holder("seat", f"{game_id}/{caller.seat}")
    if caller.is_operator:
        return Holder("operator", "")
    return Holder("address", address)


#: Whether a stream's client is still connected; asked without waiting.
Connected = Callable[[], bool]
#: The least time between two looks at a holder's streams for clients that went.
SWEEP_SECONDS = 1.0


class Quota:
    """The streams each holder has open in this worker, each up to its kind's
    limit, each held under a ticket with the way to ask whether its client
    is still connected."""

    def __init__(self, config: Mapping[str, Any], clock: Callable[[], float] = time.monotonic):
        self._limits = {kind: int(config[setting]) for kind, setting in LIMIT_SETTINGS.items()}
        self._lock = threading.Lock()
        self._held: dict[Holder, dict[int, Connected]] = {}
        self._swept: dict[Holder, float] = {}  # when each holder's streams were last looked at
        self._tickets = itertools.count()
        self._clock = clock

    def limit(self, holder: Holder) -> int:
        return self._limits[holder.kind]

    def take(self, holder: Holder, connected: Connected) -> int | None:
        """A ticket for one more stream of ``holder``, None if it holds its
        limit already. At the limit, its streams whose clients have gone are
        let go first (their ``give_back`` then does nothing), unless they
        were looked at less than ``SWEEP_SECONDS`` ago."""
        limit = self._limits[holder.kind]
        with self._lock:
            held = self._held.setdefault(holder, {})
            now = self._clock()
            if len(held) >= limit and now - self._swept.get(holder, now - SWEEP_SECONDS) >= SWEEP_SECONDS:
                self._swept[holder] = now
                for gone in [ticket for ticket, still in held.items() if not still()]:
                    del held[gone]
            if len(held) >= limit:
                return None
            ticket = next(self._tickets)
            held[ticket] = connected
        return ticket

    def give_back(self, holder: Holder, ticket: int) -> None:
        """The stream under ``ticket`` has ended (or was never opened, or was let go)."""
        with self._lock:
            held = self._held.get(holder)
            if held is not None:
                held.pop(ticket, None)
                if not held:
                    del self._held[holder]
                    self._swept.pop(holder, None)


class Admission:
    """How many live streams the worker holds open in all, each counted from
    the moment it is admitted until it ends (``STREAM_MAX_OPEN`` bounds them)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self.open = 0

    def admit(self, limit: int) -> bool:
        """Count one more open stream, unless ``limit`` are open already."""
        with self._lock:
            if self.open >= limit:
                return False
            self.open += 1
        metrics.STREAMS_OPEN.inc()
        return True

    def release(self) -> None:
        """A stream admitted has ended."""
        with self._lock:
            self.open -= 1
        metrics.STREAMS_OPEN.dec()

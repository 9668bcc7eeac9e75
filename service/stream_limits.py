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
"""

from __future__ import annotations

import threading
from collections.abc import Mapping
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


class Quota:
    """The streams each holder has open in this worker, each up to its kind's limit."""

    def __init__(self, config: Mapping[str, Any]):
        self._limits = {kind: int(config[setting]) for kind, setting in LIMIT_SETTINGS.items()}
        self._lock = threading.Lock()
        self._held: dict[Holder, int] = {}

    def limit(self, holder: Holder) -> int:
        return self._limits[holder.kind]

    def take(self, holder: Holder) -> bool:
        """Count one more stream for ``holder``, unless it holds its limit already."""
        with self._lock:
            held = self._held.get(holder, 0)
            if held >= self._limits[holder.kind]:
                return False
            self._held[holder] = held + 1
        return True

    def give_back(self, holder: Holder) -> None:
        """One of ``holder``'s streams has ended (or was never opened)."""
        with self._lock:
            held = self._held[holder] - 1
            if held:
                self._held[holder] = held
            else:
                del self._held[holder]


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

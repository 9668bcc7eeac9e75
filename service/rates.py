"""How often one client address may do what costs others: register a
player, or take or call off a game's seat as a guest.

A player is made by anyone, and a guest needs no identity at all, so
without a bound one client could register players by the hundred (each
with its own share of the streams) or take every open seat of the lobby
and call each game off. Each such action has an allowance: at most
``limit`` in any ``window`` seconds from one client address
(``service.web.clients``), counted in the worker that serves it, like the
streams' shares. The clock is given, so the counting is tested without
waiting.
"""

from __future__ import annotations

import threading
import time
from collections import OrderedDict, deque
from collections.abc import Callable


class Allowance:
    """At most ``limit`` actions in any ``window`` seconds for each key (a
    client address); the keys least recently used are forgotten past
    ``keys``, so a flood of addresses costs a bounded memory."""

    def __init__(self, limit: int, window: float, *, keys: int = 100_000,
                 clock: Callable[[], float] = time.monotonic):
        self.limit = limit
        self.window = window
        self._keys = keys
        self._clock = clock
        self._lock = threading.Lock()
        self._times: OrderedDict[str, deque[float]] = OrderedDict()

    def take(self, key: str) -> float:
        """Count one action for ``key`` if its allowance has room, and answer
        0; else count nothing and answer the seconds until it has room."""
        now = self._clock()
        with self._lock:
            times = self._times.pop(key, None) or deque()
            while times and times[0] <= now - self.window:
                times.popleft()
            self._times[key] = times
            if len(self._times) > self._keys:
                self._times.popitem(last=False)
            if len(times) >= self.limit:
                return times[0] + self.window - now
            times.append(now)
            return 0.0

"""Folded game states kept in memory, so that a command does not fold a
game again.

Only ever a cache: a state is keyed by game and carries its version, and a
load reads just the events after that version (none, usually: one round
trip that returns nothing); a command does not even do that, and reads
only if the rules or the append find the cache was behind (see ``GameService.execute``).
Snapshots in the database play the same part across processes and
restarts (``service.snapshots``).
"""

from __future__ import annotations

import threading

from cachetools import LRUCache


class StateCache:
    """A bounded least-recently-used map of game id to a folded state (or
    anything else with a ``version``: the service keeps the chain's head with
    it). A ``cachetools.LRUCache`` does the bookkeeping; this adds the lock
    it does not take and keeps a newer state from being replaced by an older."""

    def __init__(self, size: int = 2048):
        self._states: LRUCache = LRUCache(maxsize=size)
        self._lock = threading.Lock()

    def get(self, game_id):
        with self._lock:
            return self._states.get(game_id)

    def drop(self, game_id) -> None:
        with self._lock:
            self._states.pop(game_id, None)

    def clear(self) -> None:
        """Forget every state (the database may no longer hold them: see
        ``service.postgres.database.Pool.on_new_server``)."""
        with self._lock:
            self._states.clear()

    def put(self, game_id, state) -> None:
        with self._lock:
            current = self._states.get(game_id)
            if current is not None and current.version > state.version:
                return  # a newer state got here first
            self._states[game_id] = state

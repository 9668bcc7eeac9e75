"""Folded game states kept in memory, so a command does not re-read a game.

Only ever a cache: a state is keyed by game and carries its version, and a
load reads just the events after that version (none, usually: one round
trip that returns nothing); a command does not even do that, and reads
only if the rules or the append find the cache was behind (see ``GameService.execute``).
Snapshots in the database play the same part across processes and
restarts, tagged with ``code_version()`` so that a change to the rules code
ignores them and refolds from the events, and signed so that only the
service's own are read (``service.snapshots``).
"""

from __future__ import annotations

import hashlib
import threading
from collections import OrderedDict
from functools import cache
from pathlib import Path

import domain


@cache
def code_version() -> str:
    """A digest of the domain's source: snapshots written by other code are ignored."""
    digest = hashlib.sha256()
    root = Path(domain.__file__).parent
    for path in sorted(root.rglob("*.py")):
        digest.update(path.relative_to(root).as_posix().encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


class StateCache:
    """A bounded least-recently-used map of game id to a folded state (or
    anything else with a ``version``: the service keeps the chain's head with it)."""

    def __init__(self, size: int = 2048):
        self._size = size
        self._states: OrderedDict = OrderedDict()
        self._lock = threading.Lock()

    def get(self, game_id):
        with self._lock:
            state = self._states.get(game_id)
            if state is not None:
                self._states.move_to_end(game_id)
            return state

    def put(self, game_id, state) -> None:
        with self._lock:
            current = self._states.get(game_id)
            if current is not None and current.version > state.version:
                return  # a newer state got here first
            self._states[game_id] = state
            self._states.move_to_end(game_id)
            while len(self._states) > self._size:
                self._states.popitem(last=False)

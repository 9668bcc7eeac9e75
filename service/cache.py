"""Folded game states kept in memory, and snapshots of them in the database,
so that a command does not fold a game again.

Only ever a cache: a state is keyed by game and carries its version, and a
load reads just the events after that version (none, usually: one round
trip that returns nothing); a command does not even do that, and reads
only if the rules or the append find the cache was behind (see ``GameService.execute``).
Snapshots in the database play the same part across processes and
restarts, tagged with ``code_version()`` so that a change to the rules code
ignores them and refolds from the events, and signed so that only the
service's own are read (``seal`` and ``unseal``).

Snapshots are pickles, and unpickling runs whatever the bytes ask for, so
the service unpickles only what it signed itself: a snapshot is stored
behind an HMAC-SHA256 over the game id, the version and the code version it
is for, and the pickle. A snapshot whose MAC does not check is ignored and
the game is folded from its events, as when there is none. Whoever can
write the ``snapshots`` table without the operator token can make the
service refold a game (or use one of its own older snapshots, which is as
good as any cache), but cannot run code in it or pass one game's state off
as another's. The key is derived from the operator token: replacing the
token leaves the old snapshots unread, which costs one refold per game.
"""

from __future__ import annotations

import hashlib
import hmac
import pickle
import threading
from collections import OrderedDict
from functools import cache
from pathlib import Path
from uuid import UUID

import domain
from domain.game_types import State

from service.auth import derived_key
from service.writes import Snapshot


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
            self._states.move_to_end(game_id)
            while len(self._states) > self._size:
                self._states.popitem(last=False)


# -- snapshots ----------------------------------------------------------------

MAC_BYTES = hashlib.sha256().digest_size


def snapshot_key_from(operator_token: str) -> bytes:
    """The key snapshots are signed with."""
    return derived_key(operator_token, b"casino snapshots v1")


def seal(key: bytes, game_id: UUID, state: State, code_version: str) -> Snapshot:
    """The snapshot of ``state``, the game's state at ``state.version``."""
    body = pickle.dumps(state, protocol=pickle.HIGHEST_PROTOCOL)
    return Snapshot(state.version, code_version, _mac(key, game_id, state.version, code_version, body) + body)


def unseal(key: bytes, game_id: UUID, snapshot: Snapshot) -> State | None:
    """The state in ``snapshot`` if this service signed it for this game and
    version; None otherwise, and nothing of it unpickled."""
    mac, body = snapshot.state[:MAC_BYTES], snapshot.state[MAC_BYTES:]
    expected = _mac(key, game_id, snapshot.version, snapshot.code_version, body)
    if not hmac.compare_digest(mac, expected):
        return None
    return pickle.loads(body)  # noqa: S301 - signed by this service: see above


def _mac(key: bytes, game_id: UUID, version: int, code_version: str, body: bytes) -> bytes:
    signed = hmac.new(key, digestmod=hashlib.sha256)
    for part in (game_id.bytes, version.to_bytes(8, "big"), code_version.encode(), body):
        signed.update(len(part).to_bytes(8, "big"))
        signed.update(part)
    return signed.digest()

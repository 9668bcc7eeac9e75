"""Snapshots: a game's folded state, pickled and signed.

Unpickling runs whatever the bytes ask for, so the service unpickles only
what it signed itself: a snapshot is stored behind an HMAC-SHA256 over the
game id, the version and the code version it is for, and the pickle. A
snapshot whose MAC does not check is ignored and the game is folded from its
events, as when there is no snapshot. Whoever can write the ``snapshots``
table without holding the operator token can make the service refold a game
(or use one of its own older snapshots, which is as good as any cache), but
cannot run code in it or pass one game's state off as another's.

The key is derived from the operator token, the secret every worker already
shares (as ``service.tickets`` does, with a purpose of its own): replacing
the token leaves the old snapshots unread, which costs one refold per game.
"""

from __future__ import annotations

import hashlib
import hmac
import pickle
from uuid import UUID

from domain import GameState

from service.store import Snapshot

MAC_BYTES = hashlib.sha256().digest_size


def key_from(operator_token: str) -> bytes:
    """The signing key: one-way from the operator token, and used for nothing else."""
    return hmac.new(operator_token.encode(), b"casino snapshots v1", hashlib.sha256).digest()


def seal(key: bytes, game_id: UUID, state: GameState, code_version: str) -> Snapshot:
    """The snapshot of ``state``, the game's state at ``state.version``."""
    body = pickle.dumps(state, protocol=pickle.HIGHEST_PROTOCOL)
    return Snapshot(state.version, code_version, _mac(key, game_id, state.version, code_version, body) + body)


def unseal(key: bytes, game_id: UUID, snapshot: Snapshot) -> GameState | None:
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

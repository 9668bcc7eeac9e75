"""Snapshots: a game's folded state kept in the database every
``SNAPSHOT_EVERY`` versions (``service.games``), so that a process that has
not cached the game folds only the events after it.

Only ever a cache. A snapshot is the state written by its own codec
(``service.state_codec``: JSON of the state's fields, by their declared
types, behind the game type's name) and tagged with ``code_version()``: the
format's number and a digest of every game's state shape. A release whose
states have the same shape reads the snapshots of the one before; one that
changes a field, or bumps ``FORMAT`` (do so when the fold gives a field a
new meaning but the same type), finds none of its own and folds each game
from its events, once. Reading a snapshot builds only the state's own types,
whatever the bytes say.

Snapshots are signed: an HMAC-SHA256 under a key derived from the operator
token, over the game id, the version and the code version it is for, and
the state's bytes. Commands are decided on the state a snapshot gives, so
whoever can write the ``snapshots`` table without the token must not be able
to change a game through it (as the hash chain and signed checkpoints keep
them from changing its events): a snapshot whose MAC does not check is
ignored and the game is folded from its events, as when there is none.
They can still make the service refold a game, or put back one of its own
older snapshots, which is as good as any cache. Replacing the token leaves
the old snapshots unread, which costs one refold per game.
"""

from __future__ import annotations

import hashlib
import hmac
from functools import cache
from uuid import UUID

from domain.game_types import GAME_TYPES, State, game_of

from service import jsonio, state_codec
from service.auth import derived_key
from service.writes import Snapshot

#: The snapshots' format; a new one ignores every snapshot of the old.
FORMAT = 2  # 1 was a pickle, invalidated by any change to domain/
MAC_BYTES = hashlib.sha256().digest_size


@cache
def code_version() -> str:
    """What a snapshot must be tagged with to be read: the format and every game's state shape."""
    return f"{FORMAT}.{state_codec.fingerprint(*(game.STATE for game in GAME_TYPES.values()))}"


def snapshot_key_from(operator_token: str) -> bytes:
    """The key snapshots are signed with."""
    return derived_key(operator_token, b"casino snapshots v1")


def seal(key: bytes, game_id: UUID, state: State, code_version: str) -> Snapshot:
    """The snapshot of ``state``, the game's state at ``state.version``."""
    body = jsonio.dumps([game_of(state.variant).GAME_TYPE, state_codec.encode(state)])
    return Snapshot(state.version, code_version, _mac(key, game_id, state.version, code_version, body) + body)


def unseal(key: bytes, game_id: UUID, snapshot: Snapshot) -> State | None:
    """The state in ``snapshot`` if this service signed it for this game and
    version and this code reads it; None otherwise."""
    mac, body = snapshot.state[:MAC_BYTES], snapshot.state[MAC_BYTES:]
    expected = _mac(key, game_id, snapshot.version, snapshot.code_version, body)
    if not hmac.compare_digest(mac, expected):
        return None
    try:
        game_type, values = jsonio.loads(body)
        state: State = state_codec.decode(GAME_TYPES[game_type].STATE, values)
    except (ValueError, TypeError, LookupError):
        return None  # another format's, signed with the same key: fold from the events
    return state if state.version == snapshot.version else None


def _mac(key: bytes, game_id: UUID, version: int, code_version: str, body: bytes) -> bytes:
    signed = hmac.new(key, digestmod=hashlib.sha256)
    for part in (game_id.bytes, version.to_bytes(8, "big"), code_version.encode(), body):
        signed.update(len(part).to_bytes(8, "big"))
        signed.update(part)
    return signed.digest()

"""Signed checkpoints: each game's head, vouched for with a key the
database does not hold.

With every append the store writes the game's checkpoint (``checkpoints``
table, migration 0006): its last version, that event's hash, and an
HMAC-SHA256 of the two under the checkpoint key. The key is
``CASINO_CHECKPOINT_KEY`` when set, else derived one way from the operator
token; neither is stored in the database. Someone who can write the
database but does not know the key can delete a game's last events or
rewrite its chain, but cannot sign the head that is left, so ``verify``
names the truncation or the rewrite. (They can put back an older genuine
checkpoint of the same game; heads exported with ``casino heads`` and kept
elsewhere catch that. See docs/audit.md.)
"""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol
from uuid import UUID


@dataclass(frozen=True)
class Checkpoint:
    version: int
    head: str
    signature: str


def key_from(operator_token: str) -> bytes:
    """A checkpoint key made one way from the operator token, used for nothing else."""
    return hmac.new(operator_token.encode(), b"casino checkpoints v1", hashlib.sha256).digest()


def key_for(config: Mapping[str, Any]) -> bytes | None:
    """The key of a configuration: ``CHECKPOINT_KEY``, else one from
    ``OPERATOR_TOKEN``; None without either."""
    if config.get("CHECKPOINT_KEY"):
        return str(config["CHECKPOINT_KEY"]).encode()
    token = config.get("OPERATOR_TOKEN")
    return key_from(token) if token else None


def sign(key: bytes, game_id: UUID | str, version: int, head: str) -> Checkpoint:
    message = f"casino checkpoint 1\n{UUID(str(game_id))}\n{version}\n{head}".encode()
    return Checkpoint(version, head, hmac.new(key, message, hashlib.sha256).hexdigest())


def is_genuine(key: bytes, game_id: UUID | str, checkpoint: Checkpoint) -> bool:
    expected = sign(key, game_id, checkpoint.version, checkpoint.head).signature
    return hmac.compare_digest(expected, checkpoint.signature)


class Stored(Protocol):
    """What the check reads of a stored event."""

    @property
    def version(self) -> int: ...

    @property
    def hash(self) -> str: ...

    @property
    def chain(self) -> int: ...


@dataclass(frozen=True)
class Mismatch:
    """What is wrong with a game's checkpoint; ``first_bad_version`` when it names one."""

    detail: str
    first_bad_version: int | None = None


def mismatch(key: bytes | None, game_id: UUID | str, checkpoint: Checkpoint | None,
             events: Sequence[Stored]) -> Mismatch | None:
    """Whether a game's stored ``events`` (all of them, or the last ones) end
    where its signed checkpoint says: None when they do, else what is wrong.
    Without ``key`` the signature goes unchecked. A game last played before
    checkpoints began (only chain 1 events) has none, and that is no fault."""
    last = events[-1].version if events else 0
    if checkpoint is None:
        if any(e.chain >= 2 for e in events):
            return Mismatch("The game has no checkpoint, though every append since checkpoints began writes"
                            " one: it was deleted.")
        return None
    if key is not None and not is_genuine(key, game_id, checkpoint):
        return Mismatch("The checkpoint's signature is wrong: it was not written by the service with this key"
                        " (forged, or the key changed).")
    if checkpoint.version > last:
        return Mismatch(f"Truncated: the checkpoint vouches for version {checkpoint.version}, but the game ends"
                        f" at version {last}; its last {checkpoint.version - last} event(s) were deleted.",
                        last + 1)
    if checkpoint.version < last:
        return Mismatch(f"Versions {checkpoint.version + 1} to {last} are not covered by the checkpoint:"
                        " appended without the service, or an older checkpoint was put back.",
                        checkpoint.version + 1)
    if events[-1].hash != checkpoint.head:
        return Mismatch(f"Version {last} does not have the hash the checkpoint vouches for: the chain was"
                        " rewritten.", last)
    return None

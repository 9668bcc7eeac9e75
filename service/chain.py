"""Tamper evidence: each event's hash covers the event and the hash before it.

Two forms are in use, named by the event's ``chain`` column; each is fixed
for good, since changing one would invalidate every hash stored under it.

Chain 1 (events stored before migration 0006) is the SHA-256 (lowercase
hex) of the canonical JSON of::

    {"data": ..., "game_id": "<uuid>", "previous": "<hex>", "schema_version": n,
     "type": "...", "version": n}

Chain 2 (every event since) adds what chain 1 left out, so that every
stored column but ``position`` is covered::

    {"chain": 2, "data": ..., "game_id": "<uuid>", "metadata": {...},
     "previous": "<hex>", "recorded_at": <microseconds since 1970-01-01 UTC>,
     "schema_version": n, "type": "...", "version": n}

``position`` is assigned by the database as the row is inserted (from the
transaction's id), after the hash is made, so no hash can cover its value;
``service.ops.verify`` checks its order instead: a game's positions rise with
its versions.

Canonical JSON here is ``json.dumps(sort_keys=True, separators=(",", ":"),
ensure_ascii=True)``: keys sorted, no whitespace, every non-ASCII character
escaped, so the bytes do not depend on how the data was stored. (Event data
and metadata hold only strings, integers, booleans, nulls, lists and
objects, and read back from ``jsonb`` as the same values.) A game's first
event chains to ``ZERO_HASH``.

Editing, deleting or reordering an event breaks the chain at that version,
and so does lowering an event's chain number: chains never go down along a
game. Deleting a game's last events, or rewriting an event *and* every hash
after it, leaves a valid chain: the signed checkpoints of
``service.checkpoints`` and heads kept outside the database catch those
(see docs/audit.md).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any, Protocol
from uuid import UUID

from service.events import Recorded

ZERO_HASH = "0" * 64
#: The chain new events are hashed under.
CURRENT = 2

_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)
_MICROSECOND = timedelta(microseconds=1)


class Hashable(Recorded, Protocol):
    """What the chain covers of an event: what decoding needs, and its metadata and chain."""

    @property
    def metadata(self) -> Any: ...

    @property
    def chain(self) -> int: ...


class Hashed(Hashable, Protocol):
    @property
    def hash(self) -> str: ...


def event_hash(game_id: UUID | str, version: int, type: str, schema_version: int, data: Any,
               previous: str) -> str:
    """The chain 1 hash of one event, chained to ``previous`` (the hash of the version before)."""
    return _digest({"game_id": str(UUID(str(game_id))), "version": version, "type": type,
                    "schema_version": schema_version, "data": data, "previous": previous})


def event_hash_2(game_id: UUID | str, version: int, type: str, schema_version: int, data: Any,
                 metadata: Any, recorded_at: datetime | str, previous: str) -> str:
    """The chain 2 hash of one event, chained to ``previous``."""
    return _digest({"chain": 2, "game_id": str(UUID(str(game_id))), "version": version, "type": type,
                    "schema_version": schema_version, "data": data, "metadata": metadata,
                    "recorded_at": microseconds(recorded_at), "previous": previous})


def hash_of(game_id: UUID | str, event: Hashable, previous: str) -> str:
    """The hash of ``event`` under its own chain's form."""
    if event.chain == 1:
        return event_hash(game_id, event.version, event.type, event.schema_version, event.data, previous)
    if event.chain == 2:
        return event_hash_2(game_id, event.version, event.type, event.schema_version, event.data,
                            event.metadata, event.recorded_at, previous)
    raise ValueError(f"no hash chain {event.chain!r}")


def microseconds(moment: datetime | str) -> int:
    """A moment as whole microseconds since 1970-01-01 UTC (exact: no float)."""
    when = datetime.fromisoformat(moment) if isinstance(moment, str) else moment
    return (when - _EPOCH) // _MICROSECOND


def chain(game_id: UUID | str, events: Iterable[Hashable], previous: str = ZERO_HASH) -> list[str]:
    """Recompute the hashes of a game's ``events`` (in version order), each
    chained to the one before; the first to ``previous``."""
    hashes = []
    for event in events:
        previous = hash_of(game_id, event, previous)
        hashes.append(previous)
    return hashes


@dataclass(frozen=True)
class Break:
    """Where a stored chain first goes wrong, and how."""

    version: int
    reason: str


def first_break(game_id: UUID | str, events: Sequence[Hashed]) -> Break | None:
    """Recompute a game's chain from its stored events (all of them, in version
    order) and name the first version that is missing or does not match."""
    previous, last_chain = ZERO_HASH, 1
    for expected, event in enumerate(events, start=1):
        if event.version != expected:
            return Break(expected, f"Version {expected} is missing: the next stored event is version "
                                   f"{event.version}.")
        if event.chain < last_chain:
            return Break(expected, f"Version {expected} claims hash chain {event.chain}, older than the "
                                   f"chain {last_chain} of an event before it.")
        try:
            recomputed = hash_of(game_id, event, previous)
        except ValueError:
            return Break(expected, f"Version {expected} claims hash chain {event.chain}, which does not exist.")
        if event.hash != recomputed:
            return Break(expected, f"Version {expected} does not match its hash: the event, or the "
                                   "link to the one before it, was changed.")
        previous, last_chain = recomputed, event.chain
    return None


def _digest(fields: dict[str, Any]) -> str:
    canonical = json.dumps(fields, sort_keys=True, separators=(",", ":"), ensure_ascii=True)
    return hashlib.sha256(canonical.encode("ascii")).hexdigest()

"""Tamper evidence: each event's hash covers its content and the hash before it.

An event's hash is the SHA-256 (lowercase hex) of the canonical JSON of::

    {"data": ..., "game_id": "<uuid>", "previous": "<hex>", "schema_version": n,
     "type": "...", "version": n}

Canonical JSON here is ``json.dumps(sort_keys=True, separators=(",", ":"),
ensure_ascii=True)``: keys sorted, no whitespace, every non-ASCII character
escaped, so the bytes do not depend on how the data was stored. (Event data
holds only strings, integers, booleans, nulls, lists and objects, and reads
back from ``jsonb`` as the same values.) A game's first event chains to
``ZERO_HASH``.

Editing, deleting or reordering an event breaks the chain at that version.
Someone who rewrites an event *and* every hash after it makes a new, valid
chain: compare the head (the last hash) with one kept elsewhere to catch that.
The form above is fixed for good; changing it would invalidate every stored
hash.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol
from uuid import UUID

ZERO_HASH = "0" * 64


class Hashable(Protocol):
    """What the chain covers of an event: its version, type, schema version and data."""

    version: int
    type: str
    schema_version: int
    data: Any


class Hashed(Hashable, Protocol):
    hash: str


def event_hash(game_id: UUID | str, version: int, type: str, schema_version: int, data: Any,
               previous: str) -> str:
    """The hash of one event, chained to ``previous`` (the hash of the version before)."""
    canonical = json.dumps(
        {"game_id": str(UUID(str(game_id))), "version": version, "type": type,
         "schema_version": schema_version, "data": data, "previous": previous},
        sort_keys=True, separators=(",", ":"), ensure_ascii=True,
    )
    return hashlib.sha256(canonical.encode("ascii")).hexdigest()


def chain(game_id: UUID | str, events: Iterable[Hashable], previous: str = ZERO_HASH) -> list[str]:
    """Recompute the hashes of a game's ``events`` (in version order), each
    chained to the one before; the first to ``previous``."""
    hashes = []
    for event in events:
        previous = event_hash(game_id, event.version, event.type, event.schema_version, event.data,
                              previous)
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
    previous = ZERO_HASH
    for expected, event in enumerate(events, start=1):
        if event.version != expected:
            return Break(expected, f"Version {expected} is missing: the next stored event is version "
                                   f"{event.version}.")
        recomputed = event_hash(game_id, event.version, event.type, event.schema_version, event.data,
                                previous)
        if event.hash != recomputed:
            return Break(expected, f"Version {expected} does not match its hash: the event, or the "
                                   "link to the one before it, was changed.")
        previous = recomputed
    return None

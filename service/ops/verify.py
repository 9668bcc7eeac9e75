"""Integrity checks on one game: is its history intact, and do the read
models agree with it?

``verify`` runs every check in ``CHECKS`` on the game's ``Evidence`` (its
stored events and its ``games`` row, read as of one moment) and gathers
their findings in a ``Report``. A check is a plain function from evidence
to a ``Finding``; adding one is adding it to the list.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any
from uuid import UUID

from domain.game_types import game_of_event

from service.chain import first_break
from service.checkpoints import Checkpoint, mismatch
from service.events import StoredEvent, Unfoldable, decode, origin_of, refold_checked
from service.projection import expected_row


@dataclass(frozen=True)
class Evidence:
    """What is stored of one game, and the key its checkpoint is signed with
    (None: signatures are not checked)."""

    game_id: UUID
    events: Sequence[StoredEvent]
    row: Mapping[str, Any] | None
    checkpoint: Checkpoint | None = None
    key: bytes | None = None


@dataclass(frozen=True)
class Difference:
    """A column of the stored row that the events say should hold ``expected``."""

    field: str
    stored: Any
    expected: Any


@dataclass(frozen=True)
class Finding:
    """What one check found; ``first_bad_version`` when it can name one."""

    check: str
    ok: bool
    detail: str
    first_bad_version: int | None = None
    differences: tuple[Difference, ...] = field(default=())


Check = Callable[[Evidence], Finding]


def check_hash_chain(evidence: Evidence) -> Finding:
    """Recompute every event's hash from its content and the hash before it."""
    found = first_break(evidence.game_id, evidence.events)
    if found is not None:
        return Finding("hash_chain", False, found.reason, first_bad_version=found.version)
    return Finding("hash_chain", True, f"All {len(evidence.events)} events match their hashes.")


def check_order(evidence: Evidence) -> Finding:
    """A game's positions in the global log rise with its versions, those of
    each origin (``service.events.Cursor``: on a Citus cluster appended to
    through several nodes, each numbers its own). (No hash can cover a
    position's value: the database assigns it on insert.)"""
    last: dict[int, StoredEvent] = {}
    for after in evidence.events:
        before = last.setdefault(origin_of(after.position), after)
        last[origin_of(after.position)] = after
        if before is not after and after.position <= before.position:
            return Finding("order", False, f"Version {after.version} comes before version {before.version}"
                                           " in the global log: positions were changed.",
                           first_bad_version=after.version)
    return Finding("order", True, "The game's events are in version order in the global log.")


def check_checkpoint(evidence: Evidence) -> Finding:
    """The signed checkpoint names the game's last event: its version and hash."""
    found = mismatch(evidence.key, evidence.game_id, evidence.checkpoint, evidence.events)
    if found is not None:
        return Finding("checkpoint", False, found.detail, first_bad_version=found.first_bad_version)
    if evidence.checkpoint is None:
        return Finding("checkpoint", True, "No checkpoint yet: the game was last played before checkpoints"
                                           " began; its next append writes one.")
    unsigned = "" if evidence.key is not None else " (signature not checked: no checkpoint key)"
    return Finding("checkpoint", True, f"The checkpoint vouches for version {evidence.checkpoint.version} and its"
                                       f" hash{unsigned}.")


def check_projection(evidence: Evidence) -> Finding:
    """Fold the events again and compare the result with the stored ``games`` row."""
    events, row = evidence.events, evidence.row
    if not events:
        return Finding("projection", False, "The game has no events" +
                       (", but a row in the read model." if row is not None else "."))
    try:
        state = refold_checked(events)
    except Unfoldable as error:
        return Finding("projection", False, f"The events do not fold into a game. {error}",
                       first_bad_version=error.version)
    if row is None:
        return Finding("projection", False, "The game has no row in the read model.")
    expected = expected_row(events, state)
    differences = tuple(Difference(name, row[name], value) for name, value in expected.items()
                        if row[name] != value)
    if differences:
        named = ", ".join(d.field for d in differences)
        return Finding("projection", False, f"The read model disagrees with the events on {named}.",
                       differences=differences)
    return Finding("projection", True, f"The read model matches the events (status {state.status}).")


def check_shuffles(evidence: Evidence) -> Finding:
    """Each deck dealt from a seed: the seed matches its published commitment,
    the deck is the one the seed gives, and a revealed seed is the committed
    one. What a game's shuffles are is the game's to audit (``GameType.audit``)."""
    if not evidence.events:
        return Finding("shuffles", True, "The game has no events, so no shuffles.")
    try:
        events = [decode(e) for e in evidence.events]
        problems = game_of_event(evidence.events[0].type).audit(events)
    except Exception as error:  # altered data: the projection check names the version
        return Finding("shuffles", False, f"The events cannot be read to check the shuffles. {error}")
    if problems:
        return Finding("shuffles", False, " ".join(p[0].upper() + p[1:] + "." for p in problems))
    return Finding("shuffles", True, "Every shuffle matches its commitment.")


#: Every check ``verify`` runs, in order.
CHECKS: list[Check] = [check_hash_chain, check_order, check_checkpoint, check_projection, check_shuffles]


@dataclass(frozen=True)
class Report:
    game_id: UUID
    version: int  # of the last stored event
    head: str | None  # its hash: keep it elsewhere to catch a rewrite of the whole chain
    findings: tuple[Finding, ...]

    @property
    def ok(self) -> bool:
        return all(f.ok for f in self.findings)

    def to_json(self) -> dict[str, Any]:
        return {
            "game_id": str(self.game_id),
            "ok": self.ok,
            "version": self.version,
            "head": self.head,
            "checks": [
                {"name": f.check, "ok": f.ok, "detail": f.detail,
                 "first_bad_version": f.first_bad_version,
                 "differences": [{"field": d.field, "stored": _plain(d.stored),
                                  "expected": _plain(d.expected)} for d in f.differences]}
                for f in self.findings
            ],
        }


def verify(evidence: Evidence, checks: Sequence[Check] = CHECKS) -> Report:
    events = evidence.events
    return Report(evidence.game_id, events[-1].version if events else 0,
                  events[-1].hash if events else None, tuple(check(evidence) for check in checks))


def _plain(value: Any) -> Any:
    return value.isoformat() if isinstance(value, datetime) else value

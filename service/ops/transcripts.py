"""Transcripts: a whole game in one self-contained JSON document.

``casino export`` writes one; ``casino replay`` checks one and plays it back,
into the database or onto the terminal. A transcript holds the game's id,
variant, options and seats (for a reader), and every event as stored:
version, type, schema version, data, metadata, recorded_at, hash and hash
chain (``chain``; a transcript without it is of chain 1 events). The
events are the truth; the hashes let a reader check that none was altered,
dropped or moved since the export, without the database.
"""

from __future__ import annotations

import json
import uuid
from datetime import datetime
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from domain.game_types import State, describe_event, game_of

from service.auth import hash_token, new_token
from service.chain import first_break
from service.deadlines import Deadline
from service.events import (Append, EventStore, NewEvent, Recorded, StoredEvent, Unfoldable, refold_checked,
                            stored_form)
from service.projection import expected_row, split_row
from service.writes import GameRow, player_seats, seat_tokens

FORMAT = "casino-transcript"
FORMAT_VERSION = 1


class TranscriptError(ValueError):
    """The document is not a transcript, or its history does not hold together."""


@dataclass(frozen=True)
class TranscriptEvent:
    version: int
    type: str
    schema_version: int
    data: Any
    metadata: dict[str, Any]
    recorded_at: datetime
    hash: str
    chain: int = 1


@dataclass(frozen=True)
class Transcript:
    game_id: uuid.UUID
    events: tuple[TranscriptEvent, ...]


def export(game_id: uuid.UUID, events: Sequence[StoredEvent]) -> dict[str, Any]:
    """The transcript of a game with the stored ``events`` (all of them, in
    order); raises ``Unfoldable`` if the first is not a game's creation."""
    created = refold_checked(events[:1])
    return {
        "format": FORMAT,
        "format_version": FORMAT_VERSION,
        "game_id": str(game_id),
        "variant": created.variant,
        "options": created.options.to_dict(),
        "seats": game_of(created.variant).seats(created),
        "version": events[-1].version,
        "head": events[-1].hash,
        "events": [
            {"version": e.version, "type": e.type, "schema_version": e.schema_version, "data": e.data,
             "metadata": e.metadata, "recorded_at": e.recorded_at.isoformat(), "hash": e.hash,
             "chain": e.chain}
            for e in events
        ],
    }


def parse(text: str) -> Transcript:
    """Read a transcript and check its hash chain; raises TranscriptError."""
    try:
        document = json.loads(text)
    except ValueError:
        raise TranscriptError("This is not a transcript: it is not JSON.") from None
    if not isinstance(document, dict) or document.get("format") != FORMAT \
            or document.get("format_version") != FORMAT_VERSION:
        raise TranscriptError(f"This is not a {FORMAT} version {FORMAT_VERSION} document.")
    try:
        game_id = uuid.UUID(document["game_id"])
        events = tuple(_event(e) for e in document["events"])
    except (ValueError, TypeError, KeyError, AttributeError) as error:
        raise TranscriptError(f"This transcript is damaged: a field is missing or not of its kind "
                              f"({type(error).__name__}: {error}).") from None
    if not events:
        raise TranscriptError("The transcript has no events.")
    found = first_break(game_id, events)
    if found is not None:
        raise TranscriptError(f"The hash chain breaks at version {found.version}: {found.reason}")
    if document.get("head") != events[-1].hash:
        raise TranscriptError("The transcript's head is not its last event's hash.")
    return Transcript(game_id, events)


def _event(e: dict[str, Any]) -> TranscriptEvent:
    return TranscriptEvent(e["version"], e["type"], e["schema_version"], e["data"], e["metadata"],
                           datetime.fromisoformat(e["recorded_at"]), e["hash"], e.get("chain", 1))


def steps(transcript: Transcript) -> Iterator[tuple[TranscriptEvent, State]]:
    """Each event with the state just after it; raises TranscriptError at the
    first event that does not apply."""
    state = None
    for event in transcript.events:
        try:
            state = refold_checked([event], state)
        except Unfoldable as error:
            raise TranscriptError(str(error)) from None
        yield event, state


def replay(store: EventStore, transcript: Transcript) -> tuple[uuid.UUID, list[str | None]]:
    """Write the transcript's game into the store, in one append: under its
    own id when the store has no game by that id, else under a new one.
    Returns the id and a new token for each seat (tokens are not exported;
    None for an open seat)."""
    *_, (_, state) = steps(transcript)
    game = game_of(state.variant)
    game_id = uuid.uuid4() if store.load(transcript.game_id, until_version=1) else transcript.game_id
    # An open seat gets its token when a player joins it.
    tokens = [new_token() if not seat.get("open") else None for seat in game.seats(state)]
    row, held = split_row(expected_row(transcript.events, state))
    writes = [GameRow(row),  # times are the events' own
              *seat_tokens({seat: hash_token(token) for seat, token in enumerate(tokens) if token is not None}),
              *player_seats(held),
              # A game still on the clock keeps its deadline, as the events' times give it.
              *([Deadline(game.deadline(state))] if state.clock is not None else [])]
    store.append(Append(
        game_id, 0,
        [NewEvent(e.type, e.schema_version, e.data, metadata=e.metadata,
                  recorded_at=e.recorded_at) for e in transcript.events],
        {}, writes=writes))
    return game_id, tokens


def summary(event: Recorded) -> str:
    """One line saying what happened, for ``casino replay --print``."""
    return describe_event(stored_form(event))

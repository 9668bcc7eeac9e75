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

from domain import GameState, to_json

from service.chain import first_break
from service.projection import Unfoldable, decode, expected_row, refold_checked
from service.store import EventStore, NewEvent, StoredEvent
from service.tokens import hash_token, new_token

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
    recorded_at: str
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
        "seats": [{"seat": i, "name": s.name, "team": s.team} for i, s in enumerate(created.seats)],
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
        if document.get("format") != FORMAT or document.get("format_version") != FORMAT_VERSION:
            raise TranscriptError(f"This is not a {FORMAT} version {FORMAT_VERSION} document.")
        game_id = uuid.UUID(document["game_id"])
        events = tuple(TranscriptEvent(**{name: e[name] for name in TranscriptEvent.__annotations__
                                          if name != "chain"}, chain=e.get("chain", 1))
                       for e in document["events"])
    except TranscriptError:
        raise
    except (ValueError, TypeError, KeyError, AttributeError) as error:
        raise TranscriptError(f"This is not a readable transcript ({type(error).__name__}: {error}).") from None
    if not events:
        raise TranscriptError("The transcript has no events.")
    found = first_break(game_id, events)
    if found is not None:
        raise TranscriptError(f"The hash chain breaks at version {found.version}: {found.reason}")
    if document.get("head") != events[-1].hash:
        raise TranscriptError("The transcript's head is not its last event's hash.")
    return Transcript(game_id, events)


def steps(transcript: Transcript) -> Iterator[tuple[TranscriptEvent, GameState]]:
    """Each event with the state just after it; raises TranscriptError at the
    first event that does not apply."""
    state = None
    for event in transcript.events:
        try:
            state = refold_checked([event], state)
        except Unfoldable as error:
            raise TranscriptError(str(error)) from None
        yield event, state


def replay(store: EventStore, transcript: Transcript) -> tuple[uuid.UUID, list[str]]:
    """Write the transcript's game into the store, in one append: under its
    own id when the store has no game by that id, else under a new one.
    Returns the id and a new token for each seat (tokens are not exported)."""
    *_, (_, state) = steps(transcript)
    game_id = transcript.game_id if store.game_version(transcript.game_id) == 0 else uuid.uuid4()
    tokens = [new_token() for _ in state.seats]
    store.append(
        game_id, 0,
        [NewEvent(e.type, e.schema_version, e.data, metadata=e.metadata,
                  recorded_at=datetime.fromisoformat(e.recorded_at)) for e in transcript.events],
        {}, game_row=expected_row(transcript.events, state),  # times are the events' own
        seat_token_hashes={seat: hash_token(token) for seat, token in enumerate(tokens)},
    )
    return game_id, tokens


def summary(event: TranscriptEvent | StoredEvent) -> str:
    """One line saying what happened, for ``casino replay --print``."""
    current = to_json(decode(event))
    describe = _SUMMARIES.get(current["type"])
    try:
        return describe(current["data"]) if describe else _fields(current["data"])
    except (KeyError, TypeError, IndexError):  # a shape this code does not know: show the fields
        return _fields(current["data"])


def _fields(data: dict[str, Any]) -> str:
    text = ", ".join(f"{name}={json.dumps(value)}" for name, value in data.items())
    return text if len(text) <= 120 else text[:119] + "…"


def _cards(codes: Sequence[str]) -> str:
    return " ".join(codes) or "nothing"


def _scores(scores: Sequence[int]) -> str:
    return "-".join(map(str, scores))


_SUMMARIES = {
    "GameCreated": lambda d: (f"{d['variant']} for {', '.join(s['name'] for s in d['seats'])};"
                              f" seat {d['first_dealer']} deals first"),
    "HandDealt": lambda d: (f"hand {d['hand_number']} dealt by seat {d['dealer']}; table {_cards(d['table'])}"
                            + (" (deck fixed by the operator)" if d.get("fixed") else "")),
    "RoundDealt": lambda d: f"round {d['round']} dealt" + (" (the last)" if d["last"] else ""),
    "CardTrailed": lambda d: f"seat {d['seat']} trails {d['card']}",
    "CardsCaptured": lambda d: (f"seat {d['seat']} takes {_cards(d['cards'][:-1])} with {d['card']}"
                                + (", a sweep" if d.get("sweep") else "")),
    "BundleStolen": lambda d: (f"seat {d['seat']} steals seat {d['victim']}'s bundle of {len(d['cards']) - 1}"
                               f" with {d['card']}"),
    "BuildMade": lambda d: (f"seat {d['seat']} plays {d['card']} on {_cards(d['targets'])}:"
                            f" build {d['build']['id']} of {d['build']['value']}"),
    "HandEnded": lambda d: f"hand {d['hand_number']} scored; scores {_scores(d['scores'])}",
    "CountedOut": lambda d: (f"seat {d['seat']} counts out at {d['total']}: "
                             + ("it holds" if d["success"] else "it falls short")),
    "GameFinished": lambda d: ((f"team {d['winner']} wins" if d["winner"] is not None else "a draw")
                               + f" ({d['reason']}); scores {_scores(d['scores'])}"),
}

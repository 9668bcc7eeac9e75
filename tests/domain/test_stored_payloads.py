"""Stored events stay readable, and are written as they always were.

``golden/stored_samples.json`` holds payloads of every event type of every
game type, and ``golden/stored_games.json`` whole games (undo requests, a
client seed, a voided hand, a count-out, a tied pot), exactly as the code
before the kernel's shared codec (69021bd) stored them; the samples of the
events of seating, resigning and clocks (issue 23, with an open seat in a
first event) as their first code stored them. Each payload reads
back through the registry and writes back the same, and each game folds to
the end it had then (its summary keeps the outcome's fields of then, beside
the ``winners`` and ``result`` every game type has since). A take-back of
version 1 writes back as version 2, saying it left the clock as it stood.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from domain.game_types import GAME_TYPES, game_of_event

GOLDEN = Path(__file__).parent / "golden"
SAMPLES: dict[str, list[dict]] = json.loads((GOLDEN / "stored_samples.json").read_text())
GAMES: dict[str, list[dict]] = json.loads((GOLDEN / "stored_games.json").read_text())
#: What an event of an old version gains when it is read: the fields of the versions since.
UPCAST = {("PlayUndone", 1): {"restores_clock": False}, ("BetTakenBack", 1): {"restores_clock": False}}


def assert_written_back(stored: dict) -> None:
    """``stored`` reads as an event of its game and writes back the same,
    or (an old version) as its upcast. The options of a game's first event
    may gain options added since, each with the default that a game stored
    before it plays by."""
    game = game_of_event(stored["type"])
    again = game.to_json(game.from_json(stored))
    gained = UPCAST.get((stored["type"], stored["schema_version"]))
    if gained is not None:
        stored = {**stored, "schema_version": stored["schema_version"] + 1, "data": {**stored["data"], **gained}}
    if "options" in stored["data"]:
        written = again["data"]["options"]
        assert written | stored["data"]["options"] == written, stored["type"]
        again = {**again, "data": {**again["data"], "options": stored["data"]["options"]}}
    assert json.loads(json.dumps(again)) == stored


def test_the_samples_hold_every_event_type_of_every_game():
    assert set(SAMPLES) == set(GAME_TYPES)
    for name, game in GAME_TYPES.items():
        assert {s["type"] for s in SAMPLES[name]} == set(game.EVENT_TYPES), name


@pytest.mark.parametrize("game_type", sorted(SAMPLES))
def test_every_stored_sample_reads_and_writes_back_the_same(game_type):
    for stored in SAMPLES[game_type]:
        assert game_of_event(stored["type"]) is GAME_TYPES[game_type]
        assert_written_back(stored)


@pytest.mark.parametrize("game_type, index", [(g, i) for g in sorted(GAMES) for i in range(len(GAMES[g]))])
def test_a_stored_game_folds_to_the_end_it_had(game_type, index):
    recorded = GAMES[game_type][index]
    events = recorded["events"]
    game = GAME_TYPES[game_type]
    state = game.fold(game.from_json(e) for e in events)
    summary = game.summary(state)
    assert state.version == recorded["version"] == len(events)
    assert (summary.status, summary.hand_number) == (recorded["status"], recorded["hand_number"])
    winner = json.loads(json.dumps(summary.winner))
    then = recorded["winner"]  # as the listing showed it then: each game type's own fields (now deprecated)
    assert winner.items() >= then.items() and winner["result"] == then["reason"]
    assert game.audit(game.from_json(e) for e in events) == []
    for stored in events:
        assert_written_back(stored)


def test_a_payload_written_otherwise_is_caught():
    """The check above would catch a codec that writes a field otherwise
    than it was stored (here a card in lower case, which reads the same)."""
    stored = next(s for s in SAMPLES["cassino"] if s["type"] == "CardTrailed")
    with pytest.raises(AssertionError):
        assert_written_back({**stored, "data": {**stored["data"], "card": stored["data"]["card"].lower()}})

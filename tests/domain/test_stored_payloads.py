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

The events every game shares were each game's own then, under names of its
own (``SeatJoined``, ``PlayerSeated``); they are the kernel's now
(:mod:`domain.kernel_events`), and such a payload reads as the kernel's
event, and writes back under the kernel's name with the same data, byte for
byte. The stored payloads are never rewritten: the old names are read forever.
``golden/stored_kernel_samples.json`` holds the kernel's events as games
store them since (``kernel.SeatJoined`` ...), which every game reads and
writes back byte for byte.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from domain import kernel_events
from domain.game_types import GAME_TYPES, is_kernel_event, public_type, read_event

GOLDEN = Path(__file__).parent / "golden"
SAMPLES: dict[str, list[dict]] = json.loads((GOLDEN / "stored_samples.json").read_text())
GAMES: dict[str, list[dict]] = json.loads((GOLDEN / "stored_games.json").read_text())
#: What an event of an old version gains when it is read: the fields of the versions since.
UPCAST = {("kernel.PlayUndone", 1): {"restores_clock": False}}


def assert_written_back(stored: dict, game_type: str) -> None:
    """``stored`` reads as an event of its game (the same whichever game
    reads it, when it is the kernel's) and writes back the same, under its
    current name, or (an old version) as its upcast. The options of a
    game's first event may gain options added since, each with the default
    that a game stored before it plays by."""
    game = GAME_TYPES[game_type]
    event = game.from_json(stored)
    assert read_event(stored) == event
    again = game.to_json(event)
    stored = {**stored, "type": game.CODEC.current_name(stored["type"])}
    gained = UPCAST.get((stored["type"], stored["schema_version"]))
    if gained is not None:
        stored = {**stored, "schema_version": stored["schema_version"] + 1, "data": {**stored["data"], **gained}}
    if "options" in stored["data"]:
        written = again["data"]["options"]
        assert written | stored["data"]["options"] == written, stored["type"]
        again = {**again, "data": {**again["data"], "options": stored["data"]["options"]}}
    assert json.dumps(again["data"], sort_keys=True) == json.dumps(stored["data"], sort_keys=True)
    assert json.loads(json.dumps(again)) == stored


def test_the_samples_hold_every_event_type_of_every_game():
    """Every type a game has stored: its own events, and the kernel's under
    the game's old names for them, each kernel event under one of them."""
    assert set(SAMPLES) == set(GAME_TYPES)
    for name, game in GAME_TYPES.items():
        old_names = {old for old, new in game.CODEC.upcasters.renames.items() if new in kernel_events.EVENT_TYPES}
        assert {s["type"] for s in SAMPLES[name]} == set(game.EVENT_TYPES) | old_names, name
        assert {game.CODEC.current_name(old) for old in old_names} == set(kernel_events.EVENT_TYPES), name


@pytest.mark.parametrize("game_type", sorted(SAMPLES))
def test_every_stored_sample_reads_and_writes_back_the_same(game_type):
    for stored in SAMPLES[game_type]:
        assert_written_back(stored, game_type)


@pytest.mark.parametrize("game_type", sorted(SAMPLES))
def test_an_old_name_and_the_kernels_name_read_as_one_event_known_by_one_public_name(game_type):
    """A sample of an old name, stored again under the kernel's name as a new
    game stores it, reads as the same event; the log shows both by the one
    public name (Mass Cool Casino's ``PlayerSeated`` is ``SeatJoined``)."""
    game = GAME_TYPES[game_type]
    for stored in SAMPLES[game_type]:
        if not is_kernel_event(stored["type"]):
            assert public_type(stored["type"]) == stored["type"]
            continue
        new = {**stored, "type": game.CODEC.current_name(stored["type"])}
        assert new["type"].startswith("kernel.") and new["type"] in kernel_events.EVENT_TYPES
        assert game.from_json(new) == game.from_json(stored) == kernel_events.CODEC.from_json(new)
        assert public_type(stored["type"]) == public_type(new["type"]) == new["type"].removeprefix("kernel.")


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
        assert_written_back(stored, game_type)


def test_a_payload_written_otherwise_is_caught():
    """The check above would catch a codec that writes a field otherwise
    than it was stored (here a card in lower case, which reads the same)."""
    stored = next(s for s in SAMPLES["cassino"] if s["type"] == "CardTrailed")
    with pytest.raises(AssertionError):
        assert_written_back({**stored, "data": {**stored["data"], "card": stored["data"]["card"].lower()}}, "cassino")


#: The kernel's events as this release stores them (``kernel.SeatJoined`` ...), one payload or more a type.
KERNEL_SAMPLES: list[dict] = json.loads((GOLDEN / "stored_kernel_samples.json").read_text())


def test_the_kernels_events_as_stored_now_read_and_write_back_the_same_in_every_game():
    """Payloads of every kernel event under the names a game stores them by
    now: every game reads each as the same event and writes it back byte
    for byte (a stored name or a field written otherwise would orphan
    every game stored since)."""
    assert {s["type"] for s in KERNEL_SAMPLES} == set(kernel_events.EVENT_TYPES)
    for stored in KERNEL_SAMPLES:
        events = {name: game.from_json(stored) for name, game in GAME_TYPES.items()}
        assert len(set(events.values())) == 1 and read_event(stored) in events.values()
        for name, game in GAME_TYPES.items():
            assert json.dumps(game.to_json(events[name])) == json.dumps(stored), (name, stored["type"])

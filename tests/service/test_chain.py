"""The hash chain, as pure functions: stored events in, hashes and breaks out."""

from __future__ import annotations

import uuid
from datetime import UTC, datetime, timedelta
from dataclasses import dataclass, replace
from typing import Any

from service.chain import ZERO_HASH, chain, event_hash, event_hash_2, first_break, microseconds

GAME = uuid.UUID("5b0c1f7e-7a38-4c0e-9a55-7d5b8e1f2a3c")


@dataclass(frozen=True)
class Stored:
    version: int
    type: str
    schema_version: int
    data: Any
    hash: str = ""
    metadata: Any = None
    recorded_at: Any = None
    chain: int = 1


def stored_game() -> list[Stored]:
    plain = [Stored(1, "GameCreated", 1, {"variant": "cassino"}),
             Stored(2, "HandDealt", 1, {"deck": ["AS", "2S"], "fixed": False}),
             Stored(3, "CardTrailed", 1, {"seat": 0, "card": "AS"}),
             Stored(4, "CardTrailed", 1, {"seat": 1, "card": "2S"})]
    return [replace(e, hash=h) for e, h in zip(plain, chain(GAME, plain), strict=True)]


def test_the_canonical_form_is_fixed_for_good():
    """A golden value, worked out with sha256sum from the documented form:
    any change to the canonical form would orphan every stored hash."""
    assert event_hash(GAME, 1, "CardTrailed", 1, {"seat": 0, "card": "10\u2665"}, ZERO_HASH) == (
        "c1e08555248053dfe1c7d3e0cbb580c141515ffd8fee96a99ed59cf23dcab84c")


def test_key_order_and_the_spelling_of_the_game_id_do_not_change_a_hash():
    one = event_hash(GAME, 2, "T", 1, {"a": 1, "b": [1, 2]}, ZERO_HASH)
    assert one == event_hash(str(GAME).upper(), 2, "T", 1, {"b": [1, 2], "a": 1}, ZERO_HASH)
    assert one != event_hash(GAME, 2, "T", 1, {"a": 1, "b": [2, 1]}, ZERO_HASH)


def test_each_hash_chains_to_the_one_before():
    events = stored_game()
    assert events[0].hash == event_hash(GAME, 1, "GameCreated", 1, {"variant": "cassino"}, ZERO_HASH)
    assert events[2].hash == event_hash(GAME, 3, "CardTrailed", 1, {"seat": 0, "card": "AS"},
                                        events[1].hash)
    assert chain(GAME, events[2:], previous=events[1].hash) == [e.hash for e in events[2:]]


def test_an_intact_chain_has_no_break():
    assert first_break(GAME, stored_game()) is None
    assert first_break(GAME, []) is None


def test_changed_data_breaks_the_chain_at_its_version():
    events = stored_game()
    events[2] = replace(events[2], data={"seat": 0, "card": "KS"})
    assert first_break(GAME, events).version == 3


def test_a_rewritten_hash_breaks_the_chain_at_the_next_version():
    events = stored_game()
    forged = replace(events[1], data={"deck": ["KS", "2S"], "fixed": False})
    [forged_hash] = chain(GAME, [forged], previous=events[0].hash)
    events[1] = replace(forged, hash=forged_hash)
    found = first_break(GAME, events)
    assert found.version == 3 and "changed" in found.reason


def test_a_missing_event_is_named():
    events = stored_game()
    del events[1]
    found = first_break(GAME, events)
    assert found.version == 2 and "missing" in found.reason


def test_reordered_events_break_the_chain():
    events = stored_game()
    third, fourth = events[2], events[3]
    events[2] = replace(fourth, version=3)
    events[3] = replace(third, version=4)
    assert first_break(GAME, events).version == 3


def test_the_same_events_in_another_game_hash_differently():
    other = uuid.uuid4()
    assert first_break(other, stored_game()).version == 1


AT = datetime(2026, 11, 23, 18, 0, 0, 123456, tzinfo=UTC)


def chain_2_game() -> list[Stored]:
    """The stored game with two events of chain 2 after its chain 1 events."""
    old = stored_game()
    new = [Stored(5, "CardTrailed", 1, {"seat": 0, "card": "3S"}, metadata={"actor": "seat:0"},
                  recorded_at=AT, chain=2),
           Stored(6, "CardTrailed", 1, {"seat": 1, "card": "4S"}, metadata={"actor": "seat:1"},
                  recorded_at=AT + timedelta(seconds=1), chain=2)]
    return old + [replace(e, hash=h) for e, h in zip(new, chain(GAME, new, previous=old[-1].hash), strict=True)]


def test_chain_2_covers_metadata_and_recorded_at_and_old_events_keep_their_form():
    events = chain_2_game()
    assert first_break(GAME, events) is None
    assert events[4].hash == event_hash_2(GAME, 5, "CardTrailed", 1, {"seat": 0, "card": "3S"},
                                          {"actor": "seat:0"}, "2026-11-23T18:00:00.123456+00:00",
                                          events[3].hash)
    for changed in ({"metadata": {"actor": "operator"}}, {"recorded_at": AT + timedelta(microseconds=1)}):
        tampered = [*events[:4], replace(events[4], **changed), events[5]]
        assert first_break(GAME, tampered).version == 5


def test_an_event_cannot_go_back_to_the_older_chain():
    events = chain_2_game()
    last = events[5]
    downgraded = replace(last, chain=1, metadata={"actor": "operator"})
    [rehashed] = chain(GAME, [downgraded], previous=events[4].hash)
    found = first_break(GAME, [*events[:5], replace(downgraded, hash=rehashed)])
    assert found.version == 6 and "older than" in found.reason


def test_microseconds_are_exact_whatever_the_offset():
    assert microseconds("1970-01-01T01:00:00.000001+01:00") == 1
    assert microseconds(AT) == microseconds(AT.isoformat())

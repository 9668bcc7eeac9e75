"""Events as stored facts: their JSON form, and old versions that must still fold."""

import json

import pytest

from domain import NotationError, full_deck
from domain.cassino import CreateGame, Deal, decide, fold, from_json, to_json
from domain.cassino import events
from domain.cassino.events import EVENT_TYPES
from domain.codec import EventCodec, Upcasters


def test_every_event_of_a_game_round_trips_through_json():
    events = decide(None, CreateGame("partnership", ("A", "B", "C", "D"), 0, {"sweeps": 1}))
    events += decide(fold(events), Deal(full_deck()))
    for e in events:
        assert from_json(json.loads(json.dumps(to_json(e)))) == e


def test_every_event_type_declares_a_schema_version():
    assert all(cls.schema_version >= 1 for cls in EVENT_TYPES.values())


def test_an_old_event_is_upcast_where_it_is_read():
    """A worked change: suppose CardTrailed version 1 stored the card as
    ``"played"``. Version 2 renamed it; the stored payload stays as it was."""
    upcasters = Upcasters()

    @upcasters.register("CardTrailed", 1)
    def rename(data):
        return {"seat": data["seat"], "card": data["played"]}

    class CardTrailed(events.CardTrailed):
        schema_version = 2

    stored = {"type": "CardTrailed", "schema_version": 1, "data": {"seat": 1, "played": "7H"}}
    codec = EventCodec({"CardTrailed": CardTrailed}, upcasters=upcasters)
    event = codec.from_json(stored)
    assert (event.seat, event.card.code) == (1, "7H")
    assert codec.to_json(event) == {"type": "CardTrailed", "schema_version": 2, "data": {"seat": 1, "card": "7H"}}


def test_a_missing_upcaster_is_an_error_not_a_silent_guess():
    class CardTrailed(events.CardTrailed):
        schema_version = 2

    stored = {"type": "CardTrailed", "schema_version": 1, "data": {"seat": 1, "card": "7H"}}
    with pytest.raises(NotationError, match="No upcaster"):
        EventCodec({"CardTrailed": CardTrailed}).from_json(stored)


def test_golden_stored_events_of_version_1_still_fold():
    """Payloads exactly as the first release stored them."""
    stored = [
        {"type": "GameCreated", "schema_version": 1, "data": {
            "variant": "cassino", "options": {"target": 11},
            "seats": [{"name": "Ann", "team": 0}, {"name": "Bob", "team": 1}],
            "first_dealer": 1}},
        {"type": "HandDealt", "schema_version": 1, "data": {
            "hand_number": 1, "dealer": 1, "deck": [c.code for c in full_deck()],
            "hands": [["AS", "2S", "7S", "8S"], ["5S", "6S", "JS", "QS"]], "table": ["3S", "4S", "9S", "10S"],
            "fixed": True}},
        {"type": "CardsCaptured", "schema_version": 1, "data": {
            "seat": 0, "card": "7S", "targets": ["3S", "4S"], "cards": ["3S", "4S", "7S"], "sweep": False}},
    ]
    state = fold(from_json(e) for e in stored)
    assert state.options.target == 11 and state.version == 3
    assert [c.code for c in state.captured[0]] == ["3S", "4S", "7S"]
    assert state.turn == 1


def test_unknown_and_future_events_are_refused():
    with pytest.raises(NotationError):
        from_json({"type": "Teleported", "schema_version": 1, "data": {}})
    with pytest.raises(NotationError, match="newer"):
        from_json({"type": "CardTrailed", "schema_version": 99, "data": {"seat": 0, "card": "AS"}})


def test_a_round_dealt_of_version_1_had_no_table_cards():
    """RoundDealt version 2 added ``table`` (a last round's cards that do not go round evenly); a stored
    version 1 payload reads as a round that laid nothing on the table."""
    stored = {"type": "RoundDealt", "schema_version": 1, "data": {
        "round": 2, "hands": [["AS", "2S", "3S", "4S"], ["5S", "6S", "7S", "8S"]], "last": False}}
    event = from_json(stored)
    assert event.table == () and [c.code for c in event.hands[1]] == ["5S", "6S", "7S", "8S"]
    assert to_json(event)["schema_version"] == 2 and to_json(event)["data"]["table"] == []

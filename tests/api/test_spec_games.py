"""openapi.yaml knows every game the service serves: each game type's view,
statuses and results, and each event type's data, field by field, so that
a generated client can tell them apart and reads every field an event has.

The answers themselves are checked against these schemas by every API test
(``tests/service/spec_check.py``); here the spec is held to the domain."""

from __future__ import annotations

import dataclasses

import pytest

from domain import kernel_events
from domain.codec import public_name
from domain.game_types import GAME_TYPES
from domain.standing import Awaited
from tests.service.spec_check import spec

SCHEMAS = spec()["components"]["schemas"]
#: Every event type by its public name: each game's own, then the kernel's (every game's).
EVENT_CLASSES = {public_name(name): cls for types in [*(g.EVENT_TYPES for g in GAME_TYPES.values()),
                                                      kernel_events.EVENT_TYPES] for name, cls in types.items()}


def _ref(name: str) -> str:
    return f"#/components/schemas/{name}"


def test_the_event_types_are_every_games_events():
    assert SCHEMAS["EventType"]["enum"] == list(EVENT_CLASSES)
    event = SCHEMAS["Event"]
    assert event["discriminator"]["propertyName"] == "type"
    assert event["discriminator"]["mapping"] == {name: _ref(f"{name}Event") for name in EVENT_CLASSES}
    assert event["oneOf"] == [{"$ref": _ref(f"{name}Event")} for name in EVENT_CLASSES]


@pytest.mark.parametrize("name", list(EVENT_CLASSES))
def test_each_event_type_has_its_data_schema_field_by_field(name):
    """Every field of the event's dataclass is in its data schema, required
    unless it has a default (an event stored before the field existed has
    none); the only other fields are the counts beside what redaction hides."""
    envelope, own = SCHEMAS[f"{name}Event"]["allOf"]
    assert envelope == {"$ref": _ref("EventFields")}
    assert own["properties"]["type"] == {"$ref": _ref(f"{name}Type")}
    assert SCHEMAS[f"{name}Type"] == {"type": "string", "const": name}
    assert own["properties"]["data"] == {"$ref": _ref(f"{name}Data")}
    data = SCHEMAS[f"{name}Data"]
    fields = dataclasses.fields(EVENT_CLASSES[name])
    assert data["required"] == [f.name for f in fields if f.default is dataclasses.MISSING]
    assert data["additionalProperties"] is False
    counts = set(data["properties"]) - {f.name for f in fields}
    assert counts <= {"deck_count", "hand_counts", "drawn"}, counts


def test_the_view_the_moves_and_the_listing_are_told_apart_by_game_type():
    views = {"cassino": "CassinoGame", "mass-cool-casino": "MassCoolGame"}
    summaries = {"cassino": "CassinoGameSummary", "mass-cool-casino": "MassCoolGameSummary"}
    assert set(views) == set(GAME_TYPES) == set(SCHEMAS["GameType"]["enum"])
    for union, names in (("Game", views), ("GameSummary", summaries)):
        assert SCHEMAS[union]["discriminator"] == {
            "propertyName": "game_type", "mapping": {t: _ref(n) for t, n in names.items()}}
        for game_type, name in names.items():
            assert SCHEMAS[name]["properties"]["game_type"] == {"type": "string", "const": game_type}
    mapping = SCHEMAS["Move"]["discriminator"]["mapping"]
    assert mapping["bet"] == _ref("BetMove") and mapping["stop"] == _ref("StopMove")


def test_each_games_statuses_are_in_its_schemas_and_the_listing_filter():
    assert SCHEMAS["GameStatus"]["enum"] == list(GAME_TYPES["cassino"].STATUSES)
    assert SCHEMAS["MassCoolStatus"]["enum"] == list(GAME_TYPES["mass-cool-casino"].STATUSES)
    [status] = [p for p in spec()["paths"]["/v1/games"]["get"]["parameters"] if p.get("name") == "status"]
    everyone = {s for game in GAME_TYPES.values() for s in game.STATUSES}
    assert status["schema"]["items"] == {"$ref": _ref("AnyGameStatus")}
    assert set(SCHEMAS["AnyGameStatus"]["enum"]) == everyone


def test_every_games_view_says_where_it_stands_in_one_shape():
    """``awaiting`` and ``winners`` are the same schema in every game type's
    view, and the commands awaited are the kernel's."""
    for view in (SCHEMAS["Game"]["discriminator"]["mapping"][t].rsplit("/", 1)[1] for t in GAME_TYPES):
        assert {"awaiting", "winners", "result"} <= set(SCHEMAS[view]["required"])
        assert SCHEMAS[view]["properties"]["awaiting"] == {"$ref": _ref("AwaitingOrNull")}
        assert SCHEMAS[view]["properties"]["winners"] == {"$ref": _ref("Winners")}
    assert SCHEMAS["AwaitedCommand"]["enum"] == [a.value for a in Awaited]


def test_the_variant_names_are_every_game_types_variants():
    assert set(SCHEMAS["VariantName"]["enum"]) == {name for game in GAME_TYPES.values() for name in game.VARIANTS}

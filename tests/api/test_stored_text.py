"""Every string the service stores is checked at the edge: text PostgreSQL
cannot store, and a body a proxy could read differently, are 400 problems
naming the field, and nothing is written."""

import pytest

from .conftest import ORDERED_DECK
from .test_errors import problem


@pytest.mark.parametrize("body,field", [
    ({"seats": [{"name": "Ann\u0000"}, {"name": "Bob"}]}, "seats.0.name"),
    ({"variant": "cass\u0000ino"}, "variant"),
    ({"options": {"target\u0000": 11}}, "options.target\u0000"),
    ({"options": {"undo": "free\u0000"}}, "options.undo"),
])
def test_a_nul_character_in_a_new_game_is_a_400_naming_the_field(api, body, field):
    answer = problem(api.post("/v1/games", json=body), 400, "malformed")
    assert [e["field"] for e in answer["errors"]] == [field]
    assert "NUL" in answer["detail"]


def test_a_nul_character_in_a_void_reason_is_refused_and_writes_nothing(api, operator):
    game = api.create(first_dealer=1)
    api.deal(game, ORDERED_DECK)
    before = len(api.events(game))
    answer = problem(api.post(f"{game.url}/void", json={"reason": "misdeal\u0000"}, token=operator),
                     400, "malformed")
    assert answer["errors"][0]["field"] == "reason"
    assert len(api.events(game)) == before


@pytest.mark.parametrize("raw,field", [
    (b'{"card": "AS", "action": "trail", "card": "7S"}', "card"),
    (b'{"card": "AS", "action": "capture", "targets": ["3S"], "action": "trail"}', "action"),
])
def test_a_key_sent_twice_is_refused_rather_than_read_one_way(api, raw, field):
    game = api.create(first_dealer=1)
    api.deal(game, ORDERED_DECK)
    before = len(api.events(game))
    answer = problem(api.post(f"{game.url}/play", data=raw, token=game.tokens[0],
                              headers={"Content-Type": "application/json"}), 400, "malformed")
    assert answer["errors"] == [{"field": field, "message": f"The key '{field}' appears more than once"
                                                            " in one object."}]
    assert len(api.events(game)) == before


def test_a_key_sent_twice_in_a_nested_object_is_refused(api):
    raw = b'{"seats": 2, "options": {"target": 11, "target": 21}}'
    answer = problem(api.post("/v1/games", data=raw, headers={"Content-Type": "application/json"}),
                     400, "malformed")
    assert answer["errors"][0]["field"] == "target"


@pytest.mark.parametrize("path,body,field,token", [
    ("play", {"card": "AS\u0000", "action": "trail"}, "card", "seat"),
    ("client-seed", {"seed": "abc\u0000"}, "seed", "seat"),
    ("deal", {"deck": ["AS\u0000"] + ORDERED_DECK[1:]}, "deck.0", "operator"),
])
def test_a_nul_character_in_any_command_is_a_400_naming_the_field(api, operator, path, body, field, token):
    game = api.create(first_dealer=1)
    if path != "deal":
        api.deal(game, ORDERED_DECK)
    before = len(api.events(game))
    sender = operator if token == "operator" else game.tokens[0]
    answer = problem(api.post(f"{game.url}/{path}", json=body, token=sender), 400, "malformed")
    assert [e["field"] for e in answer["errors"]] == [field] and "NUL" in answer["detail"]
    assert len(api.events(game)) == before


@pytest.mark.parametrize("depth", [40, 990, 1100])
def test_a_body_nested_too_deep_is_a_400_not_a_crash(api, depth):
    raw = b'{"seats": 2, "options": ' + b"[" * depth + b"]" * depth + b"}"
    answer = problem(api.post("/v1/games", data=raw, headers={"Content-Type": "application/json"}),
                     400, "malformed")
    assert "nest" in answer["detail"] or "JSON" in answer["detail"]

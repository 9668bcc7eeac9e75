"""Undo and void over HTTP."""

import pytest

from .conftest import ORDERED_DECK


# On both wirings: the HTTP API on PostgreSQL as well as in memory.
pytestmark = pytest.mark.both_wirings


def dealt(api, **options):
    game = api.create(first_dealer=1, options=options)
    api.deal(game, ORDERED_DECK)  # seat 0 holds AS 2S 7S 8S; the table 3S 4S 9S 10S
    return game


CAPTURE = {"card": "7S", "action": "capture", "targets": ["3S", "4S"]}


def test_consent_undo_over_http(api, operator):
    game = dealt(api)
    before = api.view(game, game.tokens[0])
    api.post(f"{game.url}/play", json=CAPTURE, token=game.tokens[0])
    asked = api.post(f"{game.url}/undo", token=game.tokens[0]).get_json()
    assert asked["game"]["undo_request"] == {"seat": 0, "accepted": []}
    done = api.post(f"{game.url}/undo/answer", json={"accept": True}, token=game.tokens[1]).get_json()
    assert [e["type"] for e in done["events"]] == ["UndoAnswered", "PlayUndone"]
    assert done["game"]["hand"] == ["5S", "6S", "JS", "QS"]  # the answer shows the answering seat's view
    after = api.view(game, game.tokens[0])
    assert after["hand"] == before["hand"] and after["table"] == before["table"] and after["turn"] == 0
    assert "CardsCaptured" in [e["type"] for e in api.events(game, operator)]  # the log keeps the play


def test_free_undo_and_operator_undo(api, operator):
    game = dealt(api, undo="free")
    api.post(f"{game.url}/play", json=CAPTURE, token=game.tokens[0])
    assert api.post(f"{game.url}/undo", token=game.tokens[0]).get_json()["events"][0]["type"] == "PlayUndone"
    api.post(f"{game.url}/play", json=CAPTURE, token=game.tokens[0])
    forced = api.post(f"{game.url}/undo", token=operator).get_json()["events"][0]
    assert forced["type"] == "PlayUndone" and forced["data"]["forced"] is True


def test_undo_refusals_name_the_rule(api):
    game = dealt(api, undo="off")
    api.post(f"{game.url}/play", json=CAPTURE, token=game.tokens[0])
    off = api.post(f"{game.url}/undo", token=game.tokens[0])
    assert off.status_code == 422 and off.get_json()["rule"] == "undo_not_allowed"
    assert api.post(f"{game.url}/undo").status_code == 401
    bad = api.post(f"{game.url}/undo/answer", json={"accept": "yes"}, token=game.tokens[1])
    assert bad.status_code == 400


def test_the_operator_voids_a_hand(api, operator):
    game = dealt(api)
    assert api.post(f"{game.url}/void", json={"reason": "misdeal"}, token=game.tokens[0]).status_code == 403
    assert api.post(f"{game.url}/void", json={"reason": ""}, token=operator).status_code == 400
    voided = api.post(f"{game.url}/void", json={"reason": "a card was exposed"}, token=operator).get_json()
    assert voided["events"][0]["type"] == "HandVoided"
    assert voided["game"]["status"] == "hand_over" and voided["game"]["next_dealer"] == 1

"""Names on the way in (service/names.py, openapi.yaml's ``Name``): each
normalised by the PRECIS Nickname profile, or refused 422 ``invalid_name``
with a sentence; and the project's probe of hostile names (issue 33): each
is refused, or shows as one normalised name in the lobby, the view, the log
and the stream."""

from __future__ import annotations

import json

import pytest

from service.names import NameRefused, normalised
from tests.service.spec_check import sse_messages

from .test_join import join, open_game

#: Hostile names and what each becomes (None: refused).
HOSTILE = {
    "Ann": "Ann",
    "  Ａｎｎ   Lee\u3000": "Ann Lee",  # wide letters, an ideographic space, runs of spaces
    "ℌ𝐞𝓁𝓁ｏ": "Hello",  # compatibility letters: NFKC
    "Zoë": "Zoë",
    "李小龍": "李小龍",
    "山田 たろう": "山田 たろう",  # Han with Hiragana: written together
    "   ": None,  # blank
    "\u200b": None,  # a zero-width space alone
    "\u200b\u200c\u200d\ufeff": None,  # zero-width characters only
    "Ann\u200b": None,
    "a\u202eb": None,  # a right-to-left override
    "\u2067Bob\u2069": None,  # bidi isolates
    "Bob\x07": None,  # a control character
    "Bob\nAnn": None,
    "\ue000": None,  # private use
    "Pаypal": None,  # a Cyrillic а among Latin letters
    "Ωmega": None,  # Greek with Latin
    "ﷺ" * 10: None,  # 40 characters once mapped, and more
}


@pytest.mark.parametrize("given, kept", HOSTILE.items())
def test_a_name_is_normalised_or_refused_with_a_sentence(given, kept):
    if kept is None:
        with pytest.raises(NameRefused) as refused:
            normalised(given)
        assert refused.value.detail.startswith("A name ") and refused.value.detail.endswith(".")
    else:
        assert normalised(given) == kept == normalised(kept)  # and normalising again changes nothing


def test_a_refused_name_is_422_with_a_sentence_wherever_a_name_comes_in(api):
    game = open_game(api)
    for answer in (api.post("/v1/players", json={"name": "a\u202eb"}),
                   api.post("/v1/games", json={"seats": [{"name": "Pаypal"}, {"name": "Bob"}]}),
                   join(api, game, body={"name": "\u200b"})):
        problem = answer.get_json()
        assert answer.status_code == 422 and problem["code"] == "invalid_name", problem
        assert problem["detail"].startswith("A name ")
    assert all(s["open"] for s in api.view(game)["seats"][1:])  # nothing was written
    for malformed in (7, "", "x" * 41):  # not a string of 1 to 40 characters as given: the body is malformed
        assert api.post("/v1/games", json={"seats": [{"name": malformed}, {"name": "Bob"}]}).status_code == 400


def test_hostile_names_are_refused_or_shown_normalised_in_the_lobby_the_view_the_log_and_the_stream(api, operator):
    for given, kept in HOSTILE.items():
        player = api.post("/v1/players", json={"name": given})
        created = api.post("/v1/games", json={"seats": [{"name": given}, {"open": True}, {"open": True}]})
        game = open_game(api, seats=("Host", None, None, None))
        guest = join(api, game, body={"name": given})
        if kept is None:
            assert {player.status_code, created.status_code, guest.status_code} == {422}, given
            continue
        assert player.status_code == 201 and player.get_json()["name"] == kept
        assert created.get_json()["seats"][0]["name"] == kept
        assert guest.get_json()["game"]["seats"][1]["name"] == kept
        assert join(api, game, token=player.get_json()["token"]).status_code == 200  # under the player's name
        [listed] = [g for g in api.get("/v1/lobby").get_json()["games"] if g["id"] == game.id]
        assert [s["name"] for s in listed["seats"]] == ["Host", kept, kept, None]
        assert [s["name"] for s in api.view(game)["seats"]] == ["Host", kept, kept, None]
        joined = [e["data"]["name"] for e in api.events(game, operator) if e["type"] == "SeatJoined"]
        streamed = [json.loads(m["data"]) for m in sse_messages(
            api.get(f"{game.url}/events/stream?timeout=0.2").get_data(as_text=True))]
        assert joined == [e["data"]["name"] for e in streamed if e["type"] == "SeatJoined"] == [kept, kept]

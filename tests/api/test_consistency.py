"""What a client tells the service it has seen, and what it is told back:
``If-None-Match`` and ``min_version`` (a game's version), and the
``Consistency-Token`` (a position in the database's history). With one
server they change no answer but the 304s; tests/replicas holds the reads
that come from a replica to them."""

import pytest

from .conftest import ORDERED_DECK

pytestmark = pytest.mark.both_wirings


def test_every_command_answer_carries_a_consistency_token_that_grows(api, operator):
    created = api.post("/v1/games", json={"seats": 2, "first_dealer": 1})
    game_url = created.headers["Location"]
    dealt = api.post(f"{game_url}/deal", json={"deck": ORDERED_DECK}, token=operator)
    assert 0 < int(created.headers["Consistency-Token"]) < int(dealt.headers["Consistency-Token"])


def test_a_view_the_client_has_is_answered_304_and_a_newer_one_in_full(api, operator):
    game = api.create(first_dealer=1)
    unchanged = api.get(game.url, headers={"If-None-Match": '"2"'})
    assert unchanged.status_code == 304 and unchanged.headers["ETag"] == '"2"' and unchanged.get_data() == b""
    assert api.get(game.url, headers={"If-None-Match": 'W/"1", "2"'}).status_code == 304
    assert api.get(game.url, headers={"If-None-Match": "*"}).status_code == 304
    assert api.get(game.url, headers={"If-None-Match": '""'}).status_code == 200  # names no version

    api.deal(game, ORDERED_DECK)
    moved = api.get(game.url, headers={"If-None-Match": '"2"'})
    assert moved.status_code == 200 and moved.get_json()["version"] == 3
    log = api.get(f"{game.url}/events", headers={"If-None-Match": '"3"'})
    assert log.status_code == 304 and log.headers["ETag"] == '"3"'


def test_a_read_with_min_version_or_a_token_is_answered_as_any_read(api):
    created = api.post("/v1/games", json={"seats": 2})
    view = api.get(f"{created.headers['Location']}?min_version=2",
                   headers={"Consistency-Token": created.headers["Consistency-Token"]})
    assert view.status_code == 200 and view.get_json()["version"] == 2
    assert "Consistency-Token" not in view.headers  # one server: nothing to keep reads apart


@pytest.mark.parametrize("query,headers,field", [
    ("?min_version=-1", {}, "min_version"),
    ("?min_version=x", {}, "min_version"),
    ("", {"Consistency-Token": "abc"}, "Consistency-Token"),
    ("", {"Consistency-Token": "1" * 19}, "Consistency-Token"),
])
def test_a_malformed_version_or_token_is_400_naming_it(api, query, headers, field):
    game = api.create()
    response = api.get(f"{game.url}{query}", headers=headers)
    assert response.status_code == 400 and response.get_json()["errors"][0]["field"] == field

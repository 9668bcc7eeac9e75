"""Pairing over HTTP (API.md, "Ratings, pairing and rematches"): players
who ask alike are seated at one game, nearest in rating first; each
pairing ends once, in a game or cancelled."""

from __future__ import annotations

import time

import pytest

from service import pairing as pairing_module
from service.pairing import HOLD
from service.web.current import services
from tests.api.test_ratings import player, played_out


def ask(api, token, **body):
    return api.post("/v1/pairing", json=body, token=token)


def pair(app) -> int:
    """One pass of the service's pairer, as a worker makes it."""
    return services(app).pairer.tick()


def test_two_players_asking_alike_are_seated_at_one_game(api, app):
    ann, bob = player(api, "Ann"), player(api, "Bob")
    asked = [ask(api, who[1], variant="royal", clock={"per_move_seconds": 60}, rated=True) for who in (ann, bob)]
    assert [a.status_code for a in asked] == [202, 202]
    first = asked[0].get_json()
    assert (first["status"], first["variant"], first["seats"], first["rated"]) == ("waiting", "royal", 2, True)
    assert asked[0].headers["Location"] == first["url"]
    assert pair(app) == 2
    shown = [api.get(a.get_json()["url"], token=who[1]).get_json() for a, who in zip(asked, (ann, bob))]
    assert [s["status"] for s in shown] == ["paired", "paired"] and shown[0]["game_id"] == shown[1]["game_id"]
    assert sorted(s["seat"] for s in shown) == [0, 1]
    game = api.get(shown[0]["game_url"]).get_json()
    assert (game["variant"], game["rated"], game["status"]) == ("royal", True, "waiting")
    assert sorted(s["name"] for s in game["seats"]) == ["Ann", "Bob"]
    assert game["clock"]["per_move_seconds"] == 60
    dealer = game["dealer"] if game["next_dealer"] is None else game["next_dealer"]
    deal = api.post(f"{shown[0]['game_url']}/deal", json={}, token=(ann, bob)[shown[0]["seat"] != dealer][1])
    assert deal.status_code == 200, deal.get_json()


def test_only_those_who_ask_alike_are_paired(api, app):
    players = [player(api, f"P{n}") for n in range(4)]
    asked = [ask(api, players[0][1], variant="spade", seats=2), ask(api, players[1][1], variant="spade", seats=3),
             ask(api, players[2][1], variant="spade", seats=2, rated=True),
             ask(api, players[3][1], variant="spade", seats=2, clock={"per_move_seconds": 30})]
    for _ in range(4):
        pair(app)
    assert [api.get(a.get_json()["url"], token=p[1]).get_json()["status"] for a, p in zip(asked, players)] == [
        "waiting"] * 4


def test_nearest_in_rating_first(api, app):
    strong, weak = player(api, "Strong"), player(api, "Weak")
    for _ in range(3):
        played_out(api, [strong, weak], 0)
    others = [player(api, name) for name in ("S2", "W2")]
    for _ in range(3):
        played_out(api, [others[0], others[1]], 0)
    asked = {who[0]: ask(api, who[1], rated=True).get_json()["url"] for who in (strong, weak, *others)}
    pair(app)
    games = {who: api.get(url, token=token).get_json()["game_id"]
             for (who, url), token in zip(asked.items(), (strong[1], weak[1], others[0][1], others[1][1]))}
    assert games[strong[0]] == games[others[0][0]] and games[weak[0]] == games[others[1][0]]


def test_a_player_waits_in_one_pairing_and_may_cancel_it(api, app):
    ann, bob = player(api, "Ann"), player(api, "Bob")
    first = ask(api, ann[1]).get_json()
    again = ask(api, ann[1])
    assert again.status_code == 409 and again.get_json()["code"] == "already_waiting"
    assert api.get(first["url"], token=bob[1]).status_code == 404  # another's pairing is none of Bob's
    assert api.request("DELETE", first["url"], token=bob[1]).status_code == 404
    cancelled = api.request("DELETE", first["url"], token=ann[1])
    assert cancelled.status_code == 200 and cancelled.get_json()["status"] == "cancelled"
    ask(api, bob[1])
    pair(app)  # Bob alone: held a moment for other pools
    assert api.get(first["url"], token=ann[1]).get_json()["status"] == "cancelled"
    second = ask(api, ann[1]).get_json()  # no longer waiting: may ask again
    time.sleep(HOLD.total_seconds())
    pair(app)
    assert api.get(second["url"], token=ann[1]).get_json()["status"] == "paired"
    late = api.request("DELETE", second["url"], token=ann[1])
    assert late.status_code == 409 and late.get_json()["code"] == "already_paired"


@pytest.mark.parametrize("body", [{"variant": "chess"}, {"seats": 9}, {"seats": 5, "variant": "cassino"},
                                  {"clock": "fast"}, {"rated": "yes"}])
def test_an_ask_that_cannot_be_played_is_refused(api, body):
    response = ask(api, player(api, "Ann")[1], **body)
    assert response.status_code in (400, 422), response.get_json()
    assert ask(api, None).status_code == 401


def test_each_player_is_told_on_the_player_stream_that_the_game_has_begun(app_for):
    from tests.api.conftest import Api
    from tests.api.test_player_stream import STREAM_SETTINGS, Listener

    app = app_for(**STREAM_SETTINGS)
    api = Api(app, app.test_client())
    ann, bob = player(api, "Ann"), player(api, "Bob")
    listeners = [Listener(app.test_client(), who[1], "?timeout=2") for who in (ann, bob)]
    asked = [ask(api, who[1]).get_json() for who in (ann, bob)]
    pair(app)
    for listener in listeners:
        listener.join()
    game = api.get(asked[0]["url"], token=ann[1]).get_json()["game_id"]
    for listener, pairing in zip(listeners, asked):
        started = [data for event, data in listener.received if event == "game_started"]
        assert started == [{"game": game, "version": started[0]["version"], "pairing": pairing["id"]}]


def test_an_ask_wakes_the_pairer_that_waits_for_one(app_for, monkeypatch):
    """The pairer looks when a player asks through its process, not at a
    rate: one that would otherwise wait a minute pairs two asks at once."""
    monkeypatch.setattr(pairing_module, "IDLE_SECONDS", 60.0)
    from tests.api.conftest import Api

    app = app_for(PAIR_PLAYERS=True)
    api = Api(app, app.test_client())
    ann, bob = player(api, "Ann"), player(api, "Bob")
    time.sleep(0.2)  # its first look, at its start, found nobody waiting
    asked = [ask(api, who[1], variant="spade", clock={"per_move_seconds": 77}).get_json() for who in (ann, bob)]
    deadline = time.monotonic() + 5
    while api.get(asked[0]["url"], token=ann[1]).get_json()["status"] == "waiting":
        assert time.monotonic() < deadline, "the asks were not paired within 5 s"
        time.sleep(0.05)
    assert api.get(asked[1]["url"], token=bob[1]).get_json()["status"] == "paired"

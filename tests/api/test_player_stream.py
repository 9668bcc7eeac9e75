"""A player's live stream (``GET /v1/players/me/stream``): ``your_turn``
for every game that waits for the player as it connects, then
``game_started``, ``your_turn`` and ``game_over`` as the player's games go
on, from this worker's appends and another's; nothing any seat of the
player's could not see; tickets; the per-player share of streams."""

from __future__ import annotations

import json
import threading
import time

import pytest

from service.web.current import services
from tests.api.conftest import ONE_HAND, Api
from tests.api.masscool import ALL_CODES
from tests.api.test_join import join, open_game, player
from tests.service.spec_check import check, sse_messages

pytestmark = pytest.mark.both_wirings

STREAM_SETTINGS = {"STREAM_MAX_SECONDS": 10.0, "STREAM_POLL_SECONDS": 30.0, "STREAM_KEEPALIVE_SECONDS": 30.0}


@pytest.fixture
def app(app_for):
    return app_for(**STREAM_SETTINGS)


class Listener(threading.Thread):
    """Reads a player's stream in the background: each message's event and data."""

    def __init__(self, client, token=None, query=""):
        super().__init__()
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        self.response = client.get(f"/v1/players/me/stream{query}", headers=headers)
        self.received: list[tuple[str, dict]] = []
        self.raw = b""
        self.start()

    def run(self):
        for chunk in self.response.response:
            self.raw += chunk
            for message in sse_messages(chunk.decode()):
                self.received.append((message["event"], json.loads(message["data"])))

    def wait_for(self, count: int, timeout: float = 5.0) -> list[tuple[str, dict]]:
        deadline = time.monotonic() + timeout
        while len(self.received) < count and time.monotonic() < deadline:
            time.sleep(0.01)
        return self.received

    def text(self) -> str:
        return json.dumps(self.received)


def awaited(api, game) -> list[int]:
    view = api.view(game)
    return view["awaiting"]["seats"] if view["awaiting"] else []


def move(api, game, seat_token):
    moves = api.get(f"{game.url}/moves", token=seat_token).get_json()["moves"]
    answer = api.post(f"{game.url}/play", json=moves[0], token=seat_token)
    assert answer.status_code == 200, answer.get_json()


@pytest.mark.parametrize("variant", ["cassino", "mass-cool-casino"])
def test_a_player_is_told_their_games_start_their_turns_and_their_ends(app, api, variant):
    """A whole game, Ann against Host: what Ann's stream says is what the
    views said of each command, in order, and no more."""
    ann = player(api)
    game = open_game(api, variant, seats=("Host", None), first_dealer=0, options=ONE_HAND if variant == "cassino"
                     else {})
    join(api, game, ann["token"])
    listener = Listener(app.test_client(), ann["token"], "?timeout=8")  # the whole game within it, under load too
    tokens = {0: game.tokens[0], 1: ann["token"]}
    expected: list[tuple[str, dict]] = []
    before = api.view(game)
    while before["status"] != "finished":
        seat = before["awaiting"]["seats"][0]
        if before["awaiting"]["command"] == "deal":
            assert api.post(f"{game.url}/deal", json={}, token=tokens[seat]).status_code == 200
        else:
            move(api, game, tokens[seat])
        after = api.view(game)
        said = {"game": game.id, "version": after["version"]}
        if before["status"] == "waiting":
            expected.append(("game_started", said))
        if 1 in (after["awaiting"] or {}).get("seats", []) and 1 not in before["awaiting"]["seats"]:
            expected.append(("your_turn", {**said, "deadline": None}))
        if after["status"] == "finished":
            expected.append(("game_over", {**said, "result": after["result"], "winners": after["winners"]}))
        before = after

    listener.join()
    check("GET", "/v1/players/me/stream", 200, listener.response.headers, listener.raw)
    assert listener.received == expected
    assert {"game_started", "your_turn", "game_over"} <= {event for event, _ in expected}
    assert not [code for code in ALL_CODES if f'"{code}"' in listener.text()]  # no card of any hand


def test_on_connecting_a_player_is_told_of_every_game_that_waits_for_them(app, api):
    ann = player(api)
    games = [open_game(api, seats=("Host", None), first_dealer=1) for _ in range(3)]
    for game in games:
        join(api, game, ann["token"])
        api.post(f"{game.url}/deal", json={}, token=ann["token"])  # Ann deals; Host plays first
    move(api, games[0], games[0].tokens[0])  # now games[0] waits for Ann; the others for Host
    move(api, games[2], games[2].tokens[0])

    listener = Listener(app.test_client(), ann["token"], "?timeout=0.5")
    listener.join()

    assert sorted(listener.received, key=lambda m: m[1]["game"]) == sorted(
        [("your_turn", {"game": g.id, "version": api.view(g)["version"], "deadline": None})
         for g in (games[0], games[2])], key=lambda m: m[1]["game"])
    check("GET", "/v1/players/me/stream", 200, listener.response.headers, listener.raw)


def test_a_player_is_told_nothing_of_games_they_hold_no_seat_in(app, api):
    ann, bob = player(api, "Ann"), player(api, "Bob")
    game = open_game(api, seats=("Host", None), first_dealer=0)
    listener = Listener(app.test_client(), ann["token"], "?timeout=1")
    join(api, game, bob["token"])
    api.post(f"{game.url}/deal", json={}, token=game.tokens[0])
    listener.join()
    assert listener.received == []


def test_a_ticket_opens_a_players_stream_once(app, api):
    ann = player(api)
    game = open_game(api, seats=("Host", None), first_dealer=1)
    join(api, game, ann["token"])
    api.post(f"{game.url}/deal", json={}, token=ann["token"])
    move(api, game, game.tokens[0])
    issued = api.post("/v1/players/me/stream-tickets", token=ann["token"])
    assert issued.status_code == 200
    ticket = issued.get_json()

    listener = Listener(app.test_client(), query=f"?ticket={ticket['ticket']}&timeout=0.3")
    listener.join()

    assert [event for event, _ in listener.received] == ["your_turn"]
    again = api.get(f"{ticket['stream']}&timeout=0.3")
    assert again.status_code == 401
    game_ticket = api.post(f"{game.url}/stream-tickets", token=ann["token"]).get_json()["ticket"]
    assert api.get(f"/v1/players/me/stream?ticket={game_ticket}&timeout=0.3").status_code == 401


@pytest.mark.parametrize("who, status", [("nobody", 401), ("operator", 403), ("seat", 401), ("bad", 401)])
def test_only_a_player_has_a_stream(api, operator, who, status):
    game = api.create()
    token = {"nobody": None, "operator": operator, "seat": game.tokens[0], "bad": "player.not-a-token"}[who]
    assert api.get("/v1/players/me/stream?timeout=0.2", token=token).status_code == status
    assert api.post("/v1/players/me/stream-tickets", token=token).status_code == status


def test_a_player_holds_a_share_of_the_workers_streams(app_for, wiring):
    app = app_for(**STREAM_SETTINGS, STREAM_LIMIT_PLAYER=2, STREAM_MAX_OPEN=100)
    api = Api(app, app.test_client())
    ann, bob = player(api, "Ann"), player(api, "Bob")
    game = open_game(api, seats=("Host", None))
    join(api, game, ann["token"])
    # A game's stream opened by Ann's token counts against Ann's share, as her own stream does.
    first = Listener(app.test_client(), ann["token"], "?timeout=2")
    game_stream = app.test_client().get(f"{game.url}/events/stream?timeout=2",
                                        headers={"Authorization": f"Bearer {ann['token']}"})

    refused = api.get("/v1/players/me/stream?timeout=1", token=ann["token"])
    assert refused.status_code == 429 and refused.get_json()["code"] == "too_many_streams"
    assert "Retry-After" in refused.headers
    assert api.get("/v1/players/me/stream?timeout=0.1", token=bob["token"]).status_code == 200
    game_stream.close()
    first.join()


def test_a_player_is_told_of_an_append_another_worker_made(app_for, database_url):
    """Two workers on one database: Ann's stream on one, the commands on
    the other; what she is told comes in the other's sealed notification."""
    streaming, acting = app_for(**STREAM_SETTINGS), app_for(**STREAM_SETTINGS)
    api = Api(acting, acting.test_client())
    ann = player(api)
    game = open_game(api, seats=("Host", None), first_dealer=1)
    join(api, game, ann["token"])
    listener = Listener(streaming.test_client(), ann["token"])  # the game waits for Ann to deal
    assert services(streaming).hub.listener.listening

    api.post(f"{game.url}/deal", json={}, token=ann["token"])
    move(api, game, game.tokens[0])

    told = listener.wait_for(3)
    assert [(event, said["version"]) for event, said in told] == [
        ("your_turn", 3), ("game_started", 4), ("your_turn", api.view(game)["version"])], told

"""GET /v1/games/{id}/events/stream (Server-Sent Events) and its tickets.

Streams here poll only every 30 seconds and keep quiet as long, so an event
that arrives within a second was pushed (by the process that appended it,
or by NOTIFY); tests that want otherwise change the app's settings first.
On both wirings.
"""

from __future__ import annotations

import json
import threading
import time

import psycopg
import pytest

from service.web.app import close_app, create_app
from tests.conftest import TEST_SETTINGS
from tests.service.spec_check import check, sse_messages

from .conftest import Api, DEADLINES_ON_CITUS, ONE_HAND, ORDERED_DECK, first_actions


pytestmark = pytest.mark.both_wirings


@pytest.fixture
def app(app_for):
    return app_for(STREAM_MAX_SECONDS=5.0, STREAM_POLL_SECONDS=30.0, STREAM_KEEPALIVE_SECONDS=30.0)


@pytest.fixture
def finished(api):
    game = api.create(first_dealer=1, options=ONE_HAND)
    api.deal(game, ORDERED_DECK)
    api.play(game)
    return game


@pytest.fixture
def dealt(api):
    game = api.create(first_dealer=1)
    api.deal(game, ORDERED_DECK)
    return game


def stream(api, game, query="", token=None, headers=None):
    return api.get(f"{game.url}/events/stream{query}", token=token, headers=headers)


def events_in(response) -> list[dict]:
    messages = sse_messages(response.get_data(as_text=True))
    for m in messages:
        data = json.loads(m["data"])
        assert m["id"] == str(data["version"]) and m["event"] == data["type"]
    return [json.loads(m["data"]) for m in messages]


class Reader(threading.Thread):
    """Reads a stream in the background, noting when each message came."""

    def __init__(self, client, path, headers=None):
        super().__init__()
        self.response = client.get(path, headers=headers or {})
        self.received: list[tuple[float, dict]] = []
        self.start()

    def run(self):
        for chunk in self.response.response:
            for message in sse_messages(chunk.decode()):
                self.received.append((time.monotonic(), json.loads(message["data"])))

    def versions(self) -> list[int]:
        return [data["version"] for _, data in self.received]

    def wait_for(self, count: int, timeout: float = 5.0) -> None:
        deadline = time.monotonic() + timeout
        while len(self.received) < count and time.monotonic() < deadline:
            time.sleep(0.01)


def test_the_stream_of_a_finished_game_is_each_callers_event_log_and_then_ends(api, operator, finished):
    for token in (None, finished.tokens[0], finished.tokens[1], operator):
        started = time.monotonic()
        response = stream(api, finished, token=token)
        assert response.status_code == 200 and response.mimetype == "text/event-stream"
        assert events_in(response) == api.events(finished, token)
        assert time.monotonic() - started < 2  # it ended after the last event, not at its time limit


def test_a_stream_resumes_after_last_event_id_else_after(api, finished):
    assert events_in(stream(api, finished, headers={"Last-Event-ID": "5"}))[0]["version"] == 6
    assert events_in(stream(api, finished, "?after=7"))[0]["version"] == 8
    assert events_in(stream(api, finished, "?after=7", headers={"Last-Event-ID": "3"}))[0]["version"] == 4
    everything = api.events(finished, None)
    assert events_in(stream(api, finished, "?after=0")) == everything


def test_a_finished_game_read_to_its_end_answers_204_so_eventsource_stops(api, operator, finished):
    last = api.view(finished)["version"]
    response = stream(api, finished, headers={"Last-Event-ID": str(last)})
    assert response.status_code == 204 and response.get_data() == b""


def test_new_events_arrive_as_they_are_appended(api, dealt):
    so_far = api.events(dealt, dealt.tokens[0])
    # The stream lasts long enough for a busy machine; the poll it must not wait for is 30 s.
    reader = Reader(api.client, f"{dealt.url}/events/stream?timeout=4",
                    headers={"Authorization": f"Bearer {dealt.tokens[0]}"})
    reader.wait_for(len(so_far))
    assert [data for _, data in reader.received] == so_far

    time.sleep(0.2)  # the stream is waiting now
    api.play(dealt, steps=1)
    appended = time.monotonic()
    reader.wait_for(len(so_far) + 1)

    assert len(reader.received) > len(so_far), "the new event never came"
    assert reader.received[len(so_far)][0] - appended < 3.0  # pushed, not read at the 30-second poll
    reader.join()
    check("GET", "/v1/games/<uuid:game_id>/events/stream", 200, reader.response.headers, b"")
    assert [data for _, data in reader.received] == api.events(dealt, dealt.tokens[0])


@pytest.mark.postgres
def test_without_notifications_the_stream_still_polls(api, app, dealt, monkeypatch):
    def refuse(*args, **kwargs):
        raise psycopg.OperationalError("no connection for listening")

    monkeypatch.setattr(psycopg, "connect", refuse)
    app.config["STREAM_POLL_SECONDS"] = 0.05
    before = api.view(dealt)["version"]
    reader = Reader(api.client, f"{dealt.url}/events/stream?timeout=1")
    reader.wait_for(before)

    api.play(dealt, steps=1)
    reader.join()

    assert reader.versions() == list(range(1, api.view(dealt)["version"] + 1))
    assert len(reader.versions()) > before


def test_keep_alive_comments_fill_the_silences(api, app, dealt):
    app.config["STREAM_KEEPALIVE_SECONDS"] = 0.05
    response = stream(api, dealt, "?timeout=0.3")
    assert response.get_data(as_text=True).count(": keep-alive\n\n") >= 3
    assert events_in(response) == api.events(dealt, None)


def test_a_ticket_opens_the_stream_as_its_caller_without_a_header(api, operator, finished):
    for token in (finished.tokens[1], None, operator):
        issued = api.post(f"{finished.url}/stream-tickets", token=token)
        assert issued.status_code == 200
        body = issued.get_json()
        assert token is None or token not in body["ticket"]
        response = api.get(body["stream"])
        assert events_in(response) == api.events(finished, token)


def test_a_ticket_is_good_for_its_own_games_stream_only(api, finished, dealt):
    ticket = api.post(f"{finished.url}/stream-tickets", token=finished.tokens[0]).get_json()["ticket"]
    forged = ticket[:-1] + ("A" if ticket[-1] != "A" else "B")
    for game, query in [(dealt, f"?ticket={ticket}"), (finished, f"?ticket={forged}"),
                        (finished, "?ticket=1.seat:0.x.y")]:
        refused = stream(api, game, query)
        assert refused.status_code == 401 and "ticket" in refused.get_json()["detail"]
    assert api.get(finished.url, token=ticket).status_code == 401  # not a bearer token


def test_an_app_without_an_operator_token_still_gives_working_tickets(database_url, dealt):
    app = create_app({**TEST_SETTINGS, "DATABASE_URL": database_url, "OPERATOR_TOKEN": None})
    try:
        api = Api(app, app.test_client())
        issued = api.post(f"{dealt.url}/stream-tickets", token=dealt.tokens[0]).get_json()
        assert events_in(api.get(issued["stream"] + "&timeout=0.01")) == api.events(dealt, dealt.tokens[0])
    finally:
        close_app(app)


def test_a_ticket_needs_a_game_and_a_valid_token(api, dealt):
    assert api.post("/v1/games/00000000-0000-0000-0000-000000000002/stream-tickets").status_code == 404
    assert api.post(f"{dealt.url}/stream-tickets", token="not-a-token").status_code == 401


def test_a_worker_keeps_only_so_many_streams_open(app, dealt):
    app.config["STREAM_MAX_OPEN"] = 1
    api = Api(app, app.test_client())
    first = api.client.get(f"{dealt.url}/events/stream")  # open, not read
    refused = stream(api, dealt)
    assert refused.status_code == 503 and refused.headers["Retry-After"]
    first.close()  # the server closes the body, read or not: the slot is free again
    assert stream(api, dealt, "?timeout=0.05").status_code == 200


@pytest.mark.parametrize("query,headers,field", [
    ("?timeout=0", {}, "timeout"),
    ("?timeout=nan", {}, "timeout"),
    ("?after=-1", {}, "after"),
    ("", {"Last-Event-ID": "five"}, "Last-Event-ID"),
])
def test_bad_cursors_and_timeouts_are_400(api, dealt, query, headers, field):
    response = stream(api, dealt, query, headers=headers)
    assert response.status_code == 400 and response.get_json()["errors"][0]["field"] == field


@pytest.mark.not_on_citus(DEADLINES_ON_CITUS)
def test_a_time_out_the_service_appends_arrives_on_the_stream(api, app):
    """Nobody called the API: the time keeper's events reach a waiting stream
    as any command's do."""
    from service.web.current import services

    created = api.post("/v1/games", json={"seats": [{"name": "Ann"}, {"name": "Bob"}], "first_dealer": 0,
                                          "clock": {"per_move_seconds": 1}}).get_json()
    url, token = f"/v1/games/{created['id']}", created["seats"][1]["token"]
    version = first_actions(api, url, [s["token"] for s in created["seats"]])["version"]  # then seat 0 has 1 s
    reader = Reader(api.client, f"{url}/events/stream?timeout=3", headers={"Authorization": f"Bearer {token}"})
    reader.wait_for(version)
    time.sleep(1.05)
    assert services(app).keeper.tick() >= 1  # a shared database may hold other tests' due games
    timed_out = time.monotonic()
    reader.wait_for(version + 3)
    assert reader.received[version][0] - timed_out < 1.0
    reader.join()
    assert [data["type"] for _, data in reader.received][-3:] == ["TimedOut", "SeedRevealed", "GameFinished"]

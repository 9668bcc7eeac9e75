"""Two ``casino serve`` instances (gevent workers) on one database, as two
machines behind a load balancer would be: a game played through both stays
one game, and a stream on one sees what the other appends."""

from __future__ import annotations

import json
import os
import threading
import urllib.error
import urllib.request

import pytest

from tests.conftest import OPERATOR_TOKEN
from tests.service.spec_check import sse_messages
from tests.service.test_cli import Serving

from tests.api.conftest import ORDERED_DECK


def call(server: Serving, method: str, path: str, body=None, token=None, headers=None):
    request = urllib.request.Request(
        f"http://127.0.0.1:{server.port}{path}", method=method,
        data=None if body is None else json.dumps(body).encode(),
        headers={"Content-Type": "application/json", **({"Authorization": f"Bearer {token}"} if token else {}),
                 **(headers or {})})
    try:
        with urllib.request.urlopen(request, timeout=10) as answer:
            return answer.status, json.loads(answer.read() or b"null")
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read() or b"null")


class StreamReader(threading.Thread):
    """Reads one instance's stream of a game to its end."""

    def __init__(self, server: Serving, game: str, seconds: float):
        super().__init__(daemon=True)
        self.url = f"http://127.0.0.1:{server.port}/v1/games/{game}/events/stream?timeout={seconds}"
        self.text = ""
        self.opened = threading.Event()
        self.start()

    def run(self):
        with urllib.request.urlopen(self.url, timeout=30) as response:
            self.opened.set()
            for line in response:
                self.text += line.decode()

    def versions(self) -> list[int]:
        return [int(m["id"]) for m in sse_messages(self.text)]


@pytest.fixture
def instances(tmp_path, database_url):
    environ = {k: v for k, v in os.environ.items() if k != "PROMETHEUS_MULTIPROC_DIR"}
    environ.update(DATABASE_URL=database_url, CASINO_OPERATOR_TOKEN=OPERATOR_TOKEN, CASINO_WORKERS="1",
                   CASINO_DATA_DIR=str(tmp_path / "data"))
    started = [Serving(tmp_path, environ, "a")]
    try:
        started.append(Serving(tmp_path, environ, "b"))
        yield started
    finally:
        for server in started:
            assert server.stop() == 0


def test_two_instances_play_one_game_and_stream_each_others_events(instances):
    a, b = instances
    status, created = call(a, "POST", "/v1/games", {"variant": "cassino", "seats": [{"name": "A"}, {"name": "B"}],
                                                    "first_dealer": 1})
    assert status == 201
    game, tokens = created["id"], [s["token"] for s in created["seats"]]
    reader = StreamReader(a, game, seconds=6)
    assert reader.opened.wait(10)
    assert call(b, "POST", f"/v1/games/{game}/deal", {"deck": ORDERED_DECK}, token=OPERATOR_TOKEN)[0] == 200

    # The same move through both at once: exactly one lands.
    barrier, statuses = threading.Barrier(2), []

    def send(server):
        barrier.wait()
        statuses.append(call(server, "POST", f"/v1/games/{game}/play", {"card": "AS", "action": "trail"},
                             token=tokens[0])[0])

    racers = [threading.Thread(target=send, args=(s,)) for s in (a, b)]
    for t in racers:
        t.start()
    for t in racers:
        t.join()
    assert sorted(statuses)[0] == 200 and statuses.count(200) == 1 and sorted(statuses)[1] in (409, 422)

    # The rest of the hand, alternately through each, from each seat's legal moves.
    for turn in range(6):
        server = (a, b)[turn % 2]
        view = call(server, "GET", f"/v1/games/{game}")[1]
        seat = view["turn"]
        moves = call(server, "GET", f"/v1/games/{game}/moves", token=tokens[seat])[1]["moves"]
        assert call(server, "POST", f"/v1/games/{game}/play", moves[0], token=tokens[seat])[0] == 200

    log = call(a, "GET", f"/v1/games/{game}/events", token=OPERATOR_TOKEN)[1]
    versions = [e["version"] for e in log["events"]]
    assert versions == list(range(1, len(versions) + 1))  # contiguous, one line of play
    reader.join(15)
    assert reader.versions() == versions  # every event appended through b reached a's stream, once

"""A closed stream's share is free as soon as its client has gone, on a
real ``casino serve`` (gunicorn, one worker) over a PostgreSQL of its own
(issue 33): a client that drops its connection and opens the stream again
is not told 429 until the old stream's next keep-alive finds it gone."""

from __future__ import annotations

import json
import socket
import time
from collections.abc import Iterator

import pytest

from service.stream_limits import SWEEP_SECONDS
from tests.service.test_faults import Server, served

pytestmark = pytest.mark.postgres

SHARE = 2  # the streams callers without a token at one address may hold


@pytest.fixture(scope="module")
def server() -> Iterator[Server]:
    with served("casino_shares", {"CASINO_WORKERS": "1", "CASINO_STREAM_LIMIT_ADDRESS": str(SHARE)}) as running:
        yield running


def open_stream(server: Server, game_id: str) -> tuple[socket.socket, int]:
    """A public stream of the game on a connection of its own, and the status it was answered."""
    sock = socket.create_connection(("127.0.0.1", server.port), timeout=10)
    sock.sendall(f"GET /v1/games/{game_id}/events/stream?timeout=60 HTTP/1.1\r\nHost: x\r\n\r\n".encode())
    status = int(sock.makefile("rb").readline().split()[1])
    return sock, status


def test_a_stream_whose_client_went_frees_its_share_at_once(server):
    status, _, body = server.request("POST", "/v1/games", {"seats": 2})
    assert status == 201
    game_id = json.loads(body)["id"]
    held = [open_stream(server, game_id) for _ in range(SHARE)]
    assert [status for _, status in held] == [200] * SHARE
    over, status = open_stream(server, game_id)
    assert status == 429  # and the worker looked at the streams it holds: their clients are there
    over.close()
    time.sleep(SWEEP_SECONDS)  # it looks again no sooner
    started = time.monotonic()
    held[0][0].close()  # the client goes (a network change, say): the next keep-alive is 15 s away
    again, status = open_stream(server, game_id)
    assert status == 200 and time.monotonic() - started < 5
    for sock in (again, held[1][0]):
        sock.close()

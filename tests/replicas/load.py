"""Players under a failover, and what became of what they were told.

``Load`` runs clients that play games over HTTP as careful clients do:
each command is sent with an ``Idempotency-Key`` (and the same
``X-Request-Id``, which the service stores in its events' metadata), and
sent again under that key when its connection is cut or it is answered 503,
until it gets an answer. Each client creates a game, then deals and plays
whatever the game awaits (asking ``/moves`` for a legal move), and starts
another when it ends. Every command answered 2xx is *acknowledged*, noted
with when the attempt that got the answer was sent and when the answer came.

A ``Follower`` reads one game's live stream meanwhile, as a browser
would: when its connection is cut it opens the stream again after the last
event it got (``Last-Event-ID``).

``audit`` then reads the events: an acknowledged command whose events are
not there was *lost*; a command whose events are there twice (two commands'
worth under one request id) was *doubled*. The fault test
(``test_durability.py``) and ``bench/replicas.py`` both use them.
"""

from __future__ import annotations

import http.client
import json
import socket
import threading
import time
import uuid
from collections import defaultdict
from dataclasses import dataclass, field

import psycopg

#: How long a client sends one command again before it counts it unanswered.
SEND_SECONDS = 60.0
#: Commands a client plays in one game before it starts another.
COMMANDS_PER_GAME = 24


@dataclass(frozen=True)
class Acknowledged:
    game: str
    sent_at: float  # when the attempt that was answered was sent (monotonic)
    answered_at: float


@dataclass(frozen=True)
class Wrong:
    """An answer that is neither right nor a 503 with Retry-After, and the
    game it was about (None before the game was created)."""

    game: str | None
    what: str

    def __str__(self) -> str:
        return self.what


@dataclass
class Load:
    """``clients`` players against the service on ``port``, each waiting
    ``pace`` seconds between commands and playing ``commands_per_game`` in a game."""

    port: int
    clients: int = 8
    pace: float = 0.0
    commands_per_game: int = COMMANDS_PER_GAME
    run: str = field(default_factory=lambda: uuid.uuid4().hex[:12])
    acknowledged: dict[str, Acknowledged] = field(default_factory=dict)  # by request id
    unanswered: int = 0
    refused: int = 0  # answers 503 with Retry-After (each sent again)
    bad: list[Wrong] = field(default_factory=list)
    _stop: threading.Event = field(default_factory=threading.Event)
    _lock: threading.Lock = field(default_factory=threading.Lock)
    _threads: list[threading.Thread] = field(default_factory=list)

    @property
    def player(self) -> str:
        """Seat 0's name in this load's games, and in no other."""
        return f"load-{self.run}"

    def start(self) -> None:
        self._threads = [threading.Thread(target=self._client, daemon=True) for _ in range(self.clients)]
        for thread in self._threads:
            thread.start()

    def stop(self) -> None:
        self._stop.set()
        for thread in self._threads:
            thread.join(SEND_SECONDS + 10)

    def games(self) -> list[str]:
        """The games acknowledged so far, first created first."""
        with self._lock:
            return list(dict.fromkeys(a.game for a in self.acknowledged.values()))

    def sent_after(self, moment: float) -> list[Acknowledged]:
        """The commands acknowledged to an attempt sent after ``moment`` (monotonic)."""
        with self._lock:
            return [a for a in self.acknowledged.values() if a.sent_at > moment]

    def first_answer_after(self, moment: float) -> float | None:
        """When the first command sent after ``moment`` was acknowledged."""
        return min((a.answered_at for a in self.sent_after(moment)), default=None)

    # -- one client ---------------------------------------------------------------

    def _client(self) -> None:
        connection = _Connection(self.port)
        try:
            while not self._stop.is_set():
                self._play_a_game(connection)
        finally:
            connection.close()

    def _play_a_game(self, connection: _Connection) -> None:
        body = {"seats": [{"name": self.player}, {"name": "Bob"}], "first_dealer": 1}
        created = self._command(connection, "/v1/games", body, None, str(uuid.uuid4()), 201)
        if created is None:
            return
        game, tokens, answer = created["id"], [s["token"] for s in created["seats"]], created
        for _ in range(self.commands_per_game):
            time.sleep(self.pace)
            awaiting = answer["game"]["awaiting"]
            if self._stop.is_set() or awaiting is None or awaiting["command"] not in ("deal", "play"):
                return
            token = tokens[awaiting["seats"][0]]
            if awaiting["command"] == "deal":
                path, body = f"/v1/games/{game}/deal", {}
            else:
                moves = self._read(connection, f"/v1/games/{game}/moves", token, game)
                if moves is None:
                    return
                path, body = f"/v1/games/{game}/play", moves["moves"][0]
            answer = self._command(connection, path, body, token, uuid.uuid4().hex, 200, game)
            if answer is None:
                return

    def _command(self, connection, path: str, body: dict, token: str | None, key: str, ok: int,
                 game: str | None = None) -> dict | None:
        """Send a command under ``key`` until it is answered; its answer if
        that was ``ok`` (the command is then acknowledged), else None."""
        headers = {"Idempotency-Key": key, "X-Request-Id": key}
        answer = self._until_answered(connection, "POST", path, body, token, headers)
        if answer is None:
            with self._lock:
                self.unanswered += 1
            return None
        status, found, sent_at = answer
        if status != ok:
            self._wrong(game, f"{status} to POST {path}: {found}")
            return None
        with self._lock:
            self.acknowledged[key] = Acknowledged(game or found["id"], sent_at, time.monotonic())
        return found

    def _read(self, connection, path: str, token: str, game: str) -> dict | None:
        answer = self._until_answered(connection, "GET", path, None, token, {})
        if answer is None or answer[0] != 200:
            self._wrong(game, f"{answer} to GET {path}")
            return None
        return answer[1]

    def _until_answered(self, connection, method, path, body, token, headers) -> tuple[int, dict, float] | None:
        """The status and body of the first answer that is not a 503, and
        when the attempt it answered was sent; None after SEND_SECONDS."""
        deadline = time.monotonic() + SEND_SECONDS
        while time.monotonic() < deadline:
            sent_at = time.monotonic()
            try:
                status, answered_headers, found = connection.request(method, path, body, token, headers)
            except (OSError, http.client.HTTPException):
                connection.close()  # cut: not acknowledged; send it again
                time.sleep(0.05)
                continue
            if status != 503:
                return status, found, sent_at
            if not answered_headers.get("Retry-After", "").isdigit():
                self._wrong(None, f"503 without Retry-After to {method} {path}")
            else:
                with self._lock:
                    self.refused += 1
            time.sleep(0.1)
        return None

    def _wrong(self, game: str | None, what: str) -> None:
        with self._lock:
            self.bad.append(Wrong(game, what))


class _Connection:
    """One keep-alive HTTP connection, made again after it is cut."""

    def __init__(self, port: int):
        self._port = port
        self._conn: http.client.HTTPConnection | None = None

    def request(self, method, path, body, token, headers) -> tuple[int, dict, dict]:
        if self._conn is None:
            self._conn = http.client.HTTPConnection("127.0.0.1", self._port, timeout=30)
        sent = dict(headers)
        if token is not None:
            sent["Authorization"] = f"Bearer {token}"
        payload = None
        if body is not None:
            payload = json.dumps(body).encode()
            sent["Content-Type"] = "application/json"
        self._conn.request(method, path, body=payload, headers=sent)
        response = self._conn.getresponse()
        raw = response.read()
        return response.status, dict(response.getheaders()), json.loads(raw) if raw else {}

    def close(self) -> None:
        if self._conn is not None:
            self._conn.close()
            self._conn = None


class Follower(threading.Thread):
    """One game's live stream, read as a browser reads it: each event's
    version in ``versions``, in the order they came; after a cut, it opens
    the stream again after the last one (``resumed`` counts how often)."""

    def __init__(self, port: int, game: str):
        super().__init__(daemon=True)
        self._port, self._game = port, game
        self.versions: list[int] = []
        self.resumed = 0
        self._stopping = threading.Event()
        self._conn: http.client.HTTPConnection | None = None
        self.start()

    def run(self) -> None:
        while not self._stopping.is_set():
            try:
                self._read()
            except (OSError, http.client.HTTPException):
                pass
            if not self._stopping.is_set():
                self.resumed += 1
                time.sleep(0.2)

    def _read(self) -> None:
        self._conn = conn = http.client.HTTPConnection("127.0.0.1", self._port, timeout=30)
        try:
            last = self.versions[-1] if self.versions else 0
            conn.request("GET", f"/v1/games/{self._game}/events/stream", headers={"Last-Event-ID": str(last)})
            response = conn.getresponse()
            if response.status != 200:
                response.read()
                return
            for line in iter(response.readline, b""):  # a keep-alive comment comes every 15 s at least
                if line.startswith(b"id: "):
                    self.versions.append(int(line[4:]))
        finally:
            conn.close()

    def wait_for(self, version: int, seconds: float) -> None:
        deadline = time.monotonic() + seconds
        while (not self.versions or self.versions[-1] < version) and time.monotonic() < deadline:
            time.sleep(0.05)

    def stop(self) -> None:
        self._stopping.set()
        if self._conn is not None and self._conn.sock is not None:
            self._conn.sock.shutdown(socket.SHUT_RDWR)
        self.join(10)


@dataclass(frozen=True)
class Audit:
    acknowledged: int
    lost: list[str]  # request ids acknowledged whose events are not stored
    doubled: list[str]  # request ids whose events are stored for two commands
    games: int


def audit(load: Load, database_url: str) -> Audit:
    """What the database holds of the load's acknowledged commands, in
    every game the load made (acknowledged or not: a creation applied twice
    is two games)."""
    with psycopg.connect(database_url, autocommit=True, connect_timeout=10) as conn:
        rows = conn.execute(
            "SELECT e.metadata ->> 'request_id', e.metadata ->> 'command_id' FROM events e"
            " JOIN games g ON g.id = e.game_id WHERE g.player_names @> ARRAY[%s]", (load.player,)).fetchall()
        (games,) = conn.execute("SELECT count(*) FROM games WHERE player_names @> ARRAY[%s]",
                                (load.player,)).fetchone()
    commands: dict[str, set[str]] = defaultdict(set)
    for request_id, command_id in rows:
        commands[request_id].add(command_id)
    lost = [key for key in load.acknowledged if key not in commands]
    doubled = [key for key, ids in commands.items() if len(ids) > 1]
    return Audit(len(load.acknowledged), lost, doubled, games)

"""The HTTP service, end to end, next to the floor its stack allows.

Run from the repository root::

    .venv/bin/python bench/service.py [--seconds 24] [--clients 16]

One run, one fresh embedded PostgreSQL (in a temporary directory, deleted at
the end), and four measurements against it:

1. ``pg_insert_tps``: raw PostgreSQL. ``--clients`` threads, each with its
   own psycopg connection, each transaction one INSERT and its COMMIT.
2. ``floor_per_s``: a bare Flask app (``floor_app`` below) under gunicorn
   with the service's own settings (``service.ops.serve.options``:
   workers, threads, logging) and a psycopg_pool pool configured like the
   service's (autocommit, min 1, max = threads, same timeout); its one
   endpoint does one INSERT and COMMIT per request.
3. ``commands_per_s``, ``p50_ms``, ``p99_ms``: ``casino serve`` itself, as
   production runs it (same environment overrides), on the same database.
   Each client replays games recorded beforehand with the domain library
   (see ``Script``) over one keep-alive connection: it creates a game, the
   operator deals each hand a recorded deck, and the seats play their
   recorded moves with their own tokens. Only the command POSTs (deal, play)
   count and are timed; creating games is not counted, but its cost is in
   the figures.
4. ``long_game_slowdown``: the p50 of a play on a game ~400 events long over
   the p50 of a play on games ~10 events long, measured alternately on the
   idle service, one connection per seat as two players would have.
5. ``computer_play_ratio``: the p50 of a person's play against one
   computer seat over the p50 of a play between two people, alternately on
   the idle service (``computer_p50_ms``, ``people_p50_ms``). The computer
   answers after the person's play is answered (``service.turns``): the
   client waits for it, untimed, before its next play.

Both servers run side by side and the floor and service runs alternate in
``--rounds`` rounds, so that whatever else the machine is doing weighs on
both alike: ``ratio`` is measured within one run. Next to each figure the
bench prints the CPU each party used per request (clients, server,
PostgreSQL), what PostgreSQL's sessions were doing (sampled from
pg_stat_activity: running and on what, waiting for a lock, idle in a
transaction) and how gunicorn spread the clients' connections over its
workers. The last line is one JSON object.
"""

from __future__ import annotations

import argparse
import http.client
import itertools
import json
import os
import random
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
# Run as a script, this file's directory comes first on sys.path, and this
# file is named like the service package: put the repository root first.
HERE = str(Path(__file__).resolve().parent)
sys.path[:] = [str(ROOT)] + [p for p in sys.path if p not in (str(ROOT), HERE, "")]

from domain import cassino, full_deck  # noqa: E402 - the bots' own copy of the rules, after the path fix above

#: ``p99_ms`` is at most this many times the floor's p99 of the same run.
TARGETS = {"ratio": 0.6, "p99_over_floor_p99": 1.5, "long_game_slowdown": 1.2, "computer_play_ratio": 1.2}
OPERATOR_TOKEN = "bench-operator-token"
# The seed of recorded games (see record).
RECORDING_SEED = bytes(32)
ENDLESS = {"target": 10000, "count_out": False}  # a game that never ends


# ---------------------------------------------------------------------------
# The floor: a bare Flask app, one INSERT + COMMIT per request.
# ---------------------------------------------------------------------------

FLOOR_TABLE = """
    CREATE TABLE IF NOT EXISTS bench_floor (
        id      bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        payload jsonb       NOT NULL,
        at      timestamptz NOT NULL DEFAULT now()
    )
"""
RAW_TABLE = FLOOR_TABLE.replace("bench_floor", "bench_raw")


def floor_app(database_url: str, pool_max_size: int):
    """The floor app: POST /floor inserts its JSON body and answers the new id."""
    from flask import Flask, request
    from psycopg.types.json import Jsonb
    from psycopg_pool import ConnectionPool

    from service.web.app import DEFAULTS, settings_from_environment

    config = {**DEFAULTS, **settings_from_environment(os.environ)}
    app = Flask("floor")
    pool = ConnectionPool(
        database_url,
        min_size=config["DB_POOL_MIN_SIZE"],
        max_size=pool_max_size,
        timeout=config["DB_POOL_TIMEOUT"],
        kwargs={"autocommit": True},
        name="floor",
        open=True,
    )

    @app.post("/floor")
    def insert():
        # Autocommit, as the service's pool: the INSERT is its own
        # transaction, committed (and flushed) before the answer.
        with pool.connection() as conn:
            (ident,) = conn.execute(
                "INSERT INTO bench_floor (payload) VALUES (%s) RETURNING id",
                (Jsonb(request.get_json()),),
            ).fetchone()
        return {"id": ident}

    @app.get("/healthz")
    def healthz():
        return {"status": "ok"}

    return app


def serve_floor(port: int, database_url: str) -> None:
    """The floor subprocess: gunicorn with ``casino serve``'s settings."""
    from gunicorn.app.base import BaseApplication

    from service.ops import serve as gunicorn_conf

    options = gunicorn_conf.options("127.0.0.1", port)
    # As `casino serve` does: one connection per thread unless configured.
    pool_max_size = int(os.environ.get("CASINO_DB_POOL_MAX_SIZE") or options["threads"])

    class Floor(BaseApplication):
        def load_config(self):
            for key, value in options.items():
                self.cfg.set(key, value)
            self.cfg.set("proc_name", "casino-bench-floor")

        def load(self):
            return floor_app(database_url, pool_max_size)

    Floor().run()


# ---------------------------------------------------------------------------
# HTTP clients
# ---------------------------------------------------------------------------


class Client:
    """One keep-alive HTTP/1.1 connection, JSON in and out."""

    def __init__(self, port: int):
        self.port = port
        self.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)

    def request(self, method: str, path: str, body=None, token: str | None = None,
                headers: dict | None = None) -> tuple[int, object, float]:
        """(status, decoded JSON or None, seconds from sending to the last byte read)."""
        hdrs = {"Accept": "application/json"}
        if headers:
            hdrs.update(headers)
        payload = None
        if body is not None:
            payload = json.dumps(body).encode()
            hdrs["Content-Type"] = "application/json"
        if token is not None:
            hdrs["Authorization"] = f"Bearer {token}"
        for attempt in (1, 2):
            started = time.perf_counter()
            try:
                self.conn.request(method, path, body=payload, headers=hdrs)
                response = self.conn.getresponse()
                data = response.read()
            except (http.client.HTTPException, ConnectionError):
                # The server closed a kept-alive connection: reconnect once.
                self.conn.close()
                self.conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
                if attempt == 2:
                    raise
                continue
            elapsed = time.perf_counter() - started
            return response.status, (json.loads(data) if data else None), elapsed
        raise AssertionError("unreachable")

    def close(self) -> None:
        self.conn.close()


class Tally:
    """One client's counts and command latencies."""

    def __init__(self):
        self.latencies: list[float] = []
        self.errors: dict[str, int] = {}
        self.games_created = 0
        self.games_finished = 0

    def error(self, what: str) -> None:
        self.errors[what] = self.errors.get(what, 0) + 1


class CommandFailed(Exception):
    pass


@dataclass(frozen=True)
class Step:
    """One recorded command, and the game's version after it."""

    name: str  # "deal" or "play"
    seat: int | None  # the seat that plays; None for the operator's deal
    body: dict
    version: int


@dataclass(frozen=True)
class Script:
    """A game recorded beforehand with the domain library: the operator
    deals decks shuffled here (as in duplicate play) and the seats play
    moves picked at random from ``legal_moves``. Replayed over HTTP, it
    makes every request a command whose answer is known, and leaves the
    clients the work a floor client does: sending requests, reading answers.
    """

    first_dealer: int
    options: dict
    steps: tuple[Step, ...]


def record(rng: random.Random, options: dict | None = None, until_version: int | None = None) -> Script:
    """A whole game, or its first ``until_version`` events or so."""
    first_dealer = rng.randrange(2)
    options = options or {}
    state = cassino.fold(cassino.decide(None, cassino.CreateGame(
        "cassino", ("Ann", "Bob"), first_dealer, dict(options), seed=RECORDING_SEED)))
    steps = []
    while state.status != "finished" and (until_version is None or state.version < until_version):
        if state.status in ("waiting", "hand_over"):
            deck = list(full_deck())
            rng.shuffle(deck)
            command = cassino.Deal(tuple(deck))
            step = ("deal", None, {"deck": [str(c) for c in deck]})
        else:
            seat = state.turn
            move = rng.choice(cassino.legal_moves(state, seat).first(limit=20).moves)
            command = cassino.Play(seat, move, next_seed=RECORDING_SEED)
            step = ("play", seat, move.to_dict())
        state = cassino.fold(cassino.decide(state, command), state)
        steps.append(Step(*step, version=state.version))
    return Script(first_dealer, options, tuple(steps))


class Player:
    """Replays one recorded game over HTTP, one command at a time.

    ``clients`` is one connection for every seat, or one per seat.
    """

    def __init__(self, clients: Client | list[Client], script: Script, tally: Tally, *,
                 idempotency: bool = True):
        self.clients = clients if isinstance(clients, list) else [clients, clients]
        self.script = script
        self.tally = tally
        self.idempotency = idempotency
        self.game_id: str | None = None
        self.tokens: list[str] = []
        self.version = 0
        self.done = 0  # steps sent

    def create(self) -> None:
        body = {"variant": "cassino", "seats": [{"name": "Ann"}, {"name": "Bob"}],
                "options": self.script.options, "first_dealer": self.script.first_dealer}
        status, out, _ = self.clients[0].request("POST", "/v1/games", body)
        if status != 201:
            self.tally.error(f"create {status}")
            raise CommandFailed(f"create answered {status}: {out}")
        self.game_id = out["id"]
        self.tokens = [s["token"] for s in out["seats"]]
        self.version = out["game"]["version"]
        self.tally.games_created += 1

    @property
    def finished(self) -> bool:
        return self.done == len(self.script.steps)

    @property
    def next_name(self) -> str:
        return self.script.steps[self.done].name

    def step(self, timed: list[float] | None = None) -> str:
        """The next command; its latency goes to ``timed`` (default: the
        tally). Returns the command's name."""
        step = self.script.steps[self.done]
        client = self.clients[step.seat or 0]
        token = OPERATOR_TOKEN if step.seat is None else self.tokens[step.seat]
        headers = {"Idempotency-Key": f"{step.name}-{self.version}"} if self.idempotency else {}
        code, out, seconds = client.request("POST", f"/v1/games/{self.game_id}/{step.name}", step.body,
                                            token=token, headers=headers)
        if code != 200:
            self.tally.error(f"{step.name} {code}")
            raise CommandFailed(f"{step.name} answered {code}: {out}")
        if out["version"] != step.version:
            raise CommandFailed(f"the game is at version {out['version']}, not {step.version} as recorded")
        (self.tally.latencies if timed is None else timed).append(seconds)
        self.version = step.version
        self.done += 1
        if self.finished and out["game"]["status"] == "finished":
            self.tally.games_finished += 1
        return step.name


def run_clients(clients: int, seconds: float, work, during=None) -> tuple[list[Tally], float]:
    """Run ``work(index, tally, stop)`` in ``clients`` threads for ``seconds``;
    ``during()``, if given, is called once, a second (at most half the run) in.

    Returns the tallies and the wall time from the start to the last
    thread's end (each thread finishes the request it is in).
    """
    tallies = [Tally() for _ in range(clients)]
    stop = threading.Event()
    start = threading.Barrier(clients + 1)

    def run(i: int) -> None:
        start.wait()
        try:
            work(i, tallies[i], stop)
        except Exception as error:  # noqa: BLE001 - counted and shown, not fatal
            tallies[i].error(f"{type(error).__name__}: {error}"[:160])

    threads = [threading.Thread(target=run, args=(i,), daemon=True) for i in range(clients)]
    for t in threads:
        t.start()
    start.wait()
    began = time.perf_counter()
    if during is not None:
        time.sleep(min(1.0, seconds / 2))
        during()
    time.sleep(max(0.0, seconds - (time.perf_counter() - began)))
    stop.set()
    for t in threads:
        t.join(60)
    return tallies, time.perf_counter() - began


# ---------------------------------------------------------------------------
# Where the time goes: CPU, PostgreSQL sessions, connections per worker
# ---------------------------------------------------------------------------


def tree_cpu(pid: int) -> float:
    """CPU seconds (user + system) used so far by process ``pid`` and its
    descendants, the ones already reaped included."""
    import psutil

    try:
        root = psutil.Process(pid)
        t = root.cpu_times()
        total = t.user + t.system + t.children_user + t.children_system
        for child in root.children(recursive=True):
            try:
                c = child.cpu_times()
                total += c.user + c.system
            except psutil.NoSuchProcess:
                pass
        return total
    except psutil.NoSuchProcess:
        return 0.0


def profile(pid: int, output: Path) -> subprocess.Popen:
    """py-spy recording the server ``pid`` and its workers, samples taken
    while they hold the GIL, into ``output``: a flame graph, or collapsed
    stacks if its name ends in .txt. Stop it with ``stop_profile``."""
    return subprocess.Popen(
        [str(Path(sys.executable).with_name("py-spy")), "record", "--pid", str(pid),
         "--subprocesses", "--gil", "--nonblocking", "--rate", "200", "--output", str(output.resolve()),
         "--format", "raw" if output.suffix == ".txt" else "flamegraph"],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def stop_profile(profiler: subprocess.Popen) -> None:
    profiler.send_signal(signal.SIGINT)  # py-spy writes its file on SIGINT
    profiler.wait(30)


class CpuMeter:
    """CPU used by the bench's own process (the clients), the server under
    test and PostgreSQL, summed over the spans measured."""

    def __init__(self, postgres_pid: int, server_pid: int | None = None):
        self.pids = {"clients": None, "server": server_pid, "postgres": postgres_pid}
        self.used = {k: 0.0 for k, p in self.pids.items() if k == "clients" or p is not None}
        self.wall = 0.0

    def _read(self) -> dict[str, float]:
        own = os.times()
        return {k: own.user + own.system if k == "clients" else tree_cpu(self.pids[k]) for k in self.used}

    @contextmanager
    def measure(self):
        began, wall = self._read(), time.perf_counter()
        try:
            yield self
        finally:
            ended = self._read()
            self.wall += time.perf_counter() - wall
            for k in self.used:
                self.used[k] += ended[k] - began[k]

    def per(self, count: int) -> dict[str, float]:
        return {k: v / count * 1000 for k, v in self.used.items()} if count else {}

    def describe(self, count: int, unit: str) -> str:
        cores = os.cpu_count() or 1
        busy = sum(self.used.values()) / self.wall / cores * 100 if self.wall else 0.0
        parts = ", ".join(f"{k} {v:.2f}" for k, v in self.per(count).items())
        return f"CPU ms per {unit}: {parts} (together {busy:.0f}% of the {cores} cores)"


class PgActivity:
    """Samples pg_stat_activity every ``interval`` seconds over the spans
    measured: how many of the database's sessions are running a statement,
    how many of those wait for a lock, how many sit idle in a transaction
    (waiting for their client), and what the running ones wait on."""

    QUERY = """
        SELECT count(*) FILTER (WHERE state = 'active'),
               count(*) FILTER (WHERE state = 'active' AND wait_event_type = 'Lock'),
               count(*) FILTER (WHERE state LIKE 'idle in transaction%%'),
               array_agg(coalesce(wait_event_type || ' ' || wait_event, 'CPU'))
                   FILTER (WHERE state = 'active')
        FROM pg_stat_activity
        WHERE datname = current_database() AND pid <> pg_backend_pid()
    """
    NAMES = ("active", "lock_wait", "idle_in_transaction")

    def __init__(self, database_url: str, interval: float = 0.02):
        self.url = database_url
        self.interval = interval
        self.samples: list[tuple] = []

    @contextmanager
    def measure(self):
        import psycopg

        stop = threading.Event()
        with psycopg.connect(self.url, autocommit=True) as conn:
            def sample() -> None:
                while not stop.wait(self.interval):
                    self.samples.append(conn.execute(self.QUERY).fetchone())

            thread = threading.Thread(target=sample, daemon=True)
            thread.start()
            try:
                yield self
            finally:
                stop.set()
                thread.join()

    def means(self) -> dict[str, float]:
        n = max(1, len(self.samples))
        return {name: sum(s[i] for s in self.samples) / n for i, name in enumerate(self.NAMES)}

    def waits(self) -> str:
        """What running statements were doing, most often first."""
        doing = [w for s in self.samples for w in (s[-1] or [])]
        counts = sorted(((doing.count(d), d) for d in set(doing)), reverse=True)
        return ", ".join(f"{d} {100 * c / len(doing):.0f}%" for c, d in counts[:4])

    def describe(self) -> str:
        m = self.means()
        return (f"PostgreSQL sessions (mean of {len(self.samples)} samples): {m['active']:.2f} running a "
                f"statement ({self.waits()}), {m['lock_wait']:.2f} of them waiting for a lock; "
                f"{m['idle_in_transaction']:.2f} idle in a transaction")


def connections_per_worker(server_pid: int, port: int) -> list[int]:
    """How many client connections each gunicorn worker holds now, busiest first."""
    import psutil

    counts = []
    # Under `casino serve` the server's process runs gunicorn's master, whose
    # children are the workers: the workers are the processes without children.
    workers = [p for p in psutil.Process(server_pid).children(recursive=True) if not p.children()]
    for worker in workers:
        try:
            conns = worker.net_connections(kind="tcp")
        except psutil.Error:  # gone, or not ours to look at
            continue
        counts.append(sum(1 for c in conns if c.status == psutil.CONN_ESTABLISHED
                          and c.laddr and c.laddr.port == port))
    return sorted(counts, reverse=True)


# ---------------------------------------------------------------------------
# Figures
# ---------------------------------------------------------------------------


def percentile(values: list[float], q: float) -> float:
    """The q-th percentile (0-100), nearest rank."""
    if not values:
        return float("nan")
    ordered = sorted(values)
    rank = max(1, min(len(ordered), round(q / 100 * len(ordered) + 0.5)))
    return ordered[rank - 1]


class Results:
    """Tallies of one kind of run, summed over its rounds."""

    def __init__(self):
        self.tallies: list[Tally] = []
        self.wall = 0.0

    def add(self, tallies: list[Tally], wall: float) -> dict:
        self.tallies += tallies
        self.wall += wall
        return summarise(tallies, wall)

    def summary(self) -> dict:
        return summarise(self.tallies, self.wall)


def summarise(tallies: list[Tally], wall: float) -> dict:
    latencies = [x for t in tallies for x in t.latencies]
    errors: dict[str, int] = {}
    for t in tallies:
        for k, v in t.errors.items():
            errors[k] = errors.get(k, 0) + v
    return {
        "count": len(latencies),
        "per_s": len(latencies) / wall if wall else 0.0,
        "p50_ms": percentile(latencies, 50) * 1000,
        "p90_ms": percentile(latencies, 90) * 1000,
        "p99_ms": percentile(latencies, 99) * 1000,
        "max_ms": max(latencies, default=float("nan")) * 1000,
        "errors": errors,
        "games_created": sum(t.games_created for t in tallies),
        "games_finished": sum(t.games_finished for t in tallies),
    }


def fmt_run(name: str, s: dict) -> str:
    line = (f"  {name:<9} {s['per_s']:8.1f}/s  ({s['count']} timed)  p50 {s['p50_ms']:6.2f} ms  "
            f"p90 {s['p90_ms']:6.2f} ms  p99 {s['p99_ms']:6.2f} ms  max {s['max_ms']:7.2f} ms")
    if s["errors"]:
        line += f"\n            errors: {s['errors']}"
    return line


# ---------------------------------------------------------------------------
# Servers in subprocesses
# ---------------------------------------------------------------------------


def stop(servers: list[Server], embedded) -> None:
    """Stop the servers, then the embedded PostgreSQL (if it was started)."""
    for server in servers:
        server.stop()
    if embedded is not None:
        embedded.stop()


def postmaster_pid(pgdata: Path) -> int:
    """The PostgreSQL server's process id, from its data directory."""
    return int((pgdata / "postmaster.pid").read_text().split()[0])


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Server:
    """A server in its own process group, its output in a log file; ready
    once ``ready`` answers 200."""

    def __init__(self, argv: list[str], env: dict[str, str], log: Path, ready: str, cwd: Path = ROOT):
        self.port = int(argv[argv.index("--port") + 1])
        self.log = log
        with log.open("wb") as out:
            self.process = subprocess.Popen(argv, env=env, cwd=cwd, stdout=out, stderr=subprocess.STDOUT,
                                            start_new_session=True)
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"{argv} exited:\n{self.tail()}")
            try:
                conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=2)
                conn.request("GET", ready)
                ok = conn.getresponse().status == 200
                conn.close()
                if ok:
                    return
            except OSError:
                pass
            time.sleep(0.1)
        self.stop()
        raise RuntimeError(f"{argv} never got ready:\n{self.tail()}")

    @property
    def pid(self) -> int:
        return self.process.pid

    def tail(self) -> str:
        return self.log.read_text(errors="replace")[-3000:]

    def stop(self) -> None:
        if self.process.poll() is not None:
            return
        self.process.send_signal(signal.SIGTERM)  # gunicorn: a graceful stop of every worker
        try:
            self.process.wait(timeout=35)
        except subprocess.TimeoutExpired:
            os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait()


def server_env(database_url: str, workdir: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k != "PROMETHEUS_MULTIPROC_DIR"}
    env.update(DATABASE_URL=database_url, CASINO_OPERATOR_TOKEN=OPERATOR_TOKEN,
               CASINO_DATA_DIR=str(workdir / "data"), PYTHONPATH=str(ROOT))
    return env


# ---------------------------------------------------------------------------
# The loads
# ---------------------------------------------------------------------------


def pg_load(database_url: str, clients: int, seconds: float) -> tuple[list[Tally], float]:
    import psycopg
    from psycopg.types.json import Jsonb

    conns = [psycopg.connect(database_url, autocommit=True) for _ in range(clients)]

    def work(i: int, tally: Tally, stop: threading.Event) -> None:
        conn, n = conns[i], 0
        while not stop.is_set():
            started = time.perf_counter()
            # Autocommit: one statement, its own transaction, committed on return.
            conn.execute("INSERT INTO bench_raw (payload) VALUES (%s)", (Jsonb({"client": i, "n": n}),))
            tally.latencies.append(time.perf_counter() - started)
            n += 1

    try:
        return run_clients(clients, seconds, work)
    finally:
        for c in conns:
            c.close()


def floor_load(port: int, clients: int, seconds: float, during=None) -> tuple[list[Tally], float]:
    def work(i: int, tally: Tally, stop: threading.Event) -> None:
        client, n = Client(port), 0
        try:
            while not stop.is_set():
                code, _, elapsed = client.request("POST", "/floor", {"client": i, "n": n})
                if code != 200:
                    tally.error(f"floor {code}")
                    continue
                tally.latencies.append(elapsed)
                n += 1
        finally:
            client.close()

    return run_clients(clients, seconds, work, during)


def service_load(port: int, clients: int, seconds: float, scripts: list[Script], idempotency: bool,
                 during=None) -> tuple[list[Tally], float]:
    def work(i: int, tally: Tally, stop: threading.Event) -> None:
        client = Client(port)
        try:
            for n in itertools.count(i):
                if stop.is_set():
                    break
                player = Player(client, scripts[n % len(scripts)], tally, idempotency=idempotency)
                try:
                    player.create()
                    while not player.finished and not stop.is_set():
                        player.step()
                except CommandFailed:
                    continue  # counted in the tally; start another game
        finally:
            client.close()

    return run_clients(clients, seconds, work, during)


def long_game(port: int, seed: int, idempotency: bool, *, long_events: int = 400,
              short_events: int = 10, samples: int = 50) -> dict:
    """Plays on a game ~``long_events`` long against plays on games
    ~``short_events`` long, alternately, on the idle service; one connection
    per seat."""
    rng = random.Random(seed)
    clients = [Client(port), Client(port)]
    tally = Tally()
    try:
        long = Player(clients, record(rng, ENDLESS, long_events + 10 * samples), tally, idempotency=idempotency)
        long.create()
        built = time.perf_counter()
        while long.version < long_events:
            long.step(timed=[])
        built = time.perf_counter() - built
        first_version = long.version

        def short_game() -> Player:
            p = Player(clients, record(rng, ENDLESS, short_events + 10), tally, idempotency=idempotency)
            p.create()
            while p.version < short_events - 3 or p.next_name != "play":
                p.step(timed=[])
            return p

        short = short_game()
        long_times: list[float] = []
        short_times: list[float] = []
        while len(long_times) < samples:
            # A play on each in turn; a deal between two hands is not timed.
            if short.version > short_events + 3 or short.finished or short.next_name != "play":
                short = short_game()
            short.step(timed=short_times)
            while long.next_name != "play":
                long.step(timed=[])
            long.step(timed=long_times)
    finally:
        for c in clients:
            c.close()
    long_p50, short_p50 = statistics.median(long_times), statistics.median(short_times)
    return {"versions": f"{first_version}-{long.version}", "build_s": built, "samples": samples,
            "long_p50_ms": long_p50 * 1000, "short_p50_ms": short_p50 * 1000,
            "slowdown": long_p50 / short_p50}


class Table:
    """A game of Ann and Bob, Bob a person or the computer, played over one
    connection with moves the service lists (``/moves``, untimed)."""

    def __init__(self, client: Client, rng: random.Random, computer: bool):
        self.client, self.rng, self.computer = client, rng, computer
        status, out, _ = client.request("POST", "/v1/games", {
            "variant": "cassino", "first_dealer": 1,
            "seats": [{"name": "Ann"}, {"name": "Bob", "computer": computer}]})
        if status != 201:
            raise CommandFailed(f"create answered {status}: {out}")
        self.url = f"/v1/games/{out['id']}"
        self.tokens = [s["token"] for s in out["seats"]]
        self.over = False

    def next_play(self, timed: list[float], patience: float = 10.0) -> None:
        """Deal where a person deals, until a person's play, then time it
        (when the computer is to act, wait for it: asking for the view again
        until it shows a person's turn, for ``patience`` seconds at most)."""
        give_up = time.perf_counter() + patience
        while True:
            status, view, _ = self.client.request("GET", self.url, token=self.tokens[0])
            if view["status"] == "finished":
                self.over = True
                return
            seats = (view.get("awaiting") or {}).get("seats", [])
            people = [seat for seat in seats if not (self.computer and seat == 1)]
            if people:
                break
            if time.perf_counter() > give_up:
                raise CommandFailed(f"the computer did not act within {patience} s: {view}")
            time.sleep(0.002)
        seat = people[0]
        token = self.tokens[seat]
        if view["status"] != "in_progress":
            status, out, _ = self.client.request("POST", f"{self.url}/deal", {}, token=token)
            if status != 200:
                raise CommandFailed(f"deal answered {status}: {out}")
            return self.next_play(timed, patience)
        status, moves, _ = self.client.request("GET", f"{self.url}/moves", token=token)
        if not moves["moves"]:  # the computer counted out meanwhile: the game is over
            return self.next_play(timed, patience)
        move = self.rng.choice(moves["moves"])
        status, out, seconds = self.client.request("POST", f"{self.url}/play", move, token=token)
        if status == 422 and self.computer:  # the computer counted out meanwhile: look again
            return self.next_play(timed, patience)
        if status != 200:
            raise CommandFailed(f"play answered {status}: {out}")
        timed.append(seconds)


def against_computer(port: int, seed: int, samples: int = 60) -> dict:
    """A person's plays against a computer and plays between two people,
    one and the other in turn, on the idle service."""
    rng = random.Random(seed)
    client = Client(port)
    computer_times: list[float] = []
    people_times: list[float] = []
    try:
        tables = {True: Table(client, rng, True), False: Table(client, rng, False)}
        while len(computer_times) < samples or len(people_times) < samples:
            for computer, times in ((True, computer_times), (False, people_times)):
                if tables[computer].over:
                    tables[computer] = Table(client, rng, computer)
                tables[computer].next_play(times)
    finally:
        client.close()
    computer_p50, people_p50 = statistics.median(computer_times), statistics.median(people_times)
    return {"samples": min(len(computer_times), len(people_times)), "computer_p50_ms": computer_p50 * 1000,
            "people_p50_ms": people_p50 * 1000, "ratio": computer_p50 / people_p50}


# ---------------------------------------------------------------------------
# Main
# ---------------------------------------------------------------------------


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=24.0, help="service load, all rounds together")
    parser.add_argument("--floor-seconds", type=float, default=12.0, help="floor load, all rounds together")
    parser.add_argument("--pg-seconds", type=float, default=5.0, help="raw PostgreSQL load")
    parser.add_argument("--rounds", type=int, default=6, help="floor and service runs alternate this many times")
    parser.add_argument("--clients", type=int, default=16)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--no-idempotency", dest="idempotency", action="store_false",
                        help="send commands without an Idempotency-Key")
    parser.add_argument("--keep-logs", action="store_true", help="keep the servers' logs and say where")
    parser.add_argument("--py-spy", metavar="SVG", type=Path,
                        help="profile the service's workers with py-spy (pip install py-spy), samples "
                             "taken while they hold the GIL, into this flame graph (collapsed stacks "
                             "if it ends in .txt; the figures then "
                             "include py-spy's own cost)")
    args = parser.parse_args(argv)

    import migrations
    import psycopg

    from service.ops import serve as gunicorn_conf
    from service.postgres.database import EmbeddedPostgres

    options = gunicorn_conf.options("127.0.0.1", 0)
    print(f"casino service bench: {args.clients} clients; gunicorn {gunicorn_conf.describe(options)}; "
          f"{os.cpu_count()} cores; "
          f"load average {os.getloadavg()[0]:.1f}", flush=True)

    began = time.perf_counter()
    workdir = Path(tempfile.mkdtemp(prefix="casino-bench-"))
    servers: list[Server] = []
    embedded = None
    try:
        embedded = EmbeddedPostgres(workdir / "postgres", temporary=True)
        url = embedded.database_url("casino_bench")
        migrations.upgrade(url)
        with psycopg.connect(url, autocommit=True) as conn:
            conn.execute(FLOOR_TABLE)
            conn.execute(RAW_TABLE)
            settings = dict(conn.execute(
                "SELECT name, setting FROM pg_settings WHERE name IN "
                "('fsync', 'synchronous_commit', 'wal_sync_method', 'shared_buffers')").fetchall())
        pg_pid = postmaster_pid(workdir / "postgres" / "pgdata")
        print(f"PostgreSQL ready in {time.perf_counter() - began:.1f} s: "
              + ", ".join(f"{k}={v}" for k, v in sorted(settings.items())), flush=True)

        # -- 1. raw PostgreSQL ------------------------------------------------
        print(f"\n[1/5] raw PostgreSQL: {args.clients} connections, one INSERT + COMMIT per "
              f"transaction, {args.pg_seconds:.0f} s", flush=True)
        pg_cpu = CpuMeter(pg_pid)
        with pg_cpu.measure():
            pg = summarise(*pg_load(url, args.clients, args.pg_seconds))
        print(fmt_run("pg", pg))
        print("            " + pg_cpu.describe(pg["count"], "INSERT"), flush=True)
        serial = summarise(*pg_load(url, 1, 1.0))
        print(f"  one connection alone: {serial['per_s']:.0f} commits/s, p50 {serial['p50_ms']:.2f} ms",
              flush=True)

        # -- 2 and 3. the floor and the service, alternately ------------------
        env = server_env(url, workdir)
        port = free_port()
        floor_server = Server([sys.executable, str(Path(__file__).resolve()), "--serve-floor",
                               "--port", str(port), url], env, workdir / "floor.log", "/healthz")
        servers.append(floor_server)
        port = free_port()
        service_server = Server([sys.executable, "-c", "import sys; from service.ops.cli import main; sys.exit(main())",
                                 "serve", "--port", str(port)], env, workdir / "service.log", "/readyz")
        servers.append(service_server)
        recording = time.perf_counter()
        rng = random.Random(args.seed)
        scripts = [record(rng) for _ in range(2 * args.clients)]
        print(f"  {len(scripts)} games recorded to replay, {sum(len(s.steps) for s in scripts)} commands, "
              f"in {time.perf_counter() - recording:.1f} s", flush=True)
        # Warm up: connections, pools, imports, the database's caches.
        floor_load(floor_server.port, args.clients, 1.0)
        service_load(service_server.port, args.clients, 2.0, scripts, args.idempotency)

        print(f"\n[2/5] floor: bare Flask, one INSERT + COMMIT per request, same gunicorn settings and pool\n"
              f"[3/5] service: `casino serve`, clients playing whole games (Idempotency-Key: "
              f"{'yes' if args.idempotency else 'no'})\n"
              f"      alternately, {args.rounds} rounds of {args.floor_seconds / args.rounds:.0f} s and "
              f"{args.seconds / args.rounds:.0f} s", flush=True)
        floor_all, service_all = Results(), Results()
        floor_cpu, service_cpu = CpuMeter(pg_pid, floor_server.pid), CpuMeter(pg_pid, service_server.pid)
        floor_pg, service_pg = PgActivity(url), PgActivity(url)
        profiler = profile(service_server.pid, args.py_spy) if args.py_spy else None
        for r in range(args.rounds):
            spread: dict[str, list[int]] = {}
            with floor_cpu.measure(), floor_pg.measure():
                f = floor_all.add(*floor_load(
                    floor_server.port, args.clients, args.floor_seconds / args.rounds,
                    during=lambda: spread.update(floor=connections_per_worker(floor_server.pid, floor_server.port))))
            with service_cpu.measure(), service_pg.measure():
                s = service_all.add(*service_load(
                    service_server.port, args.clients, args.seconds / args.rounds, scripts[r:] + scripts[:r],
                    args.idempotency,
                    during=lambda: spread.update(
                        service=connections_per_worker(service_server.pid, service_server.port))))
            print(f"  round {r + 1}: floor {f['per_s']:7.1f}/s (connections per worker {spread.get('floor')}), "
                  f"commands {s['per_s']:6.1f}/s (connections per worker {spread.get('service')}): "
                  f"ratio {s['per_s'] / f['per_s'] if f['per_s'] else float('nan'):.3f}", flush=True)
        floor_server.stop()
        if profiler is not None:
            stop_profile(profiler)
        floor, svc = floor_all.summary(), service_all.summary()
        print(fmt_run("floor", floor))
        print("            " + floor_cpu.describe(floor["count"], "request"))
        print("            " + floor_pg.describe())
        print(fmt_run("commands", svc))
        print("            " + service_cpu.describe(svc["count"], "command"))
        print("            " + service_pg.describe())
        print(f"            games: {svc['games_created']} created, {svc['games_finished']} finished", flush=True)

        # -- 4. a long game ---------------------------------------------------
        print("\n[4/5] long game: plays at ~400 events and at ~10 events, alternately, idle service", flush=True)
        long = long_game(service_server.port, args.seed, args.idempotency)
        print(f"  the long game built to version {long['versions'].split('-')[0]} in {long['build_s']:.1f} s; "
              f"timed at versions {long['versions']}")
        print(f"  p50 of {long['samples']} plays: {long['long_p50_ms']:.2f} ms at ~400 events, "
              f"{long['short_p50_ms']:.2f} ms at ~10 events", flush=True)

        # -- 5. against a computer ------------------------------------------
        print("\n[5/5] a person's plays against a computer and plays between two people, alternately,"
              " idle service", flush=True)
        against = against_computer(service_server.port, args.seed)
        service_server.stop()
        print(f"  p50 of {against['samples']} plays: {against['computer_p50_ms']:.2f} ms against a computer,"
              f" {against['people_p50_ms']:.2f} ms between two people: ratio {against['ratio']:.3f}", flush=True)

        ratio = svc["per_s"] / floor["per_s"] if floor["per_s"] else float("nan")
        # When the machine's CPU is what runs out, the ratio is about the
        # ratio of CPU costs: all parties' CPU per floor request over all
        # parties' CPU per command.
        cpu_cost_ratio = (sum(floor_cpu.per(floor["count"]).values())
                          / sum(service_cpu.per(svc["count"]).values())) \
            if svc["count"] and floor["count"] else float("nan")
        result = {
            "commands_per_s": round(svc["per_s"], 1),
            "p50_ms": round(svc["p50_ms"], 2),
            "p99_ms": round(svc["p99_ms"], 2),
            "floor_per_s": round(floor["per_s"], 1),
            "pg_insert_tps": round(pg["per_s"], 1),
            "ratio": round(ratio, 3),
            "cpu_cost_ratio": round(cpu_cost_ratio, 3),
            "long_game_slowdown": round(long["slowdown"], 3),
            "pg_serial_commit_ms": round(serial["p50_ms"], 2),
            "floor_p50_ms": round(floor["p50_ms"], 2),
            "floor_p99_ms": round(floor["p99_ms"], 2),
            "long_p50_ms": round(long["long_p50_ms"], 2),
            "short_p50_ms": round(long["short_p50_ms"], 2),
            "computer_play_ratio": round(against["ratio"], 3),
            "computer_p50_ms": round(against["computer_p50_ms"], 2),
            "people_p50_ms": round(against["people_p50_ms"], 2),
            "server_cpu_ms_per_command": round(service_cpu.per(svc["count"]).get("server", 0.0), 2),
            "server_cpu_ms_per_floor_request": round(floor_cpu.per(floor["count"]).get("server", 0.0), 2),
            "lock_waiters": round(service_pg.means()["lock_wait"], 2),
            "errors": sum(svc["errors"].values()) + sum(floor["errors"].values()),
            "clients": args.clients,
            "workers": options["workers"],
            "threads": options["threads"],
        }

        def verdict(ok: bool) -> str:
            return "ok" if ok else "MISSED"

        print("\nSummary (targets in brackets)")
        print(f"  pg_insert_tps       {result['pg_insert_tps']:9.1f}")
        print(f"  floor_per_s         {result['floor_per_s']:9.1f}")
        print(f"  commands_per_s      {result['commands_per_s']:9.1f}")
        print(f"  ratio               {result['ratio']:9.3f}   [>= {TARGETS['ratio']}]  "
              f"{verdict(ratio >= TARGETS['ratio'])}")
        print(f"  cpu_cost_ratio      {result['cpu_cost_ratio']:9.3f}   (CPU per floor request / CPU per command, "
              f"all processes: what the ratio comes to when CPU runs out)")
        print(f"  p50_ms              {result['p50_ms']:9.2f}")
        p99_limit = TARGETS["p99_over_floor_p99"] * floor["p99_ms"]
        print(f"  p99_ms              {result['p99_ms']:9.2f}   [<= {p99_limit:.0f}, {TARGETS['p99_over_floor_p99']} x "
              f"floor_p99_ms {floor['p99_ms']:.0f}]   {verdict(svc['p99_ms'] <= p99_limit)}")
        print(f"  long_game_slowdown  {result['long_game_slowdown']:9.3f}   [< {TARGETS['long_game_slowdown']}]  "
              f"{verdict(long['slowdown'] < TARGETS['long_game_slowdown'])}")
        print(f"  computer_play_ratio {result['computer_play_ratio']:9.3f}   [<= {TARGETS['computer_play_ratio']}]  "
              f"{verdict(against['ratio'] <= TARGETS['computer_play_ratio'])}")
        print(f"  bench time          {time.perf_counter() - began:9.1f} s; load average now "
              f"{os.getloadavg()[0]:.1f}")
        if args.keep_logs:
            print(f"  server logs kept in {workdir}")
        if args.py_spy:
            print(f"  py-spy flame graph of the service in {args.py_spy}")
        print(json.dumps(result), flush=True)
        return 0
    finally:
        stop(servers, embedded)
        if args.keep_logs:
            shutil.rmtree(workdir / "postgres", ignore_errors=True)
        else:
            shutil.rmtree(workdir, ignore_errors=True)


if __name__ == "__main__":
    if len(sys.argv) == 5 and sys.argv[1] == "--serve-floor" and sys.argv[2] == "--port":
        serve_floor(int(sys.argv[3]), sys.argv[4])
    else:
        sys.exit(main())

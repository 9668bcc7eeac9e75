"""Live streams at scale: thousands of them open while games are played.

Run from the repository root::

    .venv/bin/python bench/streams.py [--games 1000] [--clients 16] [--seconds 20]

One fresh embedded PostgreSQL and one ``casino serve`` with its defaults
(the helpers of ``bench/service.py``). Then:

1. ``commands_per_s``: ``--clients`` clients replay recorded games (as in
   ``bench/service.py``) with no stream open, half before the streams open
   and half after they closed, so that the machine's drift weighs on both.
2. ``--games`` games are created and both seats of each open the game's
   stream (an asyncio client in a process of its own, one connection per
   stream, each reading as EventSource would and reconnecting with
   ``Last-Event-ID`` if a stream ends early). ``commands_per_s_with_streams``: the clients play those
   games meanwhile.
3. Every event appended must reach every stream of its game, in order,
   once: ``events_expected`` against ``events_missed`` and
   ``events_duplicated``. ``delivery_p50_ms``/``delivery_p99_ms``: from the
   command's answer to the stream's receipt of its events (0 when the
   stream had it first). Besides: the server's memory per thousand streams
   (its processes' RSS, streams open against none), and the most database
   connections seen at once.

With ``--flood``, the streams are one client's instead: it opens public
streams of one game as fast as it can, far past its share (one new
connection each, ``--flood-connections`` at a time, each held while it is
admitted), while the ``--clients`` play. ``flood_command_p99_ratio``: the
commands' p99 during the flood over their p99 without it (before and
after), in the one run; the flood's attempts per second and their answers
beside it.

The last line is one JSON object.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import multiprocessing
import os
import random
import resource
import shutil
import sys
import tempfile
import threading
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path[:] = [str(HERE.parent)] + [p for p in sys.path if p not in (str(HERE.parent), str(HERE), "")]

from bench import service as bench  # noqa: E402 - after the path fix above

TARGETS = {"delivery_p99_ms": 250.0, "stream_cost_ratio": 0.8, "server_rss_mb_per_1000_streams": 100.0}
FLOOD_TARGETS = {"flood_command_p99_ratio": 2.0}


class Stream:
    """One seat's stream of one game, read by the asyncio client."""

    def __init__(self, game: str, token: str):
        self.game = game
        self.token = token
        self.received: list[tuple[int, float]] = []  # (version, monotonic time)
        self.open = False
        self.finished = False  # answered 204: the game is over and read to its end
        self.refused = 0
        self.reconnects = 0  # each time the server ended it, or it broke
        self.was_open = False

    async def run(self, port: int, stop: asyncio.Event) -> None:
        while not stop.is_set() and not self.finished:
            after = self.received[-1][0] if self.received else 0
            try:
                await self._read(port, after)
            except (OSError, asyncio.IncompleteReadError):
                pass
            if not stop.is_set() and not self.finished:
                self.reconnects += 1
                await asyncio.sleep(0.5)

    async def _read(self, port: int, after: int) -> None:
        reader, writer = await asyncio.open_connection("127.0.0.1", port, limit=1 << 20)
        try:
            writer.write((f"GET /v1/games/{self.game}/events/stream HTTP/1.1\r\nHost: bench\r\n"
                          f"Authorization: Bearer {self.token}\r\nLast-Event-ID: {after}\r\n"
                          "Accept: text/event-stream\r\n\r\n").encode())
            await writer.drain()
            status = int((await reader.readline()).split()[1])
            while (await reader.readline()) not in (b"\r\n", b""):
                pass
            if status == 204:
                self.finished = True  # as EventSource: no reconnecting after that
                return
            if status != 200:
                self.refused += 1
                await asyncio.sleep(5)
                return
            self.open = self.was_open = True
            try:
                await self._messages(reader)
            finally:
                self.open = False
        finally:
            writer.close()

    async def _messages(self, reader: asyncio.StreamReader) -> None:
        """Chunked transfer coding around SSE text; each ``id:`` line noted on
        arrival. (Two awaits a chunk and nothing more: this process shares the
        machine's cores with the server it measures.)"""
        pending = b""
        while True:
            size = int((await reader.readline()).strip() or b"0", 16)
            if size == 0:
                return
            pending += (await reader.readexactly(size + 2))[:-2]
            *lines, pending = pending.split(b"\n")
            now = time.monotonic()
            for line in lines:
                if line.startswith(b"id: "):
                    self.received.append((int(line[4:]), now))


def stream_process(port: int, seats: list[tuple[str, str]], stop, report) -> None:
    """The streams' own process (so that reading them takes no interpreter
    time from the command clients, nor theirs from it): every stream in one
    asyncio loop until ``stop`` is set. Reports ``("open", count)`` every
    half second, then ``("done", [(received, refused, reconnects, ended), ...])``:
    ``ended`` when the stream ended with its game (the server closed it after
    the last event, and the reconnection got 204), and that reconnection is
    not counted in ``reconnects``.
    ``time.monotonic`` is the system's, the same clock in both processes."""
    _, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))  # a socket per stream
    streams = [Stream(game, token) for game, token in seats]

    async def main() -> None:
        halt = asyncio.Event()
        tasks = []
        for i, stream in enumerate(streams):
            tasks.append(asyncio.ensure_future(stream.run(port, halt)))
            if i % 50 == 49:
                await asyncio.sleep(0.05)  # open them at a few hundred a second
        while not stop.is_set():
            report.put(("open", sum(s.open for s in streams)))
            await asyncio.sleep(0.5)
        report.put(("open", sum(s.open for s in streams)))
        halt.set()
        for task in tasks:
            task.cancel()  # an open stream is waiting for its next chunk
        await asyncio.gather(*tasks, return_exceptions=True)

    asyncio.run(main())
    ended = [s.finished and s.was_open for s in streams]
    report.put(("done", [(s.received, s.refused, s.reconnects - e, e) for s, e in zip(streams, ended)]))


def flood_process(port: int, game: str, connections: int, stop, report) -> None:
    """One client flooding the server with streams of ``game`` (its own
    process, as ``stream_process``): ``connections`` coroutines, each
    opening a connection, asking for the public stream and, if it is
    admitted, holding it, else going again at once, until ``stop`` is set.
    Reports ``("started", None)`` once the first answer came, then
    ``("done", {status: count}, held, seconds)``."""
    _, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    answers: dict[int, int] = {}
    request = (f"GET /v1/games/{game}/events/stream HTTP/1.1\r\nHost: bench\r\n"
               "Accept: text/event-stream\r\n\r\n").encode()
    held: list[asyncio.StreamWriter] = []

    async def attempt() -> None:
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        writer.write(request)
        status = int((await reader.readline()).split()[1])
        length = 0
        while (line := await reader.readline()) not in (b"\r\n", b""):
            if line.lower().startswith(b"content-length:"):
                length = int(line.split(b":")[1])
        answers[status] = answers.get(status, 0) + 1
        if not answers.get(-1):
            answers[-1] = 1
            report.put(("started", None))
        if status == 200:
            held.append(writer)  # a stream admitted: keep it, as a flooder would
            return
        await reader.readexactly(length)
        writer.close()

    async def flood(halt: asyncio.Event) -> None:
        while not halt.is_set():
            try:
                await attempt()
            except (OSError, asyncio.IncompleteReadError, ValueError, IndexError):
                answers[0] = answers.get(0, 0) + 1  # no answer: the connection failed

    async def main() -> float:
        halt = asyncio.Event()
        began = time.monotonic()
        tasks = [asyncio.ensure_future(flood(halt)) for _ in range(connections)]
        while not stop.is_set():
            await asyncio.sleep(0.1)
        halt.set()
        ended = time.monotonic() - began
        await asyncio.wait(tasks, timeout=10)
        for writer in held:
            writer.close()
        return ended

    seconds = asyncio.run(main())
    answers.pop(-1, None)
    report.put(("done", answers, len(held), seconds))


def server_rss_mb(pid: int) -> float:
    import psutil

    root = psutil.Process(pid)
    return sum(p.memory_info().rss for p in [root, *root.children(recursive=True)]) / 2**20


class PeakConnections:
    """The most client connections to the database seen at once, sampled."""

    def __init__(self, url: str):
        self.url = url
        self.peak = 0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._sample, daemon=True)
        self._thread.start()

    def _sample(self) -> None:
        import psycopg

        with psycopg.connect(self.url, autocommit=True) as conn:
            while not self._stop.wait(0.1):
                (n,) = conn.execute("SELECT count(*) FROM pg_stat_activity WHERE datname = current_database()"
                                    " AND backend_type = 'client backend' AND pid <> pg_backend_pid()").fetchone()
                self.peak = max(self.peak, n)

    def stop(self) -> int:
        self._stop.set()
        self._thread.join()
        return self.peak


def stream_counters(port: int) -> dict[str, float]:
    """The server's own stream counters, from /metrics."""
    wanted = {"casino_streams_open": "server_streams_open",
              "casino_streams_refused_total": "server_streams_refused",
              "casino_streams_dropped_slow_readers_total": "server_streams_dropped_slow_readers",
              "casino_stream_reads_total": "server_stream_reads"}
    found = {}
    for line in metrics_text(port).splitlines():
        name, _, value = line.partition(" ")
        if name in wanted:
            found[wanted[name]] = float(value)
    return found


def metrics_text(port: int) -> str:
    client = bench.Client(port)
    try:
        client.conn.request("GET", "/metrics")
        return client.conn.getresponse().read().decode()
    finally:
        client.close()


def play(port: int, clients: int, seconds: float, players: list[bench.Player], answers: dict) -> tuple:
    """``clients`` clients playing ``players``' games (each client its own
    share, one game after another), noting when each version was answered."""
    shares = [players[i::clients] for i in range(clients)]

    def work(i: int, tally: bench.Tally, stop: threading.Event) -> None:
        client = bench.Client(port)
        try:
            for player in shares[i]:
                player.clients = [client, client]
                player.tally = tally
                while not player.finished and not stop.is_set():
                    before = player.version
                    player.step()
                    answered = time.monotonic()
                    for version in range(before + 1, player.version + 1):
                        answers[(player.game_id, version)] = answered
                if stop.is_set():
                    return
        except bench.CommandFailed:
            return
        finally:
            client.close()

    return bench.run_clients(clients, seconds, work)


def new_players(port: int, scripts: list[bench.Script], count: int, offset: int) -> list[bench.Player]:
    client, tally = bench.Client(port), bench.Tally()
    try:
        players = []
        for n in range(count):
            player = bench.Player(client, scripts[(offset + n) % len(scripts)], tally)
            player.create()
            players.append(player)
        return players
    finally:
        client.close()


def flood_run(args: argparse.Namespace, port: int, scripts: list[bench.Script], server: bench.Server,
              pg_pid: int, workers: int) -> dict:
    """The commands' load without a flood, with one, and without again."""
    cpu_without, cpu_with = bench.CpuMeter(pg_pid, server.pid), bench.CpuMeter(pg_pid, server.pid)
    without, flooded = bench.Results(), bench.Results()
    with cpu_without.measure():
        without.add(*play(port, args.clients, args.seconds / 2, new_players(port, scripts, 4 * args.clients, 1), {}))
    target = new_players(port, scripts, 1, 2)[0].game_id
    counted_before = refusals_over_limit(port)
    context = multiprocessing.get_context("spawn")
    stop, report = context.Event(), context.Queue()
    flooder = context.Process(target=flood_process, args=(port, target, args.flood_connections, stop, report),
                              daemon=True)
    flooder.start()
    report.get(timeout=60)  # the flood is under way
    time.sleep(1.0)
    flooder_cpu = bench.tree_cpu(flooder.pid)
    with cpu_with.measure():
        flooded.add(*play(port, args.clients, args.seconds, new_players(port, scripts, 4 * args.clients, 3), {}))
    flooder_cpu = bench.tree_cpu(flooder.pid) - flooder_cpu
    stop.set()
    _, answers, held, flood_seconds = report.get(timeout=60)
    flooder.join(30)
    refused = refusals_over_limit(port) - counted_before
    with cpu_without.measure():
        without.add(*play(port, args.clients, args.seconds / 2, new_players(port, scripts, 4 * args.clients, 4), {}))
    w, f = without.summary(), flooded.summary()
    attempts = sum(answers.values())
    result = {
        "flood_command_p99_ratio": round(f["p99_ms"] / w["p99_ms"], 3) if w["p99_ms"] else float("nan"),
        "command_p99_ms_flooded": round(f["p99_ms"], 2),
        "command_p99_ms": round(w["p99_ms"], 2),
        "command_p50_ms_flooded": round(f["p50_ms"], 2),
        "command_p50_ms": round(w["p50_ms"], 2),
        "commands_per_s_flooded": round(f["per_s"], 1),
        "commands_per_s": round(w["per_s"], 1),
        "flood_attempts_per_s": round(attempts / flood_seconds, 1),
        "flood_streams_held": held,
        "flood_answers": {str(status): count for status, count in sorted(answers.items())},
        "server_refused_over_caller_limit": refused,
        "server_cpu_ms_per_command_flooded": round(cpu_with.per(f["count"]).get("server", 0.0), 2),
        "server_cpu_ms_per_command": round(cpu_without.per(w["count"]).get("server", 0.0), 2),
        "flooder_cpu_share": round(flooder_cpu / flood_seconds, 2),
        "errors": sum(f["errors"].values()) + sum(w["errors"].values()),
        "workers": workers,
    }
    print(bench.fmt_run("without", w))
    print("            " + cpu_without.describe(w["count"], "command"))
    print(bench.fmt_run("flooded", f))
    print("            " + cpu_with.describe(f["count"], "command")
          + f"; the flooder {flooder_cpu:.1f} s of CPU, {result['flood_attempts_per_s']} attempts/s")
    print(f"  flood answers {result['flood_answers']}, {held} held; targets {FLOOD_TARGETS}")
    return result


def refusals_over_limit(port: int) -> float:
    """The server's count of streams refused past a caller's share, all kinds."""
    return sum(float(line.split()[-1]) for line in metrics_text(port).splitlines()
               if line.startswith("casino_streams_refused_over_caller_limit_total{"))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=1000, help="games with both seats streaming")
    parser.add_argument("--clients", type=int, default=16)
    parser.add_argument("--seconds", type=float, default=20.0, help="play with streams (and as long without)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--flood", action="store_true",
                        help="one client floods the server with streams instead, past its share (see above)")
    parser.add_argument("--flood-connections", type=int, default=64,
                        help="the flooding client's connections at a time")
    parser.add_argument("--py-spy", metavar="FILE", type=Path,
                        help="profile the service's workers with py-spy while streams are open and games "
                             "played (as bench/service.py --py-spy does)")
    args = parser.parse_args(argv)

    _, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))  # a socket per stream, here too

    import migrations
    from service.ops import serve as gunicorn_conf
    from service.postgres.database import EmbeddedPostgres

    options = gunicorn_conf.options("127.0.0.1", 0)
    print(f"casino streams bench: {args.games} games x 2 streams, {args.clients} command clients; "
          f"{gunicorn_conf.describe(options)}; {os.cpu_count()} cores; "
          f"load average {os.getloadavg()[0]:.1f}", flush=True)
    began = time.perf_counter()
    workdir = Path(tempfile.mkdtemp(prefix="casino-bench-streams-"))
    servers: list[bench.Server] = []
    embedded = None
    try:
        embedded = EmbeddedPostgres(workdir / "postgres", temporary=True)
        url = embedded.database_url("casino_bench")
        migrations.upgrade(url)
        env = bench.server_env(url, workdir)
        server = bench.Server([sys.executable, "-c", "import sys; from service.ops.cli import main; sys.exit(main())",
                               "serve", "--port", str(bench.free_port())], env, workdir / "service.log", "/readyz")
        servers.append(server)
        port = server.port
        rng = random.Random(args.seed)
        scripts = [bench.record(rng) for _ in range(2 * args.clients)]
        peak = PeakConnections(url)
        pg_pid = bench.postmaster_pid(workdir / "postgres" / "pgdata")
        cpu_without, cpu_with = bench.CpuMeter(pg_pid, server.pid), bench.CpuMeter(pg_pid, server.pid)
        bench.run_clients(args.clients, 2.0, lambda i, t, s: None)  # threads warm
        play(port, args.clients, 2.0, new_players(port, scripts, args.clients, 0), {})  # warm up
        if args.flood:
            print(json.dumps(flood_run(args, port, scripts, server, pg_pid, options["workers"])), flush=True)
            peak.stop()
            return 0

        # -- without streams, first half --------------------------------------
        without = bench.Results()
        fresh = new_players(port, scripts, 4 * args.clients, 1)
        with cpu_without.measure():
            without.add(*play(port, args.clients, args.seconds / 2, fresh, {}))
        rss_idle = server_rss_mb(server.pid)

        # -- streams open, games played ---------------------------------------
        players = new_players(port, scripts, args.games, 2)
        seats = [(p.game_id, token) for p in players for token in p.tokens]
        context = multiprocessing.get_context("spawn")
        stop, report = context.Event(), context.Queue()
        reader = context.Process(target=stream_process, args=(port, seats, stop, report), daemon=True)
        opening = time.perf_counter()
        reader.start()
        streams_open, deadline = 0, time.monotonic() + 90
        while streams_open < len(seats) and time.monotonic() < deadline:
            streams_open = report.get(timeout=30)[1]
        print(f"  {streams_open} of {len(seats)} streams open in {time.perf_counter() - opening:.1f} s", flush=True)
        time.sleep(2)
        rss_streams = server_rss_mb(server.pid)
        answers: dict[tuple[str, int], float] = {}
        with_streams = bench.Results()
        profiler = bench.profile(server.pid, args.py_spy) if args.py_spy else None
        reader_cpu = bench.tree_cpu(reader.pid)
        with cpu_with.measure():
            with_streams.add(*play(port, args.clients, args.seconds, players, answers))
        reader_cpu = bench.tree_cpu(reader.pid) - reader_cpu
        if profiler is not None:
            bench.stop_profile(profiler)
        time.sleep(3)  # the last events reach their streams
        counters = stream_counters(port)
        stop.set()
        held = streams_open
        while (message := report.get(timeout=60))[0] != "done":
            held = message[1]
        outcomes = message[1]
        reader.join(30)

        # -- without streams, second half -------------------------------------
        fresh = new_players(port, scripts, 4 * args.clients, 3)
        with cpu_without.measure():
            without.add(*play(port, args.clients, args.seconds / 2, fresh, {}))
        pg_connections = peak.stop()

        # -- every event, to every stream of its game, in order, once --------
        final = {p.game_id: p.version for p in players}
        expected = missed = duplicated = disordered = 0
        delays: list[float] = []
        for (game, _), (received, *_) in zip(seats, outcomes):
            versions = [v for v, _ in received]
            expected += final[game]
            missed += len(set(range(1, final[game] + 1)) - set(versions))
            duplicated += len(versions) - len(set(versions))
            disordered += sum(1 for a, b in zip(versions, versions[1:]) if b <= a)
            for version, at in received:
                answered = answers.get((game, version))
                if answered is not None:
                    delays.append(max(0.0, at - answered))
        w, s = without.summary(), with_streams.summary()
        result = {
            "streams_open": streams_open,
            "streams_held_to_the_end": held,
            "streams_refused": sum(refused for _, refused, _, _ in outcomes),
            "streams_ended_with_their_game": sum(ended for *_, ended in outcomes),
            "stream_reconnects": sum(reconnects for _, _, reconnects, _ in outcomes),
            **counters,
            "events_expected": expected,
            "events_missed": missed,
            "events_duplicated": duplicated,
            "events_out_of_order": disordered,
            "delivery_p50_ms": round(bench.percentile(delays, 50) * 1000, 2),
            "delivery_p99_ms": round(bench.percentile(delays, 99) * 1000, 2),
            "commands_per_s_with_streams": round(s["per_s"], 1),
            "commands_per_s": round(w["per_s"], 1),
            "stream_cost_ratio": round(s["per_s"] / w["per_s"], 3) if w["per_s"] else float("nan"),
            "command_p99_ms_with_streams": round(s["p99_ms"], 2),
            "command_p99_ms": round(w["p99_ms"], 2),
            "server_cpu_ms_per_command_with_streams": round(cpu_with.per(s["count"]).get("server", 0.0), 2),
            "server_cpu_ms_per_command": round(cpu_without.per(w["count"]).get("server", 0.0), 2),
            "postgres_cpu_ms_per_command_with_streams": round(cpu_with.per(s["count"]).get("postgres", 0.0), 2),
            "postgres_cpu_ms_per_command": round(cpu_without.per(w["count"]).get("postgres", 0.0), 2),
            "stream_reader_cpu_ms_per_command": round(reader_cpu / s["count"] * 1000, 2) if s["count"] else 0.0,
            "server_rss_mb_idle": round(rss_idle, 1),
            "server_rss_mb_per_1000_streams": round((rss_streams - rss_idle) / max(1, streams_open) * 1000, 1),
            "pg_connections": pg_connections,
            "errors": sum(s["errors"].values()) + sum(w["errors"].values()),
            "workers": options["workers"],
        }
        print(bench.fmt_run("without", w))
        print("            " + cpu_without.describe(w["count"], "command"))
        print(bench.fmt_run("with", s))
        print("            " + cpu_with.describe(s["count"], "command")
              + f"; the streams' reader {result['stream_reader_cpu_ms_per_command']:.2f}")
        print(f"  bench time {time.perf_counter() - began:.1f} s; load average now {os.getloadavg()[0]:.1f}; "
              f"targets {TARGETS}")
        print(json.dumps(result), flush=True)
        return 0
    finally:
        bench.stop(servers, embedded)
        shutil.rmtree(workdir, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())

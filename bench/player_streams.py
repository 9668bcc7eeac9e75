"""What a waiting player stream costs, against a waiting game stream.

Run from the repository root::

    .venv/bin/python bench/player_streams.py [--streams 1000] [--rounds 2]

One embedded PostgreSQL. ``--streams`` players each join a game (so each
player stream has a game to hear of), and as many games are dealt (so each
game stream has a seat's events to send). Then, in each round and for each
kind in turn (the order flips every round), a fresh ``casino serve`` with
its defaults: its memory idle, then with ``--streams`` streams of the kind
open and waiting (each read by an asyncio client in a process of its own,
as EventSource would), and the most database connections seen meanwhile.

``game_rss_mb_per_1000``/``player_rss_mb_per_1000``: the server's processes'
RSS with the streams open over idle, per thousand streams (the median over
the rounds); ``player_over_game``: the one over the other, in one run.
``*_peak_connections``: a waiting stream holds no connection, so these are
the pools' and the listeners', whatever the number of streams.

The last line is one JSON object.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import multiprocessing
import os
import resource
import statistics
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path[:] = [str(HERE.parent)] + [p for p in sys.path if p not in (str(HERE.parent), str(HERE), "")]

from bench import service as bench  # noqa: E402 - after the path fix above
from bench.streams import PeakConnections, server_rss_mb, stream_counters  # noqa: E402

TARGETS = {"player_over_game": 1.25}
#: How long a stream is asked to last: longer than any round.
STREAM_SECONDS = 600


def reader_process(port: int, paths: list[tuple[str, str]], stop, report) -> None:
    """Open every stream (path, token) and read it until ``stop``; reports
    ``("open", count)`` every half second (a stream is open once its
    answer's headers came), then ``("done", refused)``."""
    _, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))  # a socket per stream
    opened, refused = [0], [0]

    async def read(path: str, token: str, halt: asyncio.Event) -> None:
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        writer.write(f"GET {path}?timeout={STREAM_SECONDS} HTTP/1.1\r\nHost: bench\r\n"
                     f"Authorization: Bearer {token}\r\nAccept: text/event-stream\r\n\r\n".encode())
        status = await reader.readline()
        if b" 200 " not in status:
            refused[0] += 1
            writer.close()
            return
        opened[0] += 1
        try:
            while not halt.is_set() and await reader.read(4096):
                pass
        finally:
            writer.close()

    async def main() -> None:
        halt = asyncio.Event()
        tasks = []
        for i, (path, token) in enumerate(paths):
            tasks.append(asyncio.ensure_future(read(path, token, halt)))
            if i % 50 == 49:
                await asyncio.sleep(0.05)  # a few hundred a second
        while not stop.is_set():
            report.put(("open", opened[0]))
            await asyncio.sleep(0.5)
        halt.set()
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)

    asyncio.run(main())
    report.put(("done", refused[0]))


def measure(url: str, workdir: Path, kind: str, paths: list[tuple[str, str]]) -> dict:
    """A fresh server's memory idle and with ``paths`` streams open, and the peak connections."""
    server = bench.Server([sys.executable, "-c", "import sys; from service.ops.cli import main; sys.exit(main())",
                           "serve", "--port", str(bench.free_port())], bench.server_env(url, workdir),
                          workdir / f"service-{kind}.log", "/readyz")
    try:
        time.sleep(2)
        idle = server_rss_mb(server.pid)
        peak = PeakConnections(url)
        context = multiprocessing.get_context("spawn")
        stop, report = context.Event(), context.Queue()
        reader = context.Process(target=reader_process, args=(server.port, paths, stop, report), daemon=True)
        reader.start()
        opened, deadline = 0, time.monotonic() + 120
        while opened < len(paths) and time.monotonic() < deadline:
            opened = report.get(timeout=30)[1]
        time.sleep(3)  # settled: every stream waits
        rss = server_rss_mb(server.pid)
        counted = stream_counters(server.port).get("server_streams_open", 0.0)
        stop.set()
        while (message := report.get(timeout=60))[0] != "done":
            pass
        reader.join(30)
        return {"opened": opened, "refused": message[1], "server_streams_open": counted,
                "rss_mb_per_1000": (rss - idle) / max(1, opened) * 1000, "peak_connections": peak.stop()}
    finally:
        server.stop()


def prepare(port: int, count: int) -> tuple[list[tuple[str, str]], list[tuple[str, str]]]:
    """``count`` dealt games (a seat's stream of each) and ``count`` players,
    each seated in a game of its own that waits for one player more."""
    client = bench.Client(port)
    games, players = [], []
    try:
        for _ in range(count):
            _, created, _ = client.request("POST", "/v1/games", {"seats": 2, "first_dealer": 1})
            game, tokens = created["id"], [s["token"] for s in created["seats"]]
            client.request("POST", f"/v1/games/{game}/deal", {}, token=tokens[1])
            games.append((f"/v1/games/{game}/events/stream", tokens[0]))
            _, player, _ = client.request("POST", "/v1/players", {"name": "P"})
            _, waiting, _ = client.request("POST", "/v1/games", {"seats": [{"name": "Host"}, {"open": True},
                                                                           {"open": True}]})
            client.request("POST", f"/v1/games/{waiting['id']}/join", token=player["token"])
            players.append(("/v1/players/me/stream", player["token"]))
    finally:
        client.close()
    return games, players


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--streams", type=int, default=1000)
    parser.add_argument("--rounds", type=int, default=2)
    args = parser.parse_args(argv)

    import migrations
    from service.ops import serve as gunicorn_conf
    from service.postgres.database import EmbeddedPostgres

    options = gunicorn_conf.options("127.0.0.1", 0)
    print(f"casino player streams bench: {args.streams} streams of each kind, {args.rounds} rounds; "
          f"{gunicorn_conf.describe(options)}; {os.cpu_count()} cores; load average {os.getloadavg()[0]:.1f}",
          flush=True)
    workdir = Path(tempfile.mkdtemp(prefix="casino-bench-players-"))
    embedded = None
    try:
        embedded = EmbeddedPostgres(workdir / "postgres", temporary=True)
        url = embedded.database_url("casino_bench")
        migrations.upgrade(url)
        setup = bench.Server([sys.executable, "-c", "import sys; from service.ops.cli import main; sys.exit(main())",
                              "serve", "--port", str(bench.free_port())],
                             {**bench.server_env(url, workdir),  # every player is registered from this address
                              "CASINO_REGISTRATIONS_PER_ADDRESS": str(args.streams + 1)},
                             workdir / "setup.log", "/readyz")
        try:
            games, players = prepare(setup.port, args.streams)
        finally:
            setup.stop()
        runs: dict[str, list[dict]] = {"game": [], "player": []}
        for n in range(args.rounds):
            for kind in ("game", "player") if n % 2 == 0 else ("player", "game"):
                run = measure(url, workdir, kind, games if kind == "game" else players)
                print(f"  round {n + 1}, {kind} streams: {run['opened']} open, "
                      f"{run['rss_mb_per_1000']:.1f} MB per 1000, {run['peak_connections']} connections at most",
                      flush=True)
                runs[kind].append(run)
        game = statistics.median(r["rss_mb_per_1000"] for r in runs["game"])
        player = statistics.median(r["rss_mb_per_1000"] for r in runs["player"])
        result = {
            "streams": args.streams,
            "rounds": args.rounds,
            "game_rss_mb_per_1000": round(game, 1),
            "player_rss_mb_per_1000": round(player, 1),
            "player_over_game": round(player / game, 2) if game > 0 else None,
            "game_streams_opened": min(r["opened"] for r in runs["game"]),
            "player_streams_opened": min(r["opened"] for r in runs["player"]),
            "game_peak_connections": max(r["peak_connections"] for r in runs["game"]),
            "player_peak_connections": max(r["peak_connections"] for r in runs["player"]),
            "targets": TARGETS,
        }
        print(json.dumps(result), flush=True)
        return 0
    finally:
        if embedded is not None:
            embedded.stop()


if __name__ == "__main__":
    sys.exit(main())

"""How fast waiting players are paired, and that each is paired once.

Run from the repository root::

    .venv/bin/python bench/pairing.py [--players 1000] [--seconds 10]

One embedded PostgreSQL and one ``casino serve`` with its defaults (its
workers each pair, as in production). ``--players`` players register and
open their player streams (each read by an asyncio client in a process of
its own, as EventSource would); then they ask to be paired over
``--seconds`` seconds, at an even pace, half of them for two-handed Cassino
and half for rated two-handed Royal Cassino (two pools of an even number of
players, everyone rated alike).

``pairing_p99_ms``: from sending the ask to reading ``game_started`` for
that pairing on the player's stream, the 99th percentile (and
``pairing_p50_ms``). ``players_paired_twice``: players told of more than one
game, or seated in more than one game by the database's account.
``players_left_waiting``: players never told of a game within 30 seconds
of the last ask, or still waiting in the database.

The last line is one JSON object.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import multiprocessing
import os
import resource
import sys
import tempfile
import threading
import time
from collections import Counter
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path[:] = [str(HERE.parent)] + [p for p in sys.path if p not in (str(HERE.parent), str(HERE), "")]

from bench import service as bench  # noqa: E402 - after the path fix above

TARGETS = {"pairing_p99_ms": 2000, "players_paired_twice": 0, "players_left_waiting": 0}
#: How long a stream is asked to last: longer than any run.
STREAM_SECONDS = 600
#: How long after the last ask the players may still be told of their game.
SETTLE_SECONDS = 30
POOLS = ({"variant": "cassino", "seats": 2}, {"variant": "royal", "seats": 2, "rated": True})


def reader_process(port: int, tokens: list[str], stop, report) -> None:
    """Open each player's stream and read it until ``stop``: reports
    ``("open", count)`` every half second, then ``("told", [(player index,
    pairing, game, time), ...])`` for every ``game_started`` read."""
    _, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))  # a socket per stream
    opened, told = [0], []

    async def read(n: int, token: str, halt: asyncio.Event) -> None:
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        writer.write(f"GET /v1/players/me/stream?timeout={STREAM_SECONDS} HTTP/1.1\r\nHost: bench\r\n"
                     f"Authorization: Bearer {token}\r\nAccept: text/event-stream\r\n\r\n".encode())
        if b" 200 " not in await reader.readline():
            writer.close()
            return
        opened[0] += 1
        event = None
        try:
            while not halt.is_set():
                line = await reader.readline()
                if not line:
                    break
                text = line.decode().rstrip("\r\n")
                if text.startswith("event:"):
                    event = text[6:].strip()
                elif text.startswith("data:") and event == "game_started":
                    data = json.loads(text[5:])
                    if "pairing" in data:
                        told.append((n, data["pairing"], data["game"], time.time()))
                elif not text:
                    event = None
        finally:
            writer.close()

    async def main() -> None:
        halt = asyncio.Event()
        tasks = []
        for n, token in enumerate(tokens):
            tasks.append(asyncio.ensure_future(read(n, token, halt)))
            if n % 50 == 49:
                await asyncio.sleep(0.05)
        while not stop.is_set():
            report.put(("open", opened[0]))
            await asyncio.sleep(0.5)
        halt.set()
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)

    asyncio.run(main())
    report.put(("told", told))


def ask_all(port: int, tokens: list[str], seconds: float, senders: int = 16) -> dict[str, tuple[int, float]]:
    """Each player asks (at an even pace over ``seconds``): pairing id to (player index, when it was sent)."""
    asked: dict[str, tuple[int, float]] = {}
    failures: list[object] = []
    start = time.monotonic() + 0.5
    lock = threading.Lock()

    def send(first: int) -> None:
        client = bench.Client(port)
        try:
            for n in range(first, len(tokens), senders):
                time.sleep(max(0.0, start + n * seconds / len(tokens) - time.monotonic()))
                sent = time.time()
                status, answer, _ = client.request("POST", "/v1/pairing", POOLS[n % len(POOLS)], token=tokens[n])
                with lock:
                    if status == 202:
                        asked[answer["id"]] = (n, sent)
                    else:
                        failures.append((status, answer))
        finally:
            client.close()

    threads = [threading.Thread(target=send, args=(i,)) for i in range(senders)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    if failures:
        print(f"  {len(failures)} asks refused, e.g. {failures[0]}", flush=True)
    return asked


def in_database(url: str) -> tuple[int, int]:
    """Players seated in more than one game, and asks still waiting, as the database has them."""
    import psycopg

    with psycopg.connect(url) as conn:
        twice = conn.execute("SELECT count(*) FROM (SELECT player_id FROM player_seats GROUP BY player_id"
                             " HAVING count(*) > 1) AS p").fetchone()[0]
        waiting = conn.execute("SELECT count(*) FROM pairings").fetchone()[0]
    return twice, waiting


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=1000)
    parser.add_argument("--seconds", type=float, default=10.0)
    args = parser.parse_args(argv)
    if args.players % (2 * len(POOLS)):
        parser.error(f"--players must be a multiple of {2 * len(POOLS)}: an even number per pool")

    import migrations
    from service.ops import serve as gunicorn_conf
    from service.postgres.database import EmbeddedPostgres

    options = gunicorn_conf.options("127.0.0.1", 0)
    print(f"casino pairing bench: {args.players} players over {args.seconds:g} s; "
          f"{gunicorn_conf.describe(options)}; {os.cpu_count()} cores; load average {os.getloadavg()[0]:.1f}",
          flush=True)
    workdir = Path(tempfile.mkdtemp(prefix="casino-bench-pairing-"))
    embedded = server = None
    try:
        embedded = EmbeddedPostgres(workdir / "postgres", temporary=True)
        url = embedded.database_url("casino_bench")
        migrations.upgrade(url)
        # Every player registers and opens its stream from this one address.
        env = {**bench.server_env(url, workdir), "CASINO_REGISTRATIONS_PER_ADDRESS": str(args.players + 1),
               "CASINO_STREAM_LIMIT_ADDRESS": str(args.players + 10)}
        server = bench.Server([sys.executable, "-c", "import sys; from service.ops.cli import main; sys.exit(main())",
                               "serve", "--port", str(bench.free_port())], env, workdir / "service.log", "/readyz")
        client = bench.Client(server.port)
        tokens = [client.request("POST", "/v1/players", {"name": f"P{n}"})[1]["token"] for n in range(args.players)]
        client.close()

        context = multiprocessing.get_context("spawn")
        stop, report = context.Event(), context.Queue()
        reader = context.Process(target=reader_process, args=(server.port, tokens, stop, report), daemon=True)
        reader.start()
        opened, deadline = 0, time.monotonic() + 120
        while opened < len(tokens) and time.monotonic() < deadline:
            opened = report.get(timeout=30)[1]
        print(f"  {opened} player streams open", flush=True)

        asked = ask_all(server.port, tokens, args.seconds)
        time.sleep(2)
        settle = time.monotonic() + SETTLE_SECONDS
        while time.monotonic() < settle and in_database(url)[1]:
            time.sleep(0.5)
        time.sleep(1)  # the last notices on their way
        stop.set()
        while (message := report.get(timeout=60))[0] != "told":
            pass
        reader.join(30)
        told = message[1]

        latencies = [(at - asked[pairing][1]) * 1000 for _, pairing, _, at in told if pairing in asked]
        games_told = Counter(n for n, _, _, _ in told)
        told_twice = sum(1 for count in games_told.values() if count > 1)
        seated_twice, still_waiting = in_database(url)
        never_told = len(tokens) - len(games_told)
        result = {
            "players": args.players,
            "seconds": args.seconds,
            "asks_accepted": len(asked),
            "games_started": len({game for _, _, game, _ in told}),
            "pairing_p50_ms": round(bench.percentile(latencies, 50), 1),
            "pairing_p99_ms": round(bench.percentile(latencies, 99), 1),
            "pairing_max_ms": round(max(latencies), 1) if latencies else None,
            "players_paired_twice": max(told_twice, seated_twice),
            "players_left_waiting": max(never_told, still_waiting),
            "targets": TARGETS,
        }
        print(json.dumps(result), flush=True)
        return 0
    finally:
        if server is not None:
            server.stop()
        if embedded is not None:
            embedded.stop()


if __name__ == "__main__":
    sys.exit(main())

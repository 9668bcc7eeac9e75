"""What PostgreSQL spends on one append, by what the append writes.

Run from the repository root::

    .venv/bin/python bench/append.py [--appends 1500] [--rounds 2]

One fresh embedded PostgreSQL, one connection, nothing else running against
it. ``PostgresEventStore.append`` writes one play's event again and again
(over ten games, so that no row is always hot), first alone and then with
each of the other writes a command makes: the games read-model row, the
idempotency record, the signed checkpoint, and all of them together, as a
command does. Next to it, the floor's write: one ``INSERT`` of a small JSON
row. For each it prints the CPU the PostgreSQL backend spent per append
(from /proc, so the client's own work is not in it), the client's CPU and
the wall time. The last line is one JSON object of the backend's CPU per
append, in ms, by case, averaged over the rounds.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import sys
import tempfile
import time
import uuid
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path[:] = [str(HERE.parent)] + [p for p in sys.path if p not in (str(HERE.parent), str(HERE), "")]

import migrations  # noqa: E402 - after the path fix above
from service.events import Append, NewEvent  # noqa: E402
from service.writes import NOW, GameRow, IdempotencyRecord, Write  # noqa: E402
from service.postgres.database import EmbeddedPostgres, open_pool  # noqa: E402
from service.postgres.store import PostgresEventStore  # noqa: E402

GAMES = 10
PLAY = {"action": "trail", "card": "5H", "seat": 0}
#: Each case: the store signs checkpoints, the append files an idempotency key, it updates the games row.
CASES = {
    "events": (False, False, False),
    "events_and_games_row": (False, False, True),
    "events_and_idempotency": (False, True, False),
    "events_and_checkpoint": (True, False, False),
    "command": (True, True, True),
}


def backend_cpu(pid: int) -> float:
    """Seconds of CPU the process has used (user and system)."""
    with open(f"/proc/{pid}/stat") as stat:
        fields = stat.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def appends(pool, case: str, count: int) -> dict[str, float]:
    """Backend CPU, client CPU and wall time per append, in ms, for ``case``."""
    checkpoint, idempotency, games_row = CASES[case]
    store = PostgresEventStore(pool, b"k" * 32 if checkpoint else None)
    with pool.connection() as conn:
        pid = conn.info.backend_pid
    heads = {}
    for _ in range(GAMES):
        game = uuid.uuid4()
        stored = store.append(Append(game, 0, [NewEvent("GameCreated", 1, {})], {"actor": "operator"},
                              writes=[GameRow({"variant": "cassino", "status": "waiting",
                                               "player_names": ["A", "B"], "version": 1})]))
        heads[game] = (1, stored[-1].hash)
    games = list(heads)
    began = backend_cpu(pid), time.process_time(), time.perf_counter()
    for n in range(count):
        game = games[n % GAMES]
        version, head = heads[game]
        writes: list[Write] = []
        if idempotency:
            writes.append(IdempotencyRecord(uuid.uuid4().hex, "0" * 64,
                                            {"versions": [version + 1, version + 1]}, actor="seat:0"))
        if games_row:
            writes.append(GameRow({"version": version + 1, "status": "playing", "updated_at": NOW}))
        stored = store.append(Append(game, version, [NewEvent("CardPlayed", 1, PLAY)], {"actor": "seat:0"},
                              previous_hash=head, writes=writes))
        heads[game] = (version + 1, stored[-1].hash)
    ended = backend_cpu(pid), time.process_time(), time.perf_counter()
    backend, client, wall = (1000 * (b - a) / count for a, b in zip(began, ended, strict=True))
    return {"backend": backend, "client": client, "wall": wall}


def floor(pool, count: int) -> float:
    """Backend CPU per floor INSERT, in ms."""
    with pool.connection() as conn:
        pid = conn.info.backend_pid
        conn.execute("CREATE TABLE IF NOT EXISTS floor (id bigserial PRIMARY KEY, body jsonb NOT NULL)")
        began = backend_cpu(pid)
        for _ in range(count):
            conn.execute("INSERT INTO floor (body) VALUES (%s::jsonb)", ('{"n": 1}',))
        return 1000 * (backend_cpu(pid) - began) / count


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--appends", type=int, default=1500, help="per case and round")
    parser.add_argument("--rounds", type=int, default=2)
    args = parser.parse_args(argv)
    workdir = Path(tempfile.mkdtemp(prefix="casino-append-"))
    embedded = EmbeddedPostgres(workdir / "postgres", temporary=True)
    totals = {name: 0.0 for name in ["floor_insert", *CASES]}
    try:
        url = embedded.database_url("casino_append")
        migrations.upgrade(url)
        pool = open_pool(url, min_size=1, max_size=1)
        try:
            for round_ in range(1, args.rounds + 1):
                totals["floor_insert"] += floor(pool, args.appends)
                print(f"round {round_}: floor INSERT: backend {totals['floor_insert'] / round_:.3f} ms (mean)",
                      flush=True)
                for case in CASES:
                    cost = appends(pool, case, args.appends)
                    totals[case] += cost["backend"]
                    print(f"  {case:24s} backend {cost['backend']:.3f} ms, client {cost['client']:.3f} ms, "
                          f"wall {cost['wall']:.3f} ms per append", flush=True)
        finally:
            pool.close()
    finally:
        embedded.stop()
        shutil.rmtree(workdir, ignore_errors=True)
    print(json.dumps({f"{name}_backend_ms": round(total / args.rounds, 3) for name, total in totals.items()}))
    return 0


if __name__ == "__main__":
    sys.exit(main())

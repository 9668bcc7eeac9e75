"""Deadlines: what waiting ones cost the command path, and how soon due ones are acted on.

Run from the repository root::

    .venv/bin/python bench/clocks.py [--games 10000] [--due 1000] [--rounds 6] [--seconds 4]

One run, one fresh embedded PostgreSQL (deleted at the end), ``casino serve``
from this checkout with its defaults (every worker keeps the deadlines,
``service.timeouts``), and two measurements:

1. ``command_ratio``: the commands per second of ``bench/service.py``'s
   load (recorded games of two seats without clocks, ``--clients``
   clients) while ``--games`` clocked games wait for their seats (none due
   during the measurement: a clock of an hour per move), over the same load
   with no deadlines waiting. The two alternate round by round in one run:
   between rounds the waiting deadlines are moved to a table of their own,
   which nobody reads, and back.
2. ``deadline_lag_p99_ms``, ``timeouts_missed``, ``timeouts_doubled``: of
   the ``--games`` clocked games, ``--due`` are made to fall due within
   the same second, the rest still waiting. The games are created through
   the service layer on the same database (``GameService`` over the
   PostgreSQL store, keyed as ``casino serve`` keys it), each creation at a
   moment chosen so that its dealer's time runs out in that second (time
   is data: the creation's moment is its events' ``recorded_at``). Nobody
   calls the API: the server's workers claim the due deadlines and append
   the time-outs. The bench reads the global log every 20 ms onwards from
   where it left off and notes when each game's ``TimedOut`` is first there
   (committed); the lag is that moment less the deadline. A game with no ``TimedOut`` ten seconds
   after the second is missed; one with two is doubled.

The last line is one JSON object.
"""

from __future__ import annotations

import argparse
import json
import random
import shutil
import statistics
import sys
import tempfile
import threading
import time
import uuid
from datetime import UTC, datetime, timedelta
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path[:] = [str(HERE.parent)] + [p for p in sys.path if p not in (str(HERE.parent), str(HERE), "")]

from bench import service as bench  # noqa: E402 - after the path fix above

TARGETS = {"deadline_lag_p99_ms": 2000, "timeouts_missed": 0, "timeouts_doubled": 0, "command_ratio": 0.95}
WAITING_SECONDS = 3600  # a clock no measurement outlasts
DUE_CLOCK_SECONDS = 600
SETTLE_SECONDS = 10  # after the due second, how long a time-out may take before it counts as missed
#: ``casino serve`` as bench/service.py starts it (``python -c`` puts the checkout first on sys.path).
SERVE = "import sys; from service.ops.cli import main; sys.exit(main())"


def game_service(url: str):
    """The service layer over the PostgreSQL store, keyed as ``casino serve`` keys it."""
    from service import checkpoints
    from service.cache import StateCache
    from service.games import GameService
    from service.postgres.database import open_pool
    from service.postgres.store import PostgresEventStore

    pool = open_pool(url, min_size=1, max_size=2, timeout=30)
    key = checkpoints.key_for({"OPERATOR_TOKEN": bench.OPERATOR_TOKEN, "CHECKPOINT_KEY": None})
    store = PostgresEventStore(pool, key)
    return GameService(store, StateCache(size=16), checkpoint_key=key), store, pool


def create_clocked(url: str, moments: list[datetime], per_move: int, threads: int = 4) -> list[uuid.UUID]:
    """A clocked two-seat game created at each of ``moments`` (its dealer's
    clock starts then); their ids in the same order."""
    from domain.clocks import ClockRule
    from service.commands import CreateGame

    ids: list[uuid.UUID | None] = [None] * len(moments)

    def work(part: int) -> None:
        games, store, pool = game_service(url)
        try:
            for i in range(part, len(moments), threads):
                store._clock = (lambda at: lambda: at)(moments[i])  # the creation's moment, as data
                ids[i] = games.create(CreateGame(variant="cassino", seats=("Ann", "Bob"), options={},
                                                 first_dealer=0, clock=ClockRule(per_move_seconds=per_move))).game_id
        finally:
            pool.close()

    workers = [threading.Thread(target=work, args=(p,)) for p in range(threads)]
    for w in workers:
        w.start()
    for w in workers:
        w.join()
    assert all(ids), "every game was created"
    return ids  # type: ignore[return-value]


def sql(url: str, statement: str, params=()):
    import psycopg

    with psycopg.connect(url, autocommit=True) as conn:
        cursor = conn.execute(statement, params)
        return cursor.fetchall() if cursor.description else None


def command_ratio(args, port: int, url: str, scripts, pg_pid: int, server_pid: int) -> dict:
    """Alternate rounds of the load with the deadlines waiting and moved aside."""
    sql(url, "CREATE TABLE deadlines_aside (LIKE deadlines)")
    moves = {"aside": "WITH moved AS (DELETE FROM deadlines RETURNING *) INSERT INTO deadlines_aside"
                      " SELECT * FROM moved",
             "back": "WITH moved AS (DELETE FROM deadlines_aside RETURNING *) INSERT INTO deadlines"
                     " SELECT * FROM moved"}
    results = {"waiting": bench.Results(), "none": bench.Results()}
    meters = {name: bench.CpuMeter(pg_pid, server_pid) for name in results}
    bench.service_load(port, args.clients, 2.0, scripts, True)  # warm up
    for r in range(args.rounds):
        order = ["waiting", "none"] if r % 2 == 0 else ["none", "waiting"]
        line = []
        for name in order:
            sql(url, moves["back"] if name == "waiting" else moves["aside"])
            waiting = sql(url, "SELECT count(*) FROM deadlines")[0][0]
            with meters[name].measure():
                done = results[name].add(*bench.service_load(port, args.clients, args.seconds,
                                                             scripts[r:] + scripts[:r], True))
            line.append(f"{name} ({waiting} deadlines) {done['per_s']:.0f}/s")
        print(f"round {r + 1}: " + ", ".join(line), flush=True)
    sql(url, moves["back"])
    sql(url, "DROP TABLE deadlines_aside")
    summaries = {name: result.summary() for name, result in results.items()}
    for name, summary in summaries.items():
        print(bench.fmt_run(name, summary))
        print("            " + meters[name].describe(summary["count"], "command"))
    return {"commands_per_s_waiting": round(summaries["waiting"]["per_s"], 1),
            "commands_per_s_none": round(summaries["none"]["per_s"], 1),
            "command_ratio": round(summaries["waiting"]["per_s"] / summaries["none"]["per_s"], 3)}


def watch_time_outs(url: str, games: list[uuid.UUID], until: float) -> dict[uuid.UUID, float]:
    """When each game's ``TimedOut`` was first seen committed (wall-clock
    time). The global log is read onwards from where the last look ended, as
    a catch-up reader reads it (below the oldest transaction still running,
    so nothing is missed), which costs the database next to nothing."""
    import psycopg

    from domain.game_types import public_type
    from service.postgres.positions import PER_TRANSACTION

    wanted: set[uuid.UUID] = set(games)
    seen: dict[uuid.UUID, float] = {}
    with psycopg.connect(url, autocommit=True) as conn:
        [(after,)] = conn.execute("SELECT coalesce(max(position), 0) FROM events").fetchall()  # none due yet
        while time.time() < until and len(seen) < len(wanted):
            rows = conn.execute(
                "SELECT position, game_id, type FROM events WHERE position > %s"
                " AND position < pg_snapshot_xmin(pg_current_snapshot())::text::bigint * %s"
                " ORDER BY position", (after, PER_TRANSACTION)).fetchall()
            now = time.time()
            for position, game_id, kind in rows:
                after = position
                if public_type(kind) == "TimedOut" and game_id in wanted:  # stored as kernel.TimedOut
                    seen.setdefault(game_id, now)
            time.sleep(0.02)
    return seen


def deadline_lag(args, url: str, waiting: list[uuid.UUID], pg_pid: int, server_pid: int) -> dict:
    """``--due`` games falling due within one second, while the rest wait."""
    sql(url, "DELETE FROM deadlines WHERE game_id = ANY(%s)", (waiting[:args.due],))  # --games on clocks in all
    started = time.monotonic()
    probe = create_clocked(url, [datetime.now(UTC)] * 40, WAITING_SECONDS)
    sql(url, "DELETE FROM deadlines WHERE game_id = ANY(%s)", (probe,))
    per_game = (time.monotonic() - started) / len(probe)
    due_second = datetime.now(UTC) + timedelta(seconds=per_game * args.due * 2 + 5)
    deadlines = [due_second + timedelta(microseconds=i * 1_000_000 // args.due) for i in range(args.due)]
    due = create_clocked(url, [d - timedelta(seconds=DUE_CLOCK_SECONDS) for d in deadlines], DUE_CLOCK_SECONDS)
    if datetime.now(UTC) >= due_second:
        print("the due games were not all created before their second: their lag counts from it", flush=True)
    kept = sql(url, "SELECT count(*) FROM deadlines")[0][0]
    print(f"{kept} deadlines kept; {args.due} due in the second from {due_second.isoformat()}", flush=True)
    meter = bench.CpuMeter(pg_pid, server_pid)
    with meter.measure():  # the server's and PostgreSQL's work on the time-outs (and the bench's watching)
        seen = watch_time_outs(url, due, due_second.timestamp() + 1 + SETTLE_SECONDS)
    print(meter.describe(len(seen), "time-out"), flush=True)
    time.sleep(1.0)  # a second append, if any, would be there by now
    counts = dict(sql(url, "SELECT game_id, count(*) FROM events WHERE type = 'TimedOut' AND game_id = ANY(%s)"
                           " GROUP BY game_id", (due + waiting,)))
    lags = sorted((seen[g] - d.timestamp()) * 1000 for g, d in zip(due, deadlines) if g in seen)
    return {
        "games_on_clocks": kept,
        "due_in_one_second": args.due,
        "deadline_lag_p50_ms": round(statistics.median(lags), 1) if lags else None,
        "deadline_lag_p99_ms": round(bench.percentile(lags, 99), 1) if lags else None,
        "deadline_lag_max_ms": round(lags[-1], 1) if lags else None,
        "timeouts_missed": sum(1 for g in due if g not in seen),
        "timeouts_doubled": sum(1 for n in counts.values() if n > 1),
        "timeouts_early": sum(1 for g in waiting[args.due:] if counts.get(g)),  # a waiting game's: none
        "timeout_cpu_ms": {k: round(v, 2) for k, v in meter.per(len(seen)).items()},
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--due", type=int, default=1000)
    parser.add_argument("--rounds", type=int, default=6)
    parser.add_argument("--seconds", type=float, default=4.0, help="per side and round")
    parser.add_argument("--clients", type=int, default=16)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)

    from service.postgres.database import EmbeddedPostgres

    workdir = Path(tempfile.mkdtemp(prefix="casino-clocks-"))
    servers: list[bench.Server] = []
    embedded = None
    try:
        embedded = EmbeddedPostgres(workdir / "postgres", temporary=True)
        pg_pid = bench.postmaster_pid(workdir / "postgres" / "pgdata")
        url = embedded.database_url("casino_clocks")
        port = bench.free_port()
        servers.append(bench.Server([sys.executable, "-c", SERVE, "serve", "--port", str(port)],
                                    bench.server_env(url, workdir), workdir / "service.log", "/readyz"))
        began = time.monotonic()
        waiting = create_clocked(url, [datetime.now(UTC)] * args.games, WAITING_SECONDS)
        print(f"{args.games} clocked games created in {time.monotonic() - began:.1f} s", flush=True)
        rng = random.Random(args.seed)
        scripts = [bench.record(rng) for _ in range(2 * args.clients)]
        result = command_ratio(args, port, url, scripts, pg_pid, servers[0].pid)
        result |= deadline_lag(args, url, waiting, pg_pid, servers[0].pid)
        result["targets"] = TARGETS
        result["targets_met"] = (result["deadline_lag_p99_ms"] is not None
                                 and result["deadline_lag_p99_ms"] < TARGETS["deadline_lag_p99_ms"]
                                 and result["timeouts_missed"] == 0 and result["timeouts_doubled"] == 0
                                 and result["command_ratio"] >= TARGETS["command_ratio"])
        print(json.dumps(result))
        return 0
    finally:
        bench.stop(servers, embedded)
        shutil.rmtree(workdir, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())

"""A primary and a hot standby on this machine: what a replica takes off the
primary, what a synchronous standby costs, and one failover under load.

Run from the repository root, holding the bench lock::

    flock /work/team/bench.lock .venv/bin/python bench/replicas.py [--seconds 6] [--rounds 3]

One run, one fresh primary and its hot standby (``tests.replicas.pair``,
the embedded wheel's PostgreSQL, both in a temporary directory deleted at
the end) and two ``casino serve`` over them, alike but for
``CASINO_REPLICA_URL``: one reads everything from the primary, the other
sends the reads that may go to a replica to the standby. ``--clients``
play recorded games (``bench/service.py``'s players: commands only) at
``--rate`` commands per second in all, the same in every phase, so that
the commands cost the primary the same in each (a commit's cost depends on
how many commit together); ``--readers`` read as fast as they are
answered, as spectators, operators and feed consumers do: the listing, a
game's view (with ``If-None-Match``, the version last shown) and its log
after the last event shown, and the global log after the last position
read. Round after round, in turn:

1. commands alone (on the server with the replica): the primary's CPU per command;
2. commands and reads, the reads on the primary;
3. commands and reads, the reads on the standby.

Both PostgreSQL servers and both services share this machine's cores, so
throughput says little; what is held is the primary's own CPU (its
postmaster and every child: backends, WAL sender, checkpointer ...).

- ``primary_cpu_per_read_ratio``: the primary's CPU per read with the
  replica (3) over without (2), each phase's CPU less that of the same
  commands alone (1). Target: at most 0.3.
- ``primary_cpu_per_command_ratio``: the primary's CPU per command while
  the reads go to the standby (3) over commands alone (1). Target: at most 1.1.
- ``sync_commit_ratio``: commands per second with the standby synchronous
  (``synchronous_standby_names``, ``synchronous_commit = on``: a commit waits
  for the standby's flush) over asynchronous, ``--sync-clients`` players
  sending commands as fast as they are answered, alternating in rounds;
  and the p99 of each.

Last, ``tests.replicas.load`` plays with eight clients under a synchronous
standby while the primary is killed (``pg_ctl stop -m immediate``) and the
standby promoted: ``acked_lost_on_failover`` counts acknowledged commands
whose events the new primary does not have (target 0), ``failover_seconds``
the time from the kill to the first command accepted after it. The last
line of output is one JSON object.
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import random
import shutil
import sys
import tempfile
import threading
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path[:] = [str(HERE.parent)] + [p for p in sys.path if p not in (str(HERE.parent), str(HERE), "")]

from bench import service as bench  # noqa: E402 - after the path fix above
from tests.replicas.load import Load, audit  # noqa: E402
from tests.replicas.pair import Pair  # noqa: E402

TARGETS = {"primary_cpu_per_read_ratio": 0.3, "primary_cpu_per_command_ratio": 1.1, "acked_lost_on_failover": 0}


def paced_commands(port: int, clients: int, seconds: float, scripts: list[bench.Script],
                   rate: float) -> tuple[list[bench.Tally], float]:
    """``clients`` players sending ``rate`` commands a second in all, each
    its share at even intervals (a command late starts the next at once)."""
    interval = clients / rate

    def work(i: int, tally: bench.Tally, stop: threading.Event) -> None:
        client = bench.Client(port)
        due = time.perf_counter() + interval * i / clients
        try:
            for n in range(i, 10**9, clients):
                player = bench.Player(client, scripts[n % len(scripts)], tally)
                try:
                    player.create()
                    while not player.finished:
                        due += interval
                        if stop.wait(max(0.0, due - time.perf_counter())):
                            return
                        player.step()
                except bench.CommandFailed:
                    continue  # counted in the tally; start another game
        finally:
            client.close()

    return bench.run_clients(clients, seconds, work)


def read_load(port: int, readers: int, seconds: float) -> tuple[list[bench.Tally], float]:
    """``readers`` clients reading as spectators, operators and feed consumers do, for ``seconds``."""

    def work(i: int, tally: bench.Tally, stop: threading.Event) -> None:
        client, rng = bench.Client(port), random.Random(i)
        shown: dict[str, int] = {}  # game id -> the version last shown
        games: list[str] = []
        position = 0
        try:
            for n in range(10**9):
                if stop.is_set():
                    return
                if n % 8 == 0:
                    page = _read(client, tally, "/v1/games?limit=20", bench.OPERATOR_TOKEN)
                    games = [g["id"] for g in page["games"]] if page else games
                elif n % 8 == 1:
                    page = _read(client, tally, f"/v1/events?after={position}&limit=100", bench.OPERATOR_TOKEN)
                    position = page["next"] if page else position
                elif games:
                    game = rng.choice(games)
                    last = shown.get(game, 0)
                    view = _read(client, tally, f"/v1/games/{game}", headers={"If-None-Match": f'"{last}"'})
                    if view:
                        shown[game] = view["version"]
                    _read(client, tally, f"/v1/games/{game}/events?after={last}")
        finally:
            client.close()

    return bench.run_clients(readers, seconds, work)


def _read(client: bench.Client, tally: bench.Tally, path: str, token: str | None = None,
          headers: dict | None = None) -> dict | None:
    status, out, seconds = client.request("GET", path, token=token, headers=headers)
    if status not in (200, 304):
        tally.error(f"GET {path.split('?')[0].rsplit('/', 1)[-1]} {status}")
        return None
    tally.latencies.append(seconds)
    return out if status == 200 else None


def together(*loads):
    """Run the loads (functions returning tallies and wall time) at once; their results in order."""
    results: list = [None] * len(loads)

    def run(n: int) -> None:
        results[n] = loads[n]()

    threads = [threading.Thread(target=run, args=(n,)) for n in range(len(loads))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return results


class Totals:
    """Commands, reads and the primary's CPU seconds over every round of one phase."""

    def __init__(self):
        self.commands = self.reads = 0
        self.wall = self.primary = self.standby = 0.0
        self.latencies: list[float] = []

    def add(self, commands: tuple | None, reads: tuple | None, primary: float, standby: float) -> None:
        if commands is not None:
            tallies, wall = commands
            self.commands += sum(len(t.latencies) for t in tallies)
            self.latencies += [x for t in tallies for x in t.latencies]
            self.wall += wall
        if reads is not None:
            self.reads += sum(len(t.latencies) for t in reads[0])
        self.primary += primary
        self.standby += standby

    def per_s(self) -> float:
        return self.commands / self.wall if self.wall else 0.0

    def p99_ms(self) -> float:
        return bench.percentile(self.latencies, 99) * 1000

    def describe(self, name: str) -> str:
        line = f"  {name:<34} {self.commands:6d} commands ({self.per_s():6.1f}/s, p99 {self.p99_ms():6.1f} ms)"
        if self.reads:
            line += f", {self.reads:6d} reads"
        return (line + f"; primary CPU {self.primary:6.2f} s, standby {self.standby:6.2f} s")


def routed(port: int) -> dict[str, float]:
    """The server's ``casino_routed_reads_total``, by the server that answered."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    conn.request("GET", "/metrics")
    text = conn.getresponse().read().decode()
    conn.close()
    return {line.split('"')[1]: float(line.split()[-1]) for line in text.splitlines()
            if line.startswith("casino_routed_reads_total{")}


def cpu_of(pid: int, load):
    """``load()``, and the CPU seconds the process tree of ``pid`` used meanwhile."""
    before = bench.tree_cpu(pid)
    found = load()
    return found, bench.tree_cpu(pid) - before


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=8.0, help="each phase of each round")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--clients", type=int, default=4, help="players sending commands")
    parser.add_argument("--rate", type=float, default=40.0, help="commands per second, all players together")
    parser.add_argument("--readers", type=int, default=16, help="spectators, operators and feed readers")
    parser.add_argument("--sync-clients", type=int, default=8, help="players measuring the synchronous standby")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)

    print(f"casino replicas bench: {args.clients} players ({args.rate:g} commands/s), {args.readers} readers,"
          f" {args.rounds} rounds of {args.seconds:g} s; {os.cpu_count()} cores;"
          f" load average {os.getloadavg()[0]:.1f}", flush=True)
    workdir = Path(tempfile.mkdtemp(prefix="casino-bench-replicas-"))
    began = time.perf_counter()
    pair = Pair.start(workdir / "pair")
    print(f"A primary and its standby ready in {time.perf_counter() - began:.1f} s", flush=True)
    servers: list[bench.Server] = []
    try:
        primary_pid, standby_pid = (bench.postmaster_pid(node.pgdata) for node in pair.nodes)
        cli = [sys.executable, "-c", "import sys; from service.ops.cli import main; sys.exit(main())", "serve"]
        env = bench.server_env(pair.url(), workdir)
        alone = bench.Server([*cli, "--port", str(bench.free_port())], env, workdir / "alone.log", "/readyz")
        servers.append(alone)
        replicated = bench.Server([*cli, "--port", str(bench.free_port())],
                                  {**env, "CASINO_REPLICA_URL": pair.replica_url()}, workdir / "replicated.log",
                                  "/readyz")
        servers.append(replicated)
        rng = random.Random(args.seed)
        scripts = [bench.record(rng) for _ in range(2 * args.clients)]
        bench.service_load(replicated.port, args.clients, 2.0, scripts, True)  # warm up: games to read, caches

        def commands(server: bench.Server):
            return lambda: paced_commands(server.port, args.clients, args.seconds, scripts, args.rate)

        def reads(server: bench.Server):
            return lambda: read_load(server.port, args.readers, args.seconds)

        phases = {"commands alone": Totals(), "commands + reads on the primary": Totals(),
                  "commands + reads on the standby": Totals()}
        for _ in range(args.rounds):
            for name, totals in phases.items():
                server = alone if "primary" in name else replicated
                loads = [commands(server)] + ([reads(server)] if "reads" in name else [])
                standby_before = bench.tree_cpu(standby_pid)
                found, primary = cpu_of(primary_pid, lambda loads=loads: together(*loads))
                totals.add(found[0], found[1] if len(found) > 1 else None, primary,
                           bench.tree_cpu(standby_pid) - standby_before)
        print("\nReads beside commands (every round together):")
        for name, totals in phases.items():
            print(totals.describe(name))
        alone_phase, on_primary, on_standby = phases.values()
        per_command = alone_phase.primary / alone_phase.commands
        per_read = {name: (totals.primary - alone_phase.primary * totals.wall / alone_phase.wall) / totals.reads
                    for name, totals in (("primary", on_primary), ("standby", on_standby))}
        print(f"  the primary's CPU per command alone {per_command * 1000:.3f} ms; per read, less the commands'"
              f" share: {per_read['primary'] * 1000:.3f} ms with the reads on it,"
              f" {per_read['standby'] * 1000:.3f} ms with them on the standby", flush=True)
        print(f"  the reads that may come from the standby came from: {routed(replicated.port)}", flush=True)
        results: dict = {
            "primary_cpu_per_read_ratio": round(per_read["standby"] / per_read["primary"], 3),
            "primary_cpu_per_command_ratio": round(on_standby.primary / on_standby.commands / per_command, 3),
        }

        print(f"\nA synchronous standby ({args.sync_clients} players as fast as they are answered,"
              " alternating):", flush=True)
        durability = {True: Totals(), False: Totals()}
        for _ in range(args.rounds):
            for synchronous, totals in durability.items():
                pair.synchronous(synchronous)
                found, primary = cpu_of(primary_pid, lambda: bench.service_load(
                    replicated.port, args.sync_clients, args.seconds, scripts, True))
                totals.add(found, None, primary, 0.0)
        pair.synchronous(False)
        for synchronous, totals in durability.items():
            print(totals.describe("synchronous" if synchronous else "asynchronous"))
        results["sync_commit_ratio"] = round(durability[True].per_s() / durability[False].per_s(), 3)
        results["sync_p99_ms"] = round(durability[True].p99_ms(), 1)
        results["async_p99_ms"] = round(durability[False].p99_ms(), 1)

        print("\nOne failover under load, the standby synchronous (8 clients):", flush=True)
        results.update(failover(pair, replicated.port, args.seconds))
        results["targets_met"] = all(results[k] <= v for k, v in TARGETS.items())
    finally:
        for server in servers:
            server.stop()
        pair.remove()
        shutil.rmtree(workdir, ignore_errors=True)
    print(json.dumps(results))
    return 0


def failover(pair: Pair, port: int, seconds: float) -> dict:
    """Eight clients play; the primary is killed and the standby promoted halfway."""
    pair.synchronous(True)
    load = Load(port, clients=8)
    load.start()
    try:
        time.sleep(seconds / 2)
        killed_at = pair.kill()
        pair.promote()
        deadline = time.monotonic() + 60
        while load.first_answer_after(killed_at) is None and time.monotonic() < deadline:
            time.sleep(0.05)
        time.sleep(seconds / 2)
    finally:
        load.stop()
    found = audit(load, pair.primary.url("casino"))
    accepted = load.first_answer_after(killed_at)
    print(f"  {found.acknowledged} commands acknowledged in {found.games} games: {len(found.lost)} lost,"
          f" {len(found.doubled)} applied twice; {load.unanswered} never answered; answers neither right nor"
          f" a 503: {len(load.bad)}", flush=True)
    return {"acked_lost_on_failover": len(found.lost), "doubled_on_failover": len(found.doubled),
            "failover_seconds": round(accepted - killed_at, 3) if accepted is not None else None}


if __name__ == "__main__":
    sys.exit(main())

"""Casino on a Citus cluster beside plain PostgreSQL, in one run: where each
command's statements go, what a command costs, and shards moved and a worker
lost while games are played.

Run from the repository root, holding the bench lock::

    flock /work/bench.lock .venv/bin/python bench/citus.py [--seconds 6] [--rounds 3]

One run makes, in a temporary directory deleted at the end, a plain
PostgreSQL server (the embedded wheel's, with the cluster's settings but
Citus) and a Citus cluster of a coordinator and two workers
(``tests.citus.cluster``: the same wheel's PostgreSQL with Citus 14 built
once per machine by ``tests.citus.build``), each migrated, and a
``casino serve`` on each: its ``DATABASE_URL`` the plain server, or the
cluster's workers in libpq's multi-host form (each connection to either,
``load_balance_hosts=random``: ``Cluster.workers_url``), as the service
is deployed on a cluster; and, for the figure before that, a third one
connected to the coordinator.

1. ``multi_node_command_share``: the share of commands (deals and plays of
   recorded games, ``bench/service.py``'s players) whose statements went to
   more than one node. The commands are sent one at a time to an app in
   this process (on the cluster, with no time keeper or pairer beside it,
   whose claims read every shard), with Citus logging each statement it
   sends to a node and the node (``citus.log_remote_commands``): the nodes
   each command reached are read from the coordinator's log between one
   command and the next. ``multi_shard_statements``: Citus' own count of
   statements run on several shards (``citus_stat_counters``) over the
   same commands. Target: 0.0 and 0. ``keyed_creation_multi_node_share``:
   the same share of the creations of those games, each made under an
   ``Idempotency-Key`` and sent twice (the retry is answered from the key's
   record, filed with the game), and more games created so, up to
   ``--creations``; ``keyed_creations``, how many. Target: 0.0.
2. ``citus_command_cost_ratio``: the CPU per command of the service on the
   workers and every node of the cluster (each postmaster and all its
   children, from /proc via psutil) over that of the service and the plain
   server, the same players sending the same commands at the same rate to
   each in turn (the other service paused meanwhile: SIGSTOP), ``--rounds``
   rounds of ``--seconds``, one ``casino serve`` on each database. Target:
   at most 1.5. ``citus_via_coordinator_command_cost_ratio``: the same of
   a service on the coordinator, measured after, against plain again, the
   service on the workers stopped meanwhile (a service paused still
   listens on every node, which then delivers each append's notification
   to it: the nodes' CPU per command rose by 0.6-1 ms so).
   ``multi_shard_statements_while_measured``: Citus' count of statements
   run on several shards while the service on the workers was measured
   (every node's).
   ``<server>_idle_cpu_ms_per_s``: what the same processes spend with the
   service running and no command sent (its background looks: the time
   keeper's and the pairer's), ``--idle-seconds`` each, before the rounds:
   a part of each command's figure that falls as the rate rises.
3. Shards moved while games are played (the service on the workers, as in
   4.): ``tests.replicas.load``'s careful
   clients (each command under an ``Idempotency-Key``, sent again after a
   503 or a cut) play while a third worker is added and
   ``citus_rebalance_start()`` moves shards to it: ``rebalance_acked_lost``
   (commands acknowledged whose events are not stored) and
   ``rebalance_doubled`` (stored twice), with ``shards_moved``. Target: 0, 0.
4. A worker lost: its postmaster killed (SIGKILL) under load and started
   again two seconds later: ``worker_kill_acked_lost`` (target 0),
   ``worker_kill_doubled``, the commands the other workers' games
   acknowledged meanwhile and the 503s the lost one's answered.

Last, every game on the cluster is verified (``casino verify``'s checks):
``games_failing_verify`` (target 0), and a restore point is made on every
node at once (``citus_create_restore_point``, docs/scaling.md "Backups of a
cluster"): ``restore_point_ms``. The last line of output is one JSON object.
"""

from __future__ import annotations

import argparse
import io
import json
import os
import random
import re
import secrets
import shutil
import signal
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path[:] = [str(HERE.parent)] + [p for p in sys.path if p not in (str(HERE.parent), str(HERE), "")]

import migrations  # noqa: E402 - after the path fix above
from bench import service as bench  # noqa: E402
from bench.replicas import paced_commands  # noqa: E402
from service import checkpoints  # noqa: E402
from service.ops.commands import verify_games  # noqa: E402
from service.postgres.database import open_pool  # noqa: E402
from service.postgres.readmodel import PostgresReadModel  # noqa: E402
from service.postgres.servers import Server  # noqa: E402
from tests.citus import build  # noqa: E402
from tests.citus.cluster import DATABASE, SETTINGS, Cluster  # noqa: E402
from tests.replicas.load import Load, audit  # noqa: E402

TARGETS = {"multi_node_command_share": 0.0, "keyed_creation_multi_node_share": 0.0,
           "citus_command_cost_ratio": 1.5, "rebalance_acked_lost": 0,
           "rebalance_doubled": 0, "worker_kill_acked_lost": 0, "games_failing_verify": 0}
#: The plain server runs as the cluster's nodes do, Citus aside.
PLAIN_SETTINGS = {k: v for k, v in SETTINGS.items() if "citus" not in k and k != "shared_preload_libraries"}
OUTAGE_SECONDS = 2.0
#: ``casino serve`` from this checkout (``python -c`` puts it first on sys.path).
CLI = [sys.executable, "-c", "import sys; from service.ops.cli import main; sys.exit(main())", "serve"]


class InProcess:
    """``bench.Client``'s interface over a Flask test client: the app in this process."""

    def __init__(self, client):
        self.client = client

    def request(self, method: str, path: str, body=None, token: str | None = None,
                headers: dict | None = None) -> tuple[int, object, float]:
        sent = dict(headers or {})
        if token is not None:
            sent["Authorization"] = f"Bearer {token}"
        began = time.perf_counter()
        response = self.client.open(path, method=method, json=body, headers=sent)
        return response.status_code, response.get_json(silent=True), time.perf_counter() - began


#: A statement Citus sent to a node, as its log says (the sending backend's pid, the node).
_ON_SERVER = re.compile(r"\[(\d+)\] DETAIL:  on server \S+@(\S+):\d+ connectionId")
#: The application name of the measured app's connections, to tell its statements
#: from those of Citus' own maintenance (its deadlock detector asks every node).
_MEASURED = "casino-bench-commands"


def nodes_per_command(cluster: Cluster, scripts: list[bench.Script], commands: int,
                      creations: int) -> tuple[Counter, int, int, Counter]:
    """Send ``commands`` commands one at a time; how many reached how many
    nodes (from Citus' log of the statements it sent), how many were sent,
    and Citus' count of multi-shard statements meanwhile. Each game is
    created under an ``Idempotency-Key`` and the creation sent again (a
    retry, answered from the key's record), and more games so until
    ``creations`` were: the last, how many of those creations and retries
    reached how many nodes."""
    from service.web.app import close_app, create_app

    log = cluster.coordinator.pgdata / "log"
    cluster.coordinator.configure(**{"citus.log_remote_commands": "on", "log_min_messages": "notice"})
    app = create_app({"DATABASE_URL": f"{cluster.url}&application_name={_MEASURED}",
                      "OPERATOR_TOKEN": bench.OPERATOR_TOKEN,
                      "REGISTRATIONS_PER_ADDRESS": 10_000, "GUEST_JOINS_PER_ADDRESS": 10_000})
    reached: Counter = Counter()
    created: Counter = Counter()
    sent = 0

    def nodes_reached(request) -> int:
        """The nodes the statements of ``request()`` (one request of the app's) went to."""
        offset = log.stat().st_size
        request()
        ours = {str(pid) for (pid,) in cluster.coordinator.sql(
            "SELECT pid FROM pg_stat_activity WHERE application_name = %s", (_MEASURED,))}
        with log.open(errors="replace") as text:
            text.seek(offset)
            return len({node for pid, node in _ON_SERVER.findall(text.read()) if pid in ours})

    try:
        client, tally = KeyedCreations(app.test_client()), bench.Tally()
        multi_before = multi_shard(cluster)
        for n in range(10**6):
            player = bench.Player(client, scripts[n % len(scripts)], tally)
            client.creation_key = secrets.token_urlsafe(16)
            created[nodes_reached(player.create)] += 1
            first = player.game_id, player.tokens
            created[nodes_reached(player.create)] += 1  # the retry: the same game and tokens
            assert (player.game_id, player.tokens) == first, "a creation's retry under its key got another game"
            while not player.finished and sent < commands:
                reached[nodes_reached(player.step)] += 1
                sent += 1
            if sent >= commands and n + 1 >= creations:
                break
        multi = multi_shard(cluster) - multi_before
    finally:
        close_app(app)
        cluster.coordinator.configure(**{"citus.log_remote_commands": "off", "log_min_messages": "warning"})
    return reached, sent, multi, created


class KeyedCreations(InProcess):
    """``InProcess``, each game created under ``creation_key``."""

    creation_key: str | None = None

    def request(self, method: str, path: str, body=None, token: str | None = None,
                headers: dict | None = None) -> tuple[int, object, float]:
        if (method, path) == ("POST", "/v1/games") and self.creation_key is not None:
            headers = {**(headers or {}), "Idempotency-Key": self.creation_key}
        return super().request(method, path, body, token, headers)


def multi_shard(cluster: Cluster) -> int:
    """Citus' count of statements run on several shards, on every node."""
    return sum(node.sql("SELECT query_execution_multi_shard FROM citus_stat_counters WHERE name = %s",
                        (DATABASE,), DATABASE)[0][0] for node in cluster.nodes)


def cost_per_command(port: int, pids: list[int], args, scripts: list[bench.Script]) -> tuple[int, list[float]]:
    """One round on one server: the commands acknowledged and the CPU seconds each of ``pids`` used."""
    before = [bench.tree_cpu(pid) for pid in pids]
    tallies, _ = paced_commands(port, args.clients, args.seconds, scripts, args.rate)
    return sum(len(t.latencies) for t in tallies), [bench.tree_cpu(pid) - b for pid, b in zip(pids, before)]


def cpu_per_command(measured: dict[str, tuple[bench.Server, list[int]]], args,
                    scripts: list[bench.Script]) -> dict:
    """The CPU each named service and its database's processes (``pids``)
    spend with no command sent, and per command in ``--rounds`` rounds
    taken in turn (the other service paused meanwhile: its time keeper and
    pairer would use the same machine); the second over the first
    (``<second>_command_cost_ratio``, the first being plain PostgreSQL)."""
    for server, _ in measured.values():  # warm up: caches, prepared statements, pools
        paced_commands(server.port, args.clients, 2.0, scripts, args.rate)
    results: dict = {}
    for name, (server, pids) in measured.items():
        with paused([other for other, _ in measured.values() if other is not server]):
            results[f"{name}_idle_cpu_ms_per_s"] = idle_cost(pids, args.idle_seconds)
    print("  with no command sent, CPU ms a second: " + ", ".join(
        f"{name} {results[f'{name}_idle_cpu_ms_per_s']}" for name in measured), flush=True)
    totals = {name: [0, [0.0] * len(pids)] for name, (_, pids) in measured.items()}
    for _ in range(args.rounds):
        for name, (server, pids) in measured.items():
            with paused([other for other, _ in measured.values() if other is not server]):
                commands, cpu = cost_per_command(server.port, pids, args, scripts)
            totals[name][0] += commands
            totals[name][1] = [a + b for a, b in zip(totals[name][1], cpu)]
    per = {name: sum(cpu) / commands * 1000 for name, (commands, cpu) in totals.items()}
    for name, (commands, cpu) in totals.items():
        parts = ["service", "server"] if len(cpu) == 2 else ["service", "coordinator", "worker 1", "worker 2"]
        each = ", ".join(f"{part} {seconds / commands * 1000:.2f}" for part, seconds in zip(parts, cpu))
        print(f"  {name:<21} {commands:6d} commands, {sum(cpu):6.2f} CPU s: {per[name]:.2f} ms a command ({each})",
              flush=True)
        results[f"{name}_cpu_ms_per_command_by_process"] = {
            part: round(seconds / commands * 1000, 2) for part, seconds in zip(parts, cpu)}
        results[f"{name}_cpu_ms_per_command"] = round(per[name], 2)
    first, second = measured
    results[f"{second}_command_cost_ratio"] = round(per[second] / per[first], 3)
    return results


def idle_cost(pids: list[int], seconds: float) -> float:
    """The CPU milliseconds a second that ``pids`` spend over ``seconds`` with no command sent."""
    before = sum(bench.tree_cpu(pid) for pid in pids)
    time.sleep(seconds)
    return round((sum(bench.tree_cpu(pid) for pid in pids) - before) / seconds * 1000, 1)


@contextmanager
def paused(servers: list[bench.Server]) -> Iterator[None]:
    """The servers (each its own process group) stopped (SIGSTOP) meanwhile, continued after."""
    for server in servers:
        os.killpg(server.pid, signal.SIGSTOP)
    try:
        yield
    finally:
        for server in servers:
            os.killpg(server.pid, signal.SIGCONT)


def under_load(port: int, **options) -> Load:
    load = Load(port, **options)
    load.start()
    return load


def rebalance_under_load(cluster: Cluster, port: int) -> dict:
    load = under_load(port, clients=6)
    try:
        time.sleep(1.0)
        began = time.perf_counter()
        cluster.add_worker()
        moved = cluster.rebalance()
        took = time.perf_counter() - began
        time.sleep(1.0)
    finally:
        load.stop()
    found = audit(load, cluster.url)
    print(f"  a worker added and {moved} shards moved in {took:.1f} s while {found.games} games were played:"
          f" {found.acknowledged} commands acknowledged, {len(found.lost)} lost, {len(found.doubled)} applied"
          f" twice; {load.refused} answers 503, {len(load.bad)} neither right nor 503", flush=True)
    for bad in load.bad[:3]:
        print(f"    neither right nor 503: {str(bad)[:300]}", flush=True)
    return {"rebalance_acked_lost": len(found.lost), "rebalance_doubled": len(found.doubled), "shards_moved": moved,
            "rebalance_seconds": round(took, 2), "rebalance_503s": load.refused, "rebalance_bad_answers": len(load.bad)}


def worker_killed_under_load(cluster: Cluster, port: int) -> dict:
    load = under_load(port, clients=6, pace=0.05, commands_per_game=10_000)
    lost = 1
    try:
        time.sleep(1.5)
        refused = load.refused
        killed_at = cluster.kill(lost)
        time.sleep(OUTAGE_SECONDS)
        refused = load.refused - refused
        restarted_at = cluster.restart(lost)
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline and not any(
                cluster.worker_of(a.game) == lost for a in load.sent_after(restarted_at)):
            time.sleep(0.1)
    finally:
        load.stop()
    back = [a.answered_at for a in load.sent_after(restarted_at) if cluster.worker_of(a.game) == lost]
    while_down = Counter(cluster.worker_of(a.game) for a in load.sent_after(killed_at)
                         if a.answered_at < restarted_at)
    found = audit(load, cluster.url)
    others = sum(count for node, count in while_down.items() if node != lost)
    print(f"  worker {lost} killed, started again {restarted_at - killed_at:.1f} s later: meanwhile the other"
          f" workers' games acknowledged {others} commands, the lost one's {while_down[lost]}, and {refused}"
          f" answers were 503; {found.acknowledged} acknowledged in all, {len(found.lost)} lost,"
          f" {len(found.doubled)} applied twice, {len(load.bad)} answers neither right nor 503", flush=True)
    for bad in load.bad[:3]:
        print(f"    neither right nor 503: {str(bad)[:300]}", flush=True)
    return {"worker_kill_acked_lost": len(found.lost), "worker_kill_doubled": len(found.doubled),
            "worker_kill_other_workers_acked": others, "worker_kill_503s": refused,
            "worker_kill_bad_answers": len(load.bad),
            "worker_back_seconds": round(min(back) - restarted_at, 3) if back else None}


def failing_verify(url: str) -> tuple[int, int]:
    """How many games on the cluster fail ``casino verify``'s checks, of how many."""
    with open_pool(url) as pool:
        report = io.StringIO()
        key = checkpoints.key_for({"CHECKPOINT_KEY": None, "OPERATOR_TOKEN": bench.OPERATOR_TOKEN})
        verify_games(PostgresReadModel(pool), None, report, key, as_json=True)
    reports = json.loads(report.getvalue())
    return sum(1 for r in reports if not r["ok"]), len(reports)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=6.0, help="each server's turn in each round")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--clients", type=int, default=4, help="players sending commands")
    parser.add_argument("--rate", type=float, default=30.0, help="commands per second, all players together")
    parser.add_argument("--commands", type=int, default=300, help="commands whose nodes are counted")
    parser.add_argument("--creations", type=int, default=40,
                        help="keyed creations (each sent twice) whose nodes are counted, at least")
    parser.add_argument("--idle-seconds", type=float, default=5.0,
                        help="how long each server's CPU is counted with no command sent")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)

    print(f"casino on Citus beside plain PostgreSQL: {args.clients} players ({args.rate:g} commands/s),"
          f" {args.rounds} rounds of {args.seconds:g} s; {os.cpu_count()} cores;"
          f" load average {os.getloadavg()[0]:.1f}", flush=True)
    workdir = Path(tempfile.mkdtemp(prefix="casino-bench-citus-"))
    servers: list[bench.Server] = []
    plain = Server(workdir / "plain", port=5432, settings=PLAIN_SETTINGS)
    cluster = Cluster(workdir / "citus", build.programs())
    try:
        began = time.perf_counter()
        Server.initialise(plain.pgdata, sync=False, port=plain.port, settings=plain.settings)
        plain.start()
        plain.sql(f"CREATE DATABASE {DATABASE}")
        migrations.upgrade(plain.url(DATABASE))
        cluster.start()
        migrations.upgrade(cluster.url)
        print(f"A plain server and a coordinator with two workers ready in {time.perf_counter() - began:.1f} s",
              flush=True)
        rng = random.Random(args.seed)
        scripts = [bench.record(rng) for _ in range(2 * args.clients)]

        # Before any casino serve runs: their time keepers' and pairers' claims would be in the log too.
        print("\nWhere each command's statements went:", flush=True)
        reached, sent, multi, created = nodes_per_command(cluster, scripts, args.commands, args.creations)
        share = sum(count for nodes, count in reached.items() if nodes > 1) / sent
        creations = sum(created.values())
        keyed_share = sum(count for nodes, count in created.items() if nodes > 1) / creations
        print(f"  {sent} commands, by the number of nodes their statements went to: {dict(sorted(reached.items()))};"
              f" statements run on several shards: {multi}", flush=True)
        print(f"  {creations // 2} keyed creations and as many retries, by the same: {dict(sorted(created.items()))}",
              flush=True)
        results: dict = {"multi_node_command_share": round(share, 4), "multi_shard_statements": multi,
                         "keyed_creation_multi_node_share": round(keyed_share, 4), "keyed_creations": creations // 2}

        def serve(url: str, name: str) -> bench.Server:
            server = bench.Server([*CLI, "--port", str(bench.free_port())], bench.server_env(url, workdir),
                                  workdir / f"{name}.log", "/readyz")
            servers.append(server)
            return server

        def stop(server: bench.Server) -> None:
            server.stop()
            servers.remove(server)

        print("\nCPU per command (the service and every node of its database), the servers in turn:", flush=True)
        on_plain = serve(plain.url(DATABASE), "plain")
        plain_pids = [on_plain.pid, bench.postmaster_pid(plain.pgdata)]
        nodes = [cluster.pid(n) for n in range(len(cluster.nodes))]
        # The service as deployed on a cluster: connected to the workers (any of
        # them, each connection its own: Cluster.workers_url).
        on_workers = serve(cluster.workers_url, "citus")
        multi_before = multi_shard(cluster)
        measured = {"plain": (on_plain, plain_pids), "citus": (on_workers, [on_workers.pid, *nodes])}
        results.update(cpu_per_command(measured, args, scripts))
        # Its statements, and its time keeper's and pairer's claims (which read every shard).
        results["multi_shard_statements_while_measured"] = multi_shard(cluster) - multi_before
        # For the figure before: the service connected to the coordinator, the
        # other stopped meanwhile (not only paused: it listens on every node,
        # and each append's notification would be delivered to it there).
        stop(on_workers)
        on_coordinator = serve(cluster.url, "coordinator")
        via = cpu_per_command({"plain": (on_plain, plain_pids),
                               "citus_via_coordinator": (on_coordinator, [on_coordinator.pid, *nodes])}, args, scripts)
        results.update({key: value for key, value in via.items() if "via_coordinator" in key})
        stop(on_coordinator)
        on_workers = serve(cluster.workers_url, "citus")

        print("\nShards moved while games are played (6 clients, the service on the workers):", flush=True)
        results.update(rebalance_under_load(cluster, on_workers.port))
        print("\nA worker killed and started again under load (6 clients, the service on the workers):", flush=True)
        results.update(worker_killed_under_load(cluster, on_workers.port))
        failing, games = failing_verify(cluster.url)
        results["games_failing_verify"] = failing
        began = time.perf_counter()
        cluster.coordinator.sql("SELECT citus_create_restore_point('bench')", (), DATABASE)
        results["restore_point_ms"] = round((time.perf_counter() - began) * 1000, 1)
        print(f"\nEvery game on the cluster verified: {games} games, {failing} failing", flush=True)
        results["targets_met"] = (all(results[k] <= v for k, v in TARGETS.items()) and multi == 0)
    finally:
        for server in servers:
            server.stop()
        cluster.remove()
        plain.remove()
        shutil.rmtree(workdir, ignore_errors=True)
    print(json.dumps(results))
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""Two checkouts of the service under the same load, in one run.

Run from the repository root::

    .venv/bin/python bench/service_ab.py BEFORE AFTER [--rounds 6] [--seconds 5]

``BEFORE`` and ``AFTER`` are directories holding a checkout of this
repository (``git worktree add /tmp/before main``, say), each optionally
followed by ``:NAME=VALUE`` settings for its server's environment
(``.:CASINO_THREADS=2`` is this checkout with two threads per worker). Both
run as ``casino serve`` on one embedded PostgreSQL (a database each, at
its checkout's schema), and the clients of
``bench/service.py`` play recorded games against one and then the other,
round after round (the order flips every round), so whatever else the
machine does weighs on both alike. For each it prints commands per second,
p50 and p99, and the CPU per command of the clients, the server and
PostgreSQL.

This is how to tell whether a change to the command path pays: the
machine's speed drifts by a fifth within the hour, so figures from two runs
of ``bench/service.py`` cannot show a change of a few per cent; two
servers in one run can, given rounds enough. Rounds still differ by up to
15% from one another: six rounds have shown a 9% gain that sixteen did not
confirm, so take the default sixteen (about two minutes) or more. A
checkout run against itself has come out 3% apart in sixteen rounds:
smaller differences are noise.
"""

from __future__ import annotations

import argparse
import random
import shutil
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path[:] = [str(HERE.parent)] + [p for p in sys.path if p not in (str(HERE.parent), str(HERE), "")]

from bench import service as bench  # noqa: E402 - after the path fix above


#: Where ``casino``'s command line is, in this layout and in the flat one before it.
CLI_MODULES = ("service.ops.cli", "service.cli")


def cli_module(checkout: Path) -> str:
    """The module of the checkout's command line (``CLI_MODULES``)."""
    for module in CLI_MODULES:
        if (checkout / (module.replace(".", "/") + ".py")).is_file():
            return module
    raise SystemExit(f"{checkout} is not a checkout of this repository")


def parse_side(text: str) -> tuple[str, Path, dict[str, str]]:
    """``DIR[:NAME=VALUE...]``: a label, the checkout, its environment settings."""
    directory, *settings = text.split(":")
    env = {}
    for setting in settings:
        name, equals, value = setting.partition("=")
        if not equals:
            raise SystemExit(f"{text!r}: settings are NAME=VALUE")
        env[name] = value
    checkout = Path(directory).resolve()
    cli_module(checkout)
    return text, checkout, env


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("before", type=parse_side)
    parser.add_argument("after", type=parse_side)
    parser.add_argument("--rounds", type=int, default=16)
    parser.add_argument("--seconds", type=float, default=3.0, help="per side and round")
    parser.add_argument("--clients", type=int, default=16)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)

    from service.postgres.database import EmbeddedPostgres

    workdir = Path(tempfile.mkdtemp(prefix="casino-ab-"))
    servers: list[bench.Server] = []
    embedded = None
    try:
        embedded = EmbeddedPostgres(workdir / "postgres", temporary=True)
        pg_pid = bench.postmaster_pid(workdir / "postgres" / "pgdata")
        sides = [args.before, args.after]
        for i, (label, checkout, settings) in enumerate(sides):
            # A database each, which `casino serve` migrates to its checkout's schema.
            url = embedded.database_url(f"casino_ab_{i}")
            env = {**bench.server_env(url, workdir), **settings, "PYTHONPATH": str(checkout),
                   "CASINO_DATA_DIR": str(workdir / f"data-{i}")}
            port = bench.free_port()
            # `python -c` puts its working directory first on sys.path: the checkout's service.
            servers.append(bench.Server(
                [sys.executable, "-c", f"import sys; from {cli_module(checkout)} import main; sys.exit(main())",
                 "serve", "--port", str(port)], env, workdir / f"service-{i}.log", "/readyz", cwd=checkout))
            print(f"{label}: serving from {checkout}", flush=True)
        rng = random.Random(args.seed)
        scripts = [bench.record(rng) for _ in range(2 * args.clients)]
        for server in servers:  # warm up
            bench.service_load(server.port, args.clients, 2.0, scripts, True)

        results = [bench.Results() for _ in servers]
        meters = [bench.CpuMeter(pg_pid, server.pid) for server in servers]
        for r in range(args.rounds):
            order = [0, 1] if r % 2 == 0 else [1, 0]
            line = []
            for i in order:
                with meters[i].measure():
                    done = results[i].add(*bench.service_load(
                        servers[i].port, args.clients, args.seconds, scripts[r:] + scripts[:r], True))
                line.append(f"{sides[i][0]} {done['per_s']:.0f}/s")
            print(f"round {r + 1}: " + ", ".join(line), flush=True)
        summaries = [result.summary() for result in results]
        for (label, _, _), summary, meter in zip(sides, summaries, meters, strict=True):
            print(bench.fmt_run(label, summary))
            print("            " + meter.describe(summary["count"], "command"))
        before, after = summaries
        if before["per_s"]:
            print(f"after / before: {after['per_s'] / before['per_s']:.3f} commands per second")
        return 0
    finally:
        bench.stop(servers, embedded)
        shutil.rmtree(workdir, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())

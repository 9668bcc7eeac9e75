"""How long a commit on a quiet embedded primary takes to reach its WAL
archive: what a restore from the archive alone may lose (docs/scaling.md,
Backups).

Run from the repository root, holding the bench lock::

    flock /work/bench.lock .venv/bin/python bench/archive.py [--commits 3]

One embedded primary in a temporary directory, archiving as ``casino
serve`` has it with ``CASINO_WAL_ARCHIVE`` (``archive_timeout`` of
``ARCHIVE_TIMEOUT`` seconds, and ``casino serve``'s ``ArchiveKeeper``;
``--no-keeper``: PostgreSQL's ``archive_timeout`` alone). Each commit is a single row, the only change
on the server, made at another point of the archiver's cycle: the first
just after the start, each next one ``spacing`` seconds after the one
before reached the archive (0 s: right after a segment was finished, the
worst case). For each, the seconds from its commit until the archive holds
it (``service.postgres.wal.last_commit``, as ``casino restore`` reads it).
The last line is one JSON object: ``lags_seconds`` and ``max_lag_seconds``
(target: at most ``archive_timeout_seconds`` and a second).
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path

import psycopg

HERE = Path(__file__).resolve().parent
sys.path[:] = [str(HERE.parent)] + [p for p in sys.path if p not in (str(HERE.parent), str(HERE), "")]

from service.postgres.archiving import ArchiveKeeper  # noqa: E402 - after the path fix
from service.postgres.database import ARCHIVE_TIMEOUT, EmbeddedPostgres, Exposure  # noqa: E402
from service.postgres.wal import last_commit  # noqa: E402


def lag(url: str, archive: Path, give_up: float) -> float | None:
    """Commit one row; the seconds until the archive holds that commit (None: not within ``give_up``)."""
    with psycopg.connect(url, autocommit=True) as conn:
        (before,) = conn.execute("INSERT INTO marks VALUES (default) RETURNING clock_timestamp()").fetchone()
    while (last := last_commit(archive)) is None or last < before:
        if (datetime.now(UTC) - before).total_seconds() > give_up:
            return None
        time.sleep(0.25)
    return round((datetime.now(UTC) - before).total_seconds(), 2)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--commits", type=int, default=3)
    parser.add_argument("--no-keeper", action="store_true")
    parser.add_argument("--give-up", type=float, default=3 * ARCHIVE_TIMEOUT, metavar="SECONDS")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="casino-archive-") as where:
        archive = Path(where) / "wal"
        server = EmbeddedPostgres(Path(where) / "primary", temporary=True, exposure=Exposure(wal_archive=archive))
        keeper = None
        try:
            url = server.database_url()
            with psycopg.connect(url, autocommit=True) as conn:
                conn.execute("CREATE TABLE marks (id serial PRIMARY KEY)")
            keeper = None if args.no_keeper else ArchiveKeeper(url)
            if keeper is not None:
                keeper.start()
            lags, spacing = [], [0.0] + [(i * ARCHIVE_TIMEOUT / args.commits) % ARCHIVE_TIMEOUT
                                         for i in range(args.commits - 1)]
            for wait in spacing:
                time.sleep(wait)
                lags.append(lag(url, archive, args.give_up))
                print(f"a commit reached the archive after {lags[-1]} s", flush=True)
                if lags[-1] is None:
                    break
        finally:
            if keeper is not None:
                keeper.stop()
            server.stop()
    print(json.dumps({"archive_timeout_seconds": ARCHIVE_TIMEOUT, "keeper": keeper is not None, "lags_seconds": lags,
                      "max_lag_seconds": None if None in lags else max(lags)}))


if __name__ == "__main__":
    main()

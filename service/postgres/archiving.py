"""Keeps a quiet embedded primary's WAL archive at most a minute behind.

PostgreSQL archives a WAL segment once it is finished, and its
``archive_timeout`` (set to ``ARCHIVE_TIMEOUT`` on the embedded primary)
should finish one that has changes that long after the last; but on the
wheel's PostgreSQL 18 it was seen not to, a quiet server keeping its
changes in an unfinished segment for minutes (``bench/archive.py``). So
``casino serve``, which starts the embedded primary, finishes the segment
itself (``pg_switch_wal()``) every ``ARCHIVE_TIMEOUT`` seconds in which a
transaction wrote something (a transaction id was handed out): an idle
server fills no 16 MB segment with nothing.
"""

from __future__ import annotations

import logging
import threading

import psycopg

from service.postgres.database import ARCHIVE_TIMEOUT

_log = logging.getLogger("casino.database")

#: The transaction id the server hands out next: it moves when, and only when, a transaction writes.
NEXT_XID = "SELECT pg_snapshot_xmax(pg_current_snapshot())::text::bigint"


class ArchiveKeeper:
    """Finishes the WAL segment of the server at ``url`` (a superuser's)
    every ``every`` seconds in which something was written, in a thread."""

    def __init__(self, url: str, every: float = ARCHIVE_TIMEOUT):
        self._url = url
        self._every = every
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def start(self) -> None:
        seen = self.tick(None)
        self._thread = threading.Thread(target=self._run, args=(seen,), name="casino-archive-keeper", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=10)

    def tick(self, seen: int | None) -> int:
        """Finish the segment if a transaction wrote since ``seen`` (the next
        transaction id then); the next transaction id now."""
        with psycopg.connect(self._url, autocommit=True, connect_timeout=5) as conn:
            (next_xid,) = conn.execute(NEXT_XID).fetchone() or (None,)
            if seen is not None and next_xid != seen:
                conn.execute("SELECT pg_switch_wal()")
        return int(next_xid)

    def _run(self, seen: int) -> None:
        while not self._stop.wait(self._every):
            try:
                seen = self.tick(seen)
            except psycopg.Error as error:  # away for a moment: the next round tries again
                _log.warning("could not finish the WAL segment for the archive: %s", error)

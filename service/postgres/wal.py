"""What a WAL archive holds: the moment of the last change committed in it.

A restore from the archive can reach any moment before that change (and,
without a target, that change itself): PostgreSQL's recovery to a moment
stops at the first commit after it, and ends in an error when it runs out
of WAL before finding one. The archive is read with ``pg_waldump``, the
wheel's program, segment by segment from the newest (the newest timeline
first, as their names sort) until one holds a commit.
"""

from __future__ import annotations

import os
import re
import subprocess
from datetime import UTC, datetime
from pathlib import Path

from service.postgres import servers

#: A WAL segment's file name: its timeline, then its place in the WAL.
SEGMENT = re.compile(r"^[0-9A-F]{24}$")
#: A commit record as ``pg_waldump`` describes it, in UTC.
COMMIT = re.compile(r"desc: COMMIT (\d{4}-\d\d-\d\d \d\d:\d\d:\d\d(?:\.\d+)?) UTC")


def segments(archive: Path) -> list[Path]:
    """The archive's WAL segments, oldest first."""
    return sorted(path for path in archive.glob("*") if SEGMENT.match(path.name)) if archive.is_dir() else []


def last_commit(archive: Path) -> datetime | None:
    """The moment of the last commit in the archive; None if it holds none."""
    for segment in reversed(segments(archive)):
        found = commits(segment)
        if found:
            return found[-1]
    return None


def commits(segment: Path) -> list[datetime]:
    """The moments of the commits in one segment, in order. ``pg_waldump``
    reads to the segment's end, and ends with an error where the records
    stop before it (a segment closed early, by ``archive_timeout`` or
    ``pg_switch_wal``): the records it printed before that are all there is."""
    done = subprocess.run([str(servers.programs() / "pg_waldump"), "--rmgr=Transaction", str(segment)],
                          capture_output=True, text=True, timeout=120, env={**os.environ, "TZ": "UTC"})
    return [datetime.fromisoformat(moment).replace(tzinfo=UTC) for moment in COMMIT.findall(done.stdout)]

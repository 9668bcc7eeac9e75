"""What a WAL archive holds: the moment of the last change committed in it.

A restore from the archive can reach any moment before that change (and,
without a target, that change itself): PostgreSQL's recovery to a moment
stops at the first commit after it, and ends in an error when it runs out
of WAL before finding one. The archive is read with ``pg_waldump``, the
wheel's program, segment by segment from the newest (the newest timeline
first, as their names sort) until one holds a commit; with it, the segments
``pg_receivewal`` streams from the primary as it writes them
(``casino receive-wal``), the one it is writing included.
"""

from __future__ import annotations

import os
import re
import subprocess
import tempfile
from datetime import UTC, datetime
from pathlib import Path

from service.postgres import servers

#: A WAL segment's file name: its timeline, then its place in the WAL.
SEGMENT = re.compile(r"^[0-9A-F]{24}$")
#: A commit record as ``pg_waldump`` describes it, in UTC.
COMMIT = re.compile(r"desc: COMMIT (\d{4}-\d\d-\d\d \d\d:\d\d:\d\d(?:\.\d+)?) UTC")


#: The suffix of the segment ``pg_receivewal`` is writing.
PARTIAL = ".partial"


def segments(*directories: Path) -> dict[str, Path]:
    """The WAL segments in ``directories`` (an archive, a ``pg_receivewal``
    stream), by name, oldest first; of two with one name, the first
    directory's, and a finished segment rather than a partial one."""
    found: dict[str, Path] = {}
    for directory in reversed(directories):
        for path in sorted(directory.glob("*")) if directory.is_dir() else ():
            name = path.name.removesuffix(PARTIAL)
            if SEGMENT.match(name) and not (path.name.endswith(PARTIAL) and name in found):
                found[name] = path
    return dict(sorted(found.items()))


def last_commit(*directories: Path) -> datetime | None:
    """The moment of the last commit in the WAL that ``directories`` hold; None if they hold none."""
    for name, segment in reversed(segments(*directories).items()):
        found = commits(name, segment)
        if found:
            return found[-1]
    return None


def commits(name: str, segment: Path) -> list[datetime]:
    """The moments of the commits in the segment ``name``, in order, read
    from ``segment`` (a partial one too, under its own name). ``pg_waldump``
    reads to the segment's end, and ends with an error where the records
    stop before it (a segment closed early, by ``archive_timeout`` or
    ``pg_switch_wal``, or still being written): the records it printed
    before that are all there is."""
    with tempfile.TemporaryDirectory(prefix="casino-wal-") as named:
        (Path(named) / name).symlink_to(segment.resolve())
        done = subprocess.run([str(servers.programs() / "pg_waldump"), "--rmgr=Transaction", str(Path(named) / name)],
                              capture_output=True, text=True, timeout=120, env={**os.environ, "TZ": "UTC"})
    return [datetime.fromisoformat(moment).replace(tzinfo=UTC) for moment in COMMIT.findall(done.stdout)]

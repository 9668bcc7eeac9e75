"""Notifications of appends, for live streams: PostgreSQL's ``NOTIFY`` and ``LISTEN``.

Every append notifies one channel, ``CHANNEL``, after its commit, with the
game, its new version and, when they fit in a notification, the events
themselves (``notification``). One channel for every game, so that a worker
listens once for all the streams it serves (``service.streams.Hub``),
whatever their games. A worker that finds the events in the notification
hands them to its streams with no read of its own.

A payload is ``<game id, hex>:<version>:<unix time>:<xid>:<events>``, where
``xid`` is the appending transaction's id (the events' positions are made
from it, see ``service.postgres.positions``) and ``<events>`` is a JSON
object: the events' ``chain`` and their rows, each with its ``type``,
``schema_version``, ``data``, ``metadata``, ``at`` (the time recorded) and
``hash``. PostgreSQL refuses payloads of 8000 bytes or more; appends too
large for one end the payload after the xid, and the streams read them.
The first form, ``<game id>:<version>:<unix time>``, is still understood.
The code before this form reads only that one and ignores the others: while
a rolling upgrade runs both, the streams served by older processes get the
newer processes' appends when they reconnect (within ``STREAM_MAX_SECONDS``).
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from datetime import datetime
from typing import NamedTuple
from uuid import UUID

import psycopg
from psycopg import sql

from service import jsonio
from service.events import StoredEvent
from service.postgres.positions import position

CHANNEL = "casino_events"

#: Seconds between attempts to listen again after the connection broke.
RECONNECT_SECONDS = 1.0

#: PostgreSQL refuses a payload of this many bytes or more.
PAYLOAD_LIMIT = 8000

#: The most digits a transaction id (a 64-bit xid8) takes.
_XID_DIGITS = 20

_log = logging.getLogger("casino.streams")


class Notice(NamedTuple):
    """One append announced: its game, the game's new version, when it was
    sent (Unix time) and, when they fit, the events appended (``events``)."""

    game_id: UUID
    version: int
    sent_at: float
    appended: str | None = None  # "<xid>:<events JSON>", read only by events()

    def events(self) -> list[StoredEvent] | None:
        """The events the append stored, as the store would read them back
        (key order in ``data`` aside), or None when they did not fit."""
        if self.appended is None:
            return None
        xid, _, carried = self.appended.partition(":")
        if not carried:
            return None
        found = jsonio.loads(carried)
        rows = found["events"]
        first = self.version - len(rows) + 1
        return [StoredEvent(position(int(xid), n), self.game_id, first + n - 1, row["type"],
                            row["schema_version"], row["data"], row["metadata"],
                            datetime.fromisoformat(row["at"]), row["hash"], found["chain"])
                for n, row in enumerate(rows, start=1)]


def notification(game_id: UUID | str, version: int, now: float, chain: int, events: bytes) -> tuple[str, str]:
    """The payload announcing that ``game_id`` reached ``version`` at ``now``
    with ``events``, the JSON of the rows the store writes, in two parts:
    what comes before the appending transaction's id and what comes after
    it. The id is known only in the transaction, so the SQL puts it between."""
    before = f"{UUID(str(game_id)).hex}:{version}:{now:.6f}:"  # ASCII: as many bytes as characters
    carried = jsonio.dumps({"chain": chain, "events": jsonio.raw(events)})
    if len(before) + _XID_DIGITS + 1 + len(carried) >= PAYLOAD_LIMIT:
        return before, ""
    return before, ":" + carried.decode()


def parse_notification(payload: str) -> Notice | None:
    """A notification's payload read back; None if it is not one. The
    events it carries are decoded only when asked for (``Notice.events``):
    a worker with no stream of the game has no use for them."""
    try:
        game, version, sent_at, *appended = payload.split(":", 3)
        return Notice(UUID(hex=game), int(version), float(sent_at), appended[0] if appended else None)
    except ValueError:
        return None


def listen(url: str, *, connected: Callable[[], None], notice: Callable[[Notice], None],
           disconnected: Callable[[], None], stopped: Callable[[], bool]) -> None:
    """Listen on ``CHANNEL`` until ``stopped()``: one connection, made again
    a second after it breaks. ``connected()`` runs each time listening
    starts (whatever was appended while nobody listened must be read then),
    ``notice`` for each notification, ``disconnected()`` each time it stops
    or fails to start."""
    while not stopped():
        try:
            with psycopg.connect(url, autocommit=True, connect_timeout=5) as conn:
                conn.execute(sql.SQL("LISTEN {}").format(sql.Identifier(CHANNEL)))
                connected()
                while not stopped():
                    for notify in conn.notifies(timeout=1.0):
                        found = parse_notification(notify.payload)
                        if found is not None:
                            notice(found)
        except psycopg.Error as error:
            _log.warning("live streams not notified, they poll until the listener is back: %s", error)
        finally:
            disconnected()
        if not stopped():
            time.sleep(RECONNECT_SECONDS)

"""Notifications of appends, for live streams: PostgreSQL's ``NOTIFY`` and ``LISTEN``.

Every append notifies one channel, ``CHANNEL``, after its commit, with the
game and its new version (``notification``). One channel for every game,
so that a worker listens once for all the streams it serves
(``service.streams.Hub``), whatever their games.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from typing import NamedTuple
from uuid import UUID

import psycopg
from psycopg import sql

CHANNEL = "casino_events"

#: Seconds between attempts to listen again after the connection broke.
RECONNECT_SECONDS = 1.0

_log = logging.getLogger("casino.streams")


class Notice(NamedTuple):
    """One append announced: its game, the game's new version, and when it was sent (Unix time)."""

    game_id: UUID
    version: int
    sent_at: float


def notification(game_id: UUID | str, version: int, now: float) -> str:
    """The payload announcing that ``game_id`` reached ``version`` at ``now``:
    ``<game id, hex>:<version>:<unix time>``."""
    return f"{UUID(str(game_id)).hex}:{version}:{now:.6f}"


def parse_notification(payload: str) -> Notice | None:
    """A notification's payload read back; None if it is not one."""
    try:
        game, version, sent_at = payload.split(":")
        return Notice(UUID(hex=game), int(version), float(sent_at))
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

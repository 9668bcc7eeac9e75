"""A game's events, live, as Server-Sent Events.

A stream sends the events after the client's cursor, then waits for more.
Each append notifies the game's channel (see ``service.store``), and a
stream ``LISTEN``s there on a connection of its own, opened when the stream
starts and closed when it ends: a pooled connection is never held by a
waiting stream. Every ``poll`` seconds it looks anyway, so a lost
notification, or a listener that could not connect, only delays an event.
Between events a comment line every ``keepalive`` seconds keeps proxies
from closing the connection and lets the server notice a client that left.

A stream ends after its time is up (the client reconnects with
``Last-Event-ID``) or, once the game is finished, when it has sent the last
event.
"""

from __future__ import annotations

import json
import logging
import time
from collections.abc import Callable, Generator, Iterator
from dataclasses import dataclass
from uuid import UUID

import psycopg
from psycopg import sql

from domain.cassino.state import FINISHED

from service.caller import Caller
from service.games import GameService, event_json, log_revealed
from service.store import StoredEvent, channel

KEEPALIVE = ": keep-alive\n\n"

_log = logging.getLogger("casino.streams")


@dataclass(frozen=True)
class Timing:
    seconds: float  # how long the stream lasts at most
    keepalive: float
    poll: float


def frame(stored: StoredEvent, caller: Caller, reveal: bool = False) -> str:
    """One event as an SSE message: ``id`` is its version, ``event`` its type;
    redacted exactly as the event log is (``reveal`` once a game's log is public)."""
    data = json.dumps(event_json(stored, caller, reveal), separators=(",", ":"))
    return f"id: {stored.version}\nevent: {stored.type}\ndata: {data}\n\n"


class Listener:
    """Waits for a game's notifications on a dedicated connection; sleeps
    instead if there is none (it could not connect, or it broke)."""

    def __init__(self, database_url: str, game_id: UUID):
        self._conn: psycopg.Connection | None = None
        try:
            self._conn = psycopg.connect(database_url, autocommit=True, connect_timeout=5)
            self._conn.execute(sql.SQL("LISTEN {}").format(sql.Identifier(channel(game_id))))
        except psycopg.OperationalError as error:
            _log.warning("stream of game %s polls only: cannot listen: %s", game_id, error)
            self.close()

    def wait(self, seconds: float) -> None:
        """Until a notification comes or ``seconds`` pass."""
        if self._conn is None:
            time.sleep(seconds)
            return
        try:
            for _ in self._conn.notifies(timeout=seconds, stop_after=1):
                pass
        except psycopg.OperationalError as error:
            _log.warning("stream listener lost, polling only: %s", error)
            self.close()

    def close(self) -> None:
        if self._conn is not None:
            self._conn.close()
            self._conn = None


def events(service: GameService, game_id: UUID, caller: Caller, after: int, timing: Timing,
           listen: Callable[[], Listener], clock: Callable[[], float] = time.monotonic
           ) -> Generator[str, None, None]:
    """The stream's text: the events after version ``after`` as ``caller``
    may see them, then each new one as it is appended, until time is up."""
    deadline = clock() + timing.seconds
    keepalive_at = clock() + timing.keepalive
    listener = listen()  # before the first read, so no append slips between the two
    sent = after
    try:
        while True:
            state = service.load(game_id)
            if state.version > sent:
                for stored in service.store.load(game_id, sent):
                    yield frame(stored, caller, log_revealed(state))
                    sent = stored.version
            now = clock()
            if (state.status == FINISHED and sent >= state.version) or now >= deadline:
                return
            if now >= keepalive_at:
                yield KEEPALIVE
                keepalive_at = now + timing.keepalive
            listener.wait(min(deadline, keepalive_at, now + timing.poll) - now)
    finally:
        listener.close()


class Body:
    """A streamed response body that runs ``on_close`` once: when it has been
    read to its end, or when the server closes it, even unread (a
    generator's ``finally`` would not run then)."""

    def __init__(self, chunks: Generator[str, None, None], on_close: Callable[[], None]):
        self._chunks = chunks
        self._on_close = on_close
        self._closed = False

    def __iter__(self) -> Iterator[str]:
        try:
            yield from self._chunks
        finally:
            self.close()

    def close(self) -> None:
        if not self._closed:
            self._closed = True
            try:
                self._chunks.close()
            finally:
                self._on_close()

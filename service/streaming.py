"""A game's events, live, as Server-Sent Events.

A stream sends the events after the client's cursor, then each new one as
it is appended: it joins its game's feed in the worker's ``Hub``
(``service.fanout``), which listens for every stream of the process at
once and pushes each stream what follows, from one read shared by the
game's streams. While the hub cannot listen, the stream asks it to read
every ``poll`` seconds, so an event is late, never lost. Between events a
comment line every ``keepalive`` seconds keeps proxies from closing the
connection and lets the server notice a client that left.

A stream ends after its time is up (the client reconnects with
``Last-Event-ID``), once the game is finished and it has sent the last
event, or when its reader fell so far behind that the hub let it go (the
client reconnects the same way).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Generator, Iterator
from dataclasses import dataclass
from uuid import UUID

from domain.cassino.state import FINISHED, GameState

from service import jsonio
from service.caller import Caller
from service.fanout import Hub
from service.games import GameService, event_json, log_revealed
from service.store import StoredEvent

KEEPALIVE = ": keep-alive\n\n"


@dataclass(frozen=True)
class Timing:
    seconds: float  # how long the stream lasts at most
    keepalive: float
    poll: float  # how often to look while notifications are down


def frame(stored: StoredEvent, caller: Caller, reveal: bool = False) -> str:
    """One event as an SSE message: ``id`` is its version, ``event`` its type;
    redacted exactly as the event log is (``reveal`` once a game's log is public)."""
    data = jsonio.dumps(event_json(stored, caller, reveal)).decode()
    return f"id: {stored.version}\nevent: {stored.type}\ndata: {data}\n\n"


def events(service: GameService, hub: Hub, game_id: UUID, caller: Caller, after: int, state: GameState,
           timing: Timing, clock: Callable[[], float] = time.monotonic) -> Generator[str, None, None]:
    """The stream's text: the events after version ``after`` as ``caller``
    may see them, then each new one as it is appended, until time is up.
    ``state`` is the game as the request found it."""
    deadline = clock() + timing.seconds
    keepalive_at = clock() + timing.keepalive
    subscription = hub.subscribe(game_id, state)  # before the history, so no append slips between
    try:
        history = service.store.load(game_id, after)
        if history and history[-1].version > state.version:
            state = service.load(game_id)
        sent = after
        for stored in history:
            yield frame(stored, caller, log_revealed(state))
            sent = stored.version
        hub.ready(subscription, sent)
        poll_at = clock() + timing.poll
        while not (state.status == FINISHED and sent >= state.version):
            now = clock()
            if now >= deadline or subscription.dropped:
                return
            if now >= keepalive_at:
                yield KEEPALIVE
                keepalive_at = now + timing.keepalive
            wake_at = min(deadline, keepalive_at)
            if not hub.listening:  # the hub wakes every stream when it stops listening
                if now >= poll_at:
                    hub.refresh(subscription)
                    poll_at = now + timing.poll
                wake_at = min(wake_at, poll_at)
            for batch in hub.take(subscription, wake_at - now):
                for stored in batch.events:
                    yield frame(stored, caller, log_revealed(batch.state))
                    sent = stored.version
                state = batch.state
    finally:
        hub.leave(subscription)


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

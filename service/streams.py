"""Live streams: a game's events as Server-Sent Events, as they are appended.

A stream sends the events after the client's cursor, then each new one as
it is appended, redacted for its caller exactly as the event log is
(``service.views.event_json``). Between events a comment line every
``keepalive`` seconds keeps proxies from closing the connection and lets
the server notice a client that left. A stream ends after its time is up
(the client reconnects with ``Last-Event-ID``), once the game is finished
and it has sent the last event, or when its reader fell so far behind that
it was let go (the client reconnects the same way).

The machinery they wait on is one ``Hub`` a process, which holds its
three jobs apart: the game feeds (``service.feeds``: each game's events
handed to its streams, in order, in bounded buffers), the players' notices
(``service.player_notices``), and the admission of streams
(``service.stream_limits.Admission``), with the one listener that the
first two hear other processes' appends through (``service.listener``).
If notices stop (the listener lost its connection), each stream asks for
a read every ``poll`` seconds, so an event is late, never lost.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Generator, Iterator
from dataclasses import dataclass
from uuid import UUID

from domain.game_types import State, game_of, is_finished
from domain.seating import Holder
from domain.standing import WAITING

from service import jsonio
from service.announcements import Listen
from service.auth import Caller
from service.events import StoredEvent, refold
from service.feeds import GameFeeds, Read
from service.listener import Listener
from service.player_notices import PlayerNotices
from service.stream_limits import Admission
from service.views import event_json, log_revealed


class Hub:
    """The live streams' machinery of one process (one per app): its game
    feeds, its players' notices, the admission of its streams, and the
    listener the first two share. ``read`` reads the events a feed has not
    had; ``capacity`` bounds each stream's buffer; ``listen`` hears of the
    appends of every process, None when this process is the only one that
    appends (the memory wiring)."""

    def __init__(self, read: Read, *, capacity: int, listen: Listen | None = None):
        self.listener = Listener(listen)
        self.games = GameFeeds(read, capacity, self.listener)
        self.players = PlayerNotices(capacity, self.listener)
        self.admission = Admission()

    def close(self) -> None:
        """The app is gone: its listener ends within a second."""
        self.listener.close()


# -- the streams ------------------------------------------------------------


KEEPALIVE = ": keep-alive\n\n"


@dataclass(frozen=True)
class Timing:
    seconds: float  # how long the stream lasts at most
    keepalive: float
    poll: float  # how often to look while notifications are down


def frame(stored: StoredEvent, caller: Caller, reveal: bool = False) -> str:
    """One event as an SSE message: ``id`` is its version, ``event`` its type
    as the log shows it (its public name); redacted exactly as the event log
    is (``reveal`` once a game's log is public)."""
    shown = event_json(stored, caller, reveal)
    data = jsonio.dumps(shown).decode()
    return f"id: {stored.version}\nevent: {shown['type']}\ndata: {data}\n\n"


def events(load: Callable[[UUID], State], read: Read, hub: Hub, game_id: UUID, caller: Caller, after: int,
           state: State, timing: Timing, clock: Callable[[], float] = time.monotonic) -> Generator[str, None, None]:
    """The stream's text: the events after version ``after`` as ``caller``
    may see them, then each new one as it is appended, until time is up.
    ``state`` is the game as the request found it; ``load`` loads it anew,
    ``read`` reads its events."""
    deadline = clock() + timing.seconds
    held = _holder(state, caller)
    feeds = hub.games
    subscription = feeds.subscribe(game_id, state)  # before the history, so no append slips between
    try:
        history = read(game_id, after)
        latest = load(game_id) if history and history[-1].version > state.version else state
        reveal = log_revealed(latest)
        sending, seat_changed_hands = _sendable(state, [(stored, reveal) for stored in history], caller, held)
        at = _Place(after, latest, seat_changed_hands)
        for stored, shown in sending:
            yield frame(stored, caller, shown)
            at.sent = stored.version
        feeds.ready(subscription, at.sent)

        def take(timeout: float) -> str:
            batches = feeds.take(subscription, timeout)
            if not batches:
                return ""
            sending, at.cut = _sendable(
                at.state, [(stored, log_revealed(batch.state)) for batch in batches for stored in batch.events],
                caller, held)
            at.sent, at.state = batches[-1].events[-1].version, batches[-1].state
            return "".join(frame(stored, caller, shown) for stored, shown in sending)  # one write for all

        def poll() -> str:
            feeds.refresh(subscription)
            return ""

        yield from waiting(hub.listener, timing, deadline,
                           lambda: at.cut or subscription.dropped or at.finished, take, poll, clock)
    finally:
        feeds.leave(subscription)


@dataclass
class _Place:
    """Where a game's stream stands: the last version sent, the game then,
    and whether it is cut (its seat changed hands)."""

    sent: int
    state: State
    cut: bool = False

    @property
    def finished(self) -> bool:
        """The game is over and the stream has sent its last event."""
        return is_finished(self.state) and self.sent >= self.state.version


def waiting(listener: Listener, timing: Timing, deadline: float, over: Callable[[], bool], take: Callable[[float], str],
            poll: Callable[[], str], clock: Callable[[], float] = time.monotonic) -> Generator[str, None, None]:
    """What every stream does once it waits, until ``deadline`` or
    ``over()``: a keep-alive every ``timing.keepalive`` seconds, ``poll()``
    every ``timing.poll`` seconds while the listener does not listen (it
    wakes every stream when it stops), and whatever ``take(timeout)`` hands
    over, waiting for it until the next of those is due."""
    keepalive_at = clock() + timing.keepalive
    poll_at = clock() + timing.poll
    while not over():
        now = clock()
        if now >= deadline:
            return
        if now >= keepalive_at:
            yield KEEPALIVE
            keepalive_at = now + timing.keepalive
        wake_at = min(deadline, keepalive_at)
        if not listener.listening:
            if now >= poll_at:
                if polled := poll():
                    yield polled
                poll_at = now + timing.poll
            wake_at = min(wake_at, poll_at)
        if taken := take(wake_at - now):
            yield taken


def _holder(state: State, caller: Caller) -> Holder | None:
    """Who holds the seat a seat's stream is for (None for any other stream)."""
    return game_of(state.variant).seat_holders(state)[caller.own_seat] if caller.is_seat else None


def _sendable(state: State, sending: list[tuple[StoredEvent, bool]], caller: Caller,
              held: Holder | None) -> tuple[list[tuple[StoredEvent, bool]], bool]:
    """Of the events to send (each with whether the log is public by then),
    those the stream may send, and whether its seat changed hands after
    ``state``. A seat (``held`` by someone as the stream was asked for, at
    ``state``) may be left while its game waits for players, and taken by
    someone else: its stream ends with the event after which it is no
    longer its holder's, since what follows is the next holder's to see."""
    if held is None or state.status != WAITING:
        return sending, False
    game = game_of(state.variant)
    for n, (stored, _) in enumerate(sending):
        if stored.version <= state.version:
            continue  # before the seat's holder asked: while a game waits, nothing is hidden
        state = refold([stored], state)
        if game.seat_holders(state)[caller.own_seat] != held:
            return sending[:n + 1], True
    return sending, False


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

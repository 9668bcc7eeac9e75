"""One worker's live feeds: one ``LISTEN`` for all of its streams.

Every append notifies one channel with the game and its new version (see
``service.store``). A ``Hub`` keeps one connection listening there, for the
whole process, and hands each notification to the streams of that game
that this process serves. Their catch-up is shared: one read of the events
after the furthest-behind stream of the game, then each stream gets the
events it has not had, in its own bounded buffer. A stream that lets its
buffer fill (its reader does not keep up) is dropped: it ends, and its
client resumes with ``Last-Event-ID``. Waiting streams hold no database
connection; reads borrow one from the pool for a moment.

A stream first reads the log up to now itself (its cursor is the client's,
and its history can be long), then becomes ``ready``: from then on the hub
pushes what follows. Pushes to a stream always continue exactly where it
is, so nothing is skipped or sent twice, whatever order reads finish in. If
notifications stop (the listener lost its connection), each stream asks for
a read every ``poll`` seconds, so an event is late, never lost.

Works the same on threads (tests, gthread) and on greenlets (gevent, where
``threading`` is patched): its locks are held for bookkeeping only, never
across I/O.
"""

from __future__ import annotations

import _thread
import logging
import threading
import time
from collections import deque
from dataclasses import dataclass, field
from uuid import UUID

import psycopg
from psycopg import sql

from domain.cassino.state import GameState
from service import metrics
from service.projection import refold
from service.store import CHANNEL, EventStore, StoredEvent, parse_notification

_log = logging.getLogger("casino.streams")

#: Seconds between attempts to listen again after the connection broke.
RECONNECT_SECONDS = 1.0


@dataclass
class Batch:
    """Events for one stream, in order, and the game's state after them."""

    events: list[StoredEvent]
    state: GameState


@dataclass(eq=False)
class Subscription:
    """A stream's place in its game's feed.

    ``cursor`` is the last version handed to the stream (None until it has
    read its history); ``buffered`` counts the events waiting in ``batches``.
    """

    feed: Feed
    capacity: int
    cursor: int | None = None
    batches: deque[Batch] = field(default_factory=deque)
    buffered: int = 0
    dropped: bool = False
    wake: threading.Event = field(default_factory=threading.Event)


@dataclass(eq=False)
class Feed:
    """The streams of one game in this process, and what the hub knows of it."""

    game_id: UUID
    state: GameState  # folded up to the newest version the hub has read
    subscriptions: set[Subscription] = field(default_factory=set)
    latest: int = 0  # the newest version announced or read
    announced_at: float | None = None  # when the oldest notification not yet read was sent
    dirty: bool = False  # a read is wanted
    reading: bool = False  # a read is under way


class Hub:
    """The live feeds of one process (one per app)."""

    def __init__(self, database_url: str, store: EventStore, *, capacity: int):
        self._url = database_url
        self._store = store
        self._capacity = capacity
        self._lock = threading.Lock()
        self._feeds: dict[UUID, Feed] = {}
        self._listening = threading.Event()
        self._tried = threading.Event()  # the listener has tried to connect once
        self._listener: threading.Thread | None = None
        self.open = 0  # streams admitted and not yet ended

    # -- streams' side ------------------------------------------------------

    def admit(self, limit: int) -> bool:
        """Count one more open stream, unless ``limit`` are open already."""
        with self._lock:
            if self.open >= limit:
                return False
            self.open += 1
        metrics.STREAMS_OPEN.inc()
        return True

    def release(self) -> None:
        """A stream admitted has ended."""
        with self._lock:
            self.open -= 1
        metrics.STREAMS_OPEN.dec()

    @property
    def listening(self) -> bool:
        return self._listening.is_set()

    def subscribe(self, game_id: UUID, state: GameState) -> Subscription:
        """Join the game's feed, before reading its history: whatever is
        appended from now on will be announced to this subscription."""
        self._start_listening()
        self._tried.wait(5.0)  # the first stream waits for the first LISTEN, or its failure
        with self._lock:
            feed = self._feeds.get(game_id)
            if feed is None:
                feed = self._feeds[game_id] = Feed(game_id, state, latest=state.version)
            elif state.version > feed.state.version:
                feed.state = state
            subscription = Subscription(feed, self._capacity)
            feed.subscriptions.add(subscription)
        return subscription

    def ready(self, subscription: Subscription, version: int) -> None:
        """The stream has sent everything up to ``version``: push what follows."""
        with self._lock:
            subscription.cursor = version
            feed = subscription.feed
            if feed.latest > version:
                self._want_read(feed)

    def refresh(self, subscription: Subscription) -> None:
        """Read the game again, notified or not (a stream's periodic look
        while no notifications come)."""
        with self._lock:
            if not subscription.dropped:
                self._want_read(subscription.feed)

    def take(self, subscription: Subscription, timeout: float) -> list[Batch]:
        """What was pushed to the stream, waiting up to ``timeout`` seconds
        for something (nothing once it has been dropped)."""
        subscription.wake.wait(max(0.0, timeout))
        with self._lock:
            batches = list(subscription.batches)
            subscription.batches.clear()
            subscription.buffered = 0
            subscription.wake.clear()
        return batches

    def leave(self, subscription: Subscription) -> None:
        with self._lock:
            self._remove(subscription)

    # -- the feeds' reads -----------------------------------------------------

    def _want_read(self, feed: Feed) -> None:
        """Under the lock: have the feed read once more, starting a reader if none runs."""
        feed.dirty = True
        if not feed.reading:
            feed.reading = True
            # Not threading.Thread: under gevent its start costs five times as much.
            _thread.start_new_thread(self._read, (feed,))

    def _read(self, feed: Feed) -> None:
        """Read for the feed until no read is wanted, pushing each read's events."""
        while True:
            with self._lock:
                cursors = [s.cursor for s in feed.subscriptions if s.cursor is not None]
                if not feed.dirty or not cursors:
                    feed.reading = False
                    return
                feed.dirty = False
                after = min(*cursors, feed.state.version)
            try:
                events = self._store.load(feed.game_id, after)
            except Exception:  # noqa: BLE001 - the streams' own periodic looks retry
                _log.exception("game %s: live streams could not read", feed.game_id)
                with self._lock:
                    feed.reading = False
                return
            with self._lock:
                self._push(feed, events)

    def _push(self, feed: Feed, events: list[StoredEvent]) -> None:
        """Under the lock: fold the feed forward and give each ready stream
        the events that continue it."""
        newer = [e for e in events if e.version > feed.state.version]
        if newer:
            feed.state = refold(newer, feed.state)
            feed.latest = max(feed.latest, feed.state.version)
        if feed.announced_at is not None and feed.state.version >= feed.latest:
            metrics.NOTIFICATION_LAG.observe(max(0.0, time.time() - feed.announced_at))
            feed.announced_at = None
        for subscription in list(feed.subscriptions):
            if subscription.cursor is None:
                continue
            fresh = [e for e in events if e.version > subscription.cursor]
            if not fresh:
                continue
            if fresh[0].version != subscription.cursor + 1:
                feed.dirty = True  # it is further behind than this read went: read again
                continue
            if subscription.buffered + len(fresh) > subscription.capacity:
                self._drop(subscription)
                continue
            subscription.batches.append(Batch(fresh, feed.state))
            subscription.buffered += len(fresh)
            subscription.cursor = fresh[-1].version
            subscription.wake.set()

    def _drop(self, subscription: Subscription) -> None:
        """Under the lock: a reader that fell behind its buffer is let go."""
        self._remove(subscription)
        subscription.dropped = True
        subscription.batches.clear()
        subscription.buffered = 0
        subscription.wake.set()
        metrics.STREAMS_DROPPED.inc()
        _log.info("game %s: a live stream fell behind its buffer and was closed", subscription.feed.game_id)

    def _remove(self, subscription: Subscription) -> None:
        feed = subscription.feed
        feed.subscriptions.discard(subscription)
        if not feed.subscriptions and self._feeds.get(feed.game_id) is feed:
            del self._feeds[feed.game_id]

    # -- the listener -------------------------------------------------------

    def _start_listening(self) -> None:
        with self._lock:
            if self._listener is None:
                self._listener = threading.Thread(target=self._listen, daemon=True, name="casino-listener")
                self._listener.start()

    def _listen(self) -> None:
        """Keep one connection listening; after each (re)connection every
        feed reads once, for whatever was appended while no one listened."""
        while not self._stopped():
            try:
                with psycopg.connect(self._url, autocommit=True, connect_timeout=5) as conn:
                    conn.execute(sql.SQL("LISTEN {}").format(sql.Identifier(CHANNEL)))
                    self._listening.set()
                    self._tried.set()
                    with self._lock:
                        for feed in self._feeds.values():
                            self._want_read(feed)
                    while not self._stopped():
                        for notify in conn.notifies(timeout=1.0):
                            self._announce(notify.payload)
            except psycopg.Error as error:
                _log.warning("live streams not notified, they poll until the listener is back: %s", error)
            finally:
                self._listening.clear()
                self._tried.set()
                self._wake_all()
            if not self._stopped():
                time.sleep(RECONNECT_SECONDS)

    def _wake_all(self) -> None:
        """Have every stream look at the hub again: it stopped listening,
        and waiting streams only poll while it does not (they would
        otherwise wake every few seconds each, thousands of them, for nothing)."""
        with self._lock:
            for feed in self._feeds.values():
                for subscription in feed.subscriptions:
                    subscription.wake.set()

    def _announce(self, payload: str) -> None:
        notice = parse_notification(payload)
        if notice is None:
            return
        with self._lock:
            feed = self._feeds.get(notice.game_id)
            if feed is not None and notice.version > feed.latest:
                feed.latest = notice.version
                if feed.announced_at is None:
                    feed.announced_at = notice.sent_at
                self._want_read(feed)

    def _stopped(self) -> bool:
        """The app is gone (its pool closed): the listener ends within a second."""
        return self._store.closed

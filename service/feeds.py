"""Game feeds: the events of each game that this process streams, handed to
its streams as they are appended (``service.streams`` writes them out).

Each stream of a game has its own bounded buffer (a ``Subscription``); a
stream that lets its buffer fill (its reader does not keep up) is dropped.
The process that appended the events hands them to its own streams as it
answers the command (``publish``), and the notice that follows finds them
up to date. Another process's append is heard through the listener
(``service.listener``): its events are pushed when the notice carries them
and they continue what the feed has, else read. So most events reach every
stream with no read at all.

A read is shared: one read of the events after the furthest-behind stream
of the game, then each stream gets the events it has not had. Waiting
streams hold no database connection; reads borrow one for a moment.

A stream first reads the log up to now itself (its cursor is the client's,
and its history can be long), then becomes ``ready``: from then on the feed
pushes what follows. Pushes to a stream always continue exactly where it
is, so nothing is skipped or sent twice, whatever order reads finish in.

Works the same on threads (tests, gthread) and on greenlets (gevent, where
``threading`` is patched): the lock is held for bookkeeping only, never
across I/O.
"""

from __future__ import annotations

import _thread
import logging
import threading
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from uuid import UUID

from domain.game_types import State

from service import metrics
from service.announcements import Announcement, Notice, tag
from service.events import StoredEvent, refold
from service.listener import Listener

_log = logging.getLogger("casino.streams")

#: Reads a game's events after a version (``EventStore.load``, ``GameService.events``).
Read = Callable[[UUID, int], list[StoredEvent]]


@dataclass
class Batch:
    """Events for one stream, in order, and the game's state after them."""

    events: list[StoredEvent]
    state: State


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
    """The streams of one game in this process, and what is known of the game."""

    game_id: UUID
    state: State  # folded up to the newest version read
    subscriptions: set[Subscription] = field(default_factory=set)
    latest: int = 0  # the newest version announced or read
    announced_at: float | None = None  # when the oldest notice not yet read was sent
    dirty: bool = False  # a read is wanted
    reading: bool = False  # a read is under way


class GameFeeds:
    """The feeds of the games this process streams. ``read`` reads the
    events a feed has not had; each stream buffers at most ``capacity``
    events; other processes' appends are heard through ``listener``."""

    def __init__(self, read: Read, capacity: int, listener: Listener):
        self._read_events = read
        self._capacity = capacity
        self._listener = listener
        self._lock = threading.Lock()
        self._feeds: dict[UUID, Feed] = {}
        self._tags: dict[str, UUID] = {}  # how notices name the games of the feeds
        listener.serve(self)

    # -- streams' side ------------------------------------------------------

    def subscribe(self, game_id: UUID, state: State) -> Subscription:
        """Join the game's feed, before reading its history: whatever is
        appended from now on will be announced to this subscription."""
        self._listener.start()
        with self._lock:
            feed = self._feeds.get(game_id)
            if feed is None:
                feed = self._feeds[game_id] = Feed(game_id, state, latest=state.version)
                self._tags[tag(game_id)] = game_id
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
        while no notices come)."""
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

    def publish(self, game_id: UUID, events: list[StoredEvent], state: State) -> None:
        """This process appended ``events``, which brought the game to
        ``state``: push them to its streams of the game now, with no read.
        A stream that had not had the events before them (another process
        appended those, and they have not been read yet) gets all of them
        from a read, in order."""
        with self._lock:
            feed = self._feeds.get(game_id)
            if feed is None or state.version <= feed.state.version:
                return  # no stream here, or read this far already
            feed.state = state
            feed.latest = max(feed.latest, state.version)
            self._deliver(feed, events)
            if feed.dirty:
                self._want_read(feed)

    # -- the listener's side (service.listener.Hearer) ------------------------

    def take_notice(self, notice: Notice) -> bool:
        """A notice: an append, maybe another process's. Its events are
        pushed to the game's streams when they continue the feed, else
        read. One that does not open is dropped, and the game it names read."""
        game_id = self._tags.get(notice.tag)
        if game_id is None:
            return False  # no stream of the game here: not worth opening
        announcement = notice.open(game_id)
        if announcement is None:
            self._refuse(game_id)
        else:
            self._announced(announcement)
        return True

    def connected(self) -> None:
        """Listening (again): every feed reads once, for whatever was appended while no one listened."""
        with self._lock:
            for feed in self._feeds.values():
                self._want_read(feed)

    def wake_all(self) -> None:
        """Have every stream look again: the listener stopped, and waiting
        streams only poll while it does not (they would otherwise wake every
        few seconds each, thousands of them, for nothing)."""
        with self._lock:
            for feed in self._feeds.values():
                for subscription in feed.subscriptions:
                    subscription.wake.set()

    def _refuse(self, game_id: UUID) -> None:
        """A notice that did not open: whatever it claims is ignored, and
        the streams of the game it names catch up by reading."""
        metrics.NOTIFICATIONS_REFUSED.inc()
        _log.debug("game %s: a notification that does not open under the service's key was dropped", game_id)
        with self._lock:
            feed = self._feeds.get(game_id)
            if feed is not None:
                self._want_read(feed)

    def _announced(self, announcement: Announcement) -> None:
        feed = self._feeds.get(announcement.game_id)
        if feed is None or announcement.version <= feed.latest:
            return  # this process's own append, pushed as it answered: not worth decoding
        carried = announcement.events()
        with self._lock:
            feed = self._feeds.get(announcement.game_id)
            if feed is None or announcement.version <= feed.latest:
                return  # read or pushed already
            feed.latest = announcement.version
            if feed.announced_at is None:
                feed.announced_at = announcement.sent_at
            if carried and carried[0].version == feed.state.version + 1:
                self._push(feed, carried)
                if not feed.dirty:
                    return
            self._want_read(feed)

    # -- reads ----------------------------------------------------------------

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
            metrics.STREAM_READS.inc()
            try:
                events = self._read_events(feed.game_id, after)
            except Exception:  # noqa: BLE001 - the streams' own periodic looks retry
                _log.exception("game %s: live streams could not read", feed.game_id)
                with self._lock:
                    feed.reading = False
                return
            with self._lock:
                self._push(feed, events)

    def _push(self, feed: Feed, events: list[StoredEvent]) -> None:
        """Under the lock: fold the feed forward over what a read found, and deliver it."""
        newer = [e for e in events if e.version > feed.state.version]
        if newer:
            feed.state = refold(newer, feed.state)
            feed.latest = max(feed.latest, feed.state.version)
        self._deliver(feed, events)

    def _deliver(self, feed: Feed, events: list[StoredEvent]) -> None:
        """Under the lock: give each ready stream of the feed (already folded
        over ``events``) the events that continue it."""
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
            self._tags.pop(tag(feed.game_id), None)

"""Live streams: a game's events as Server-Sent Events, as they are appended.

A stream sends the events after the client's cursor, then each new one as
it is appended, redacted for its caller exactly as the event log is
(``service.views.event_json``). Between events a comment line every
``keepalive`` seconds keeps proxies from closing the connection and lets
the server notice a client that left. A stream ends after its time is up
(the client reconnects with ``Last-Event-ID``), once the game is finished
and it has sent the last event, or when its reader fell so far behind that
it was let go (the client reconnects the same way).

One worker, one listener. Every append notifies one channel with the game,
its new version and, when they fit, the events themselves, sealed under the
service's key (``service.postgres.notifications``). A ``Hub`` keeps one connection
listening there, for the whole process, and hands each notification's
events to the streams of that game that this process serves, each in its
own bounded buffer. A stream that lets its buffer fill (its reader does not
keep up) is dropped. The process that appended the events hands them to its
own streams as it answers the command (``Hub.publish``), and the
notification that follows finds them up to date. So most events reach
every stream with no read at all.

A read is still needed when a notification does not carry its events (too
large for one), does not continue what the hub has (one was missed, or a
stream is behind), or does not open (forged, or sealed under another key:
it is counted and dropped, and the game it names is read). Catch-up is then shared: one read of the events after the
furthest-behind stream of the game, then each stream gets the events it has
not had. Waiting streams hold no database connection; reads borrow one from
the pool for a moment.

A stream first reads the log up to now itself (its cursor is the client's,
and its history can be long), then becomes ``ready``: from then on the hub
pushes what follows. Pushes to a stream always continue exactly where it
is, so nothing is skipped or sent twice, whatever order reads finish in. If
notifications stop (the listener lost its connection), each stream asks for
a read every ``poll`` seconds, so an event is late, never lost.

Works the same on threads (tests, gthread) and on greenlets (gevent, where
``threading`` is patched): the hub's locks are held for bookkeeping only,
never across I/O.
"""

from __future__ import annotations

import _thread
import logging
import threading
import time
from collections import deque
from collections.abc import Callable, Generator, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Protocol
from uuid import UUID

from domain.game_types import State, game_of, is_finished
from domain.seating import Holder
from domain.standing import WAITING

from service import jsonio, metrics, notices
from service.auth import Caller
from service.events import StoredEvent, refold
from service.postgres import notifications
from service.postgres.notifications import Announcement, Notice
from service.views import event_json, log_revealed

_log = logging.getLogger("casino.streams")


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
    """The streams of one game in this process, and what the hub knows of it."""

    game_id: UUID
    state: State  # folded up to the newest version the hub has read
    subscriptions: set[Subscription] = field(default_factory=set)
    latest: int = 0  # the newest version announced or read
    announced_at: float | None = None  # when the oldest notification not yet read was sent
    dirty: bool = False  # a read is wanted
    reading: bool = False  # a read is under way


@dataclass(eq=False)
class Heeding:
    """A player's stream's place in the hub: what it has been told and not
    sent yet (at most ``capacity`` notices), and the newest version of each
    game it was told of (an append's notices come once from this process
    and again in the notification: the second time they are not news)."""

    player_id: UUID
    capacity: int
    told: deque[notices.Notice] = field(default_factory=deque)
    seen: dict[str, int] = field(default_factory=dict)
    dropped: bool = False
    wake: threading.Event = field(default_factory=threading.Event)


#: Reads a game's events after a version (``EventStore.load``, ``GameService.events``).
Read = Callable[[UUID, int], list[StoredEvent]]


class Listen(Protocol):
    """Hears of every process's appends until ``stopped()`` (the PostgreSQL
    wiring's is ``service.postgres.notifications.listen``): ``connected()``
    each time it starts listening, ``notice`` for each append, and
    ``disconnected()`` each time it stops or fails to start."""

    def __call__(self, *, connected: Callable[[], None], notice: Callable[[Notice], None],
                 disconnected: Callable[[], None], stopped: Callable[[], bool]) -> None: ...


class Hub:
    """The live feeds of one process (one per app).

    ``read`` reads the events a feed has not had. ``listen`` hears of the
    appends of every process; None when this process is the only one that
    appends (the memory wiring), so that ``publish`` hands every stream
    every event and there is nothing to listen for."""

    def __init__(self, read: Read, *, capacity: int, listen: Listen | None = None):
        self._read_events = read
        self._listen_with = listen
        self._capacity = capacity
        self._lock = threading.Lock()
        self._feeds: dict[UUID, Feed] = {}
        self._tags: dict[str, UUID] = {}  # how notifications name the games of the feeds
        self._heedings: dict[UUID, set[Heeding]] = {}  # the players' streams, by player
        self._player_tags: dict[str, UUID] = {}  # how notifications name the players of the streams
        self._listening = threading.Event()
        self._tried = threading.Event()  # the listener has tried to connect once
        self._closed = threading.Event()
        self._listener: threading.Thread | None = None
        self.open = 0  # streams admitted and not yet ended
        if listen is None:
            self._listening.set()
            self._tried.set()

    def close(self) -> None:
        """The app is gone: its listener ends within a second."""
        self._closed.set()

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

    def subscribe(self, game_id: UUID, state: State) -> Subscription:
        """Join the game's feed, before reading its history: whatever is
        appended from now on will be announced to this subscription."""
        self._start_listening()
        self._tried.wait(5.0)  # the first stream waits for the first LISTEN, or its failure
        with self._lock:
            feed = self._feeds.get(game_id)
            if feed is None:
                feed = self._feeds[game_id] = Feed(game_id, state, latest=state.version)
                self._tags[notifications.tag(game_id)] = game_id
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

    def publish(self, game_id: UUID, events: list[StoredEvent], state: State) -> None:
        """This process appended ``events``, which brought the game to
        ``state``: push them to its streams of the game now, with no read.
        A stream that had not had the events before them (another process
        appended those, and the hub has not read them yet) gets all of them
        from a read, in order."""
        with self._lock:
            feed = self._feeds.get(game_id)
            if feed is None or state.version <= feed.state.version:
                return  # no stream here, or the hub has read this far already
            feed.state = state
            feed.latest = max(feed.latest, state.version)
            self._deliver(feed, events)
            if feed.dirty:
                self._want_read(feed)

    # -- players' streams ----------------------------------------------------

    def heed(self, player_id: UUID) -> Heeding:
        """Have what the appends tell the player (``service.notices``) kept
        for a stream of the player's, before it reads what is so now."""
        self._start_listening()
        self._tried.wait(5.0)
        heeding = Heeding(player_id, self._capacity)
        with self._lock:
            self._heedings.setdefault(player_id, set()).add(heeding)
            self._player_tags[notifications.player_tag(player_id)] = player_id
        return heeding

    def already_told(self, heeding: Heeding, said: list[notices.Notice]) -> list[notices.Notice]:
        """Of ``said`` (what the stream found so when it began), what is news
        to it; noted, so that the same again from an append is not sent twice."""
        with self._lock:
            news = [n for n in said if n["version"] > heeding.seen.get(n["game"], 0)]
            for notice in news:
                heeding.seen[notice["game"]] = notice["version"]
        return news

    def hear(self, heeding: Heeding, timeout: float) -> list[notices.Notice]:
        """What the player was told since, waiting up to ``timeout`` seconds
        for something (nothing once the stream has been dropped)."""
        heeding.wake.wait(max(0.0, timeout))
        with self._lock:
            told = list(heeding.told)
            heeding.told.clear()
            heeding.wake.clear()
        return told

    def unheed(self, heeding: Heeding) -> None:
        with self._lock:
            self._forget(heeding)

    def tell(self, told: notices.Told) -> None:
        """This process appended what tells these players ``told``: hand it to their streams here now."""
        with self._lock:
            for player_id, said in told.items():
                self._tell(player_id, said)

    def _tell(self, player_id: UUID, said: Sequence[notices.Notice]) -> None:
        """Under the lock: one append's notices to the player's streams that have not had them."""
        for heeding in list(self._heedings.get(player_id, ())):
            game, version = said[0]["game"], said[0]["version"]
            if version <= heeding.seen.get(game, 0):
                continue
            if len(heeding.told) + len(said) > heeding.capacity:
                self._forget(heeding)
                heeding.dropped = True
                heeding.wake.set()
                metrics.STREAMS_DROPPED.inc()
                continue
            heeding.seen[game] = version
            heeding.told.extend(said)
            heeding.wake.set()

    def _forget(self, heeding: Heeding) -> None:
        """Under the lock: the stream no longer heeds its player."""
        heedings = self._heedings.get(heeding.player_id, set())
        heedings.discard(heeding)
        if not heedings:
            self._heedings.pop(heeding.player_id, None)
            self._player_tags.pop(notifications.player_tag(heeding.player_id), None)

    def _heard(self, notice: Notice, player_id: UUID) -> None:
        """A notification telling a player whose stream this process serves."""
        opened = notice.open_player(player_id)
        said = notices.read(opened) if opened is not None else None
        if said is None:
            metrics.NOTIFICATIONS_REFUSED.inc()
            return
        with self._lock:
            self._tell(player_id, said)

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
            self._tags.pop(notifications.tag(feed.game_id), None)

    # -- the listener -------------------------------------------------------

    def _start_listening(self) -> None:
        with self._lock:
            if self._listener is None and self._listen_with is not None:
                self._listener = threading.Thread(target=self._listen, daemon=True, name="casino-listener")
                self._listener.start()

    def _listen(self) -> None:
        assert self._listen_with is not None
        self._listen_with(connected=self._connected, notice=self._announce, disconnected=self._disconnected,
                          stopped=self._closed.is_set)

    def _connected(self) -> None:
        """Listening (again): every feed reads once, for whatever was appended while no one listened."""
        self._listening.set()
        self._tried.set()
        with self._lock:
            for feed in self._feeds.values():
                self._want_read(feed)

    def _disconnected(self) -> None:
        self._listening.clear()
        self._tried.set()
        self._wake_all()

    def _wake_all(self) -> None:
        """Have every stream look at the hub again: it stopped listening,
        and waiting streams only poll while it does not (they would
        otherwise wake every few seconds each, thousands of them, for nothing)."""
        with self._lock:
            for feed in self._feeds.values():
                for subscription in feed.subscriptions:
                    subscription.wake.set()
            for heedings in self._heedings.values():
                for heeding in heedings:
                    heeding.wake.set()

    def _announce(self, notice: Notice) -> None:
        """A notification: an append, maybe another process's. Its events are
        pushed to the game's streams when they continue the feed, else read.
        One that does not open is dropped, and the game it names read."""
        game_id = self._tags.get(notice.tag)
        if game_id is None:
            player_id = self._player_tags.get(notice.tag)
            if player_id is not None:
                self._heard(notice, player_id)
            return  # no stream of the game here: not worth opening
        announcement = notice.open(game_id)
        if announcement is None:
            self._refuse(game_id)
        else:
            self._announced(announcement)

    def _refuse(self, game_id: UUID) -> None:
        """A payload that did not open: whatever it claims is ignored, and
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


# -- the streams ------------------------------------------------------------


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


def events(load: Callable[[UUID], State], read: Read, hub: Hub, game_id: UUID, caller: Caller, after: int,
           state: State, timing: Timing, clock: Callable[[], float] = time.monotonic) -> Generator[str, None, None]:
    """The stream's text: the events after version ``after`` as ``caller``
    may see them, then each new one as it is appended, until time is up.
    ``state`` is the game as the request found it; ``load`` loads it anew,
    ``read`` reads its events."""
    deadline = clock() + timing.seconds
    held = _holder(state, caller)
    subscription = hub.subscribe(game_id, state)  # before the history, so no append slips between
    try:
        history = read(game_id, after)
        latest = load(game_id) if history and history[-1].version > state.version else state
        reveal = log_revealed(latest)
        sending, seat_changed_hands = _sendable(state, [(stored, reveal) for stored in history], caller, held)
        at = _Place(after, latest, seat_changed_hands)
        for stored, shown in sending:
            yield frame(stored, caller, shown)
            at.sent = stored.version
        hub.ready(subscription, at.sent)

        def take(timeout: float) -> str:
            batches = hub.take(subscription, timeout)
            if not batches:
                return ""
            sending, at.cut = _sendable(
                at.state, [(stored, log_revealed(batch.state)) for batch in batches for stored in batch.events],
                caller, held)
            at.sent, at.state = batches[-1].events[-1].version, batches[-1].state
            return "".join(frame(stored, caller, shown) for stored, shown in sending)  # one write for all

        def poll() -> str:
            hub.refresh(subscription)
            return ""

        yield from waiting(hub, timing, deadline, lambda: at.cut or subscription.dropped or at.finished, take, poll,
                           clock)
    finally:
        hub.leave(subscription)


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


def waiting(hub: Hub, timing: Timing, deadline: float, over: Callable[[], bool], take: Callable[[float], str],
            poll: Callable[[], str], clock: Callable[[], float] = time.monotonic) -> Generator[str, None, None]:
    """What every stream does once it waits, until ``deadline`` or
    ``over()``: a keep-alive every ``timing.keepalive`` seconds, ``poll()``
    every ``timing.poll`` seconds while the hub does not listen (the hub
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
        if not hub.listening:
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

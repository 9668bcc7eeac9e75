"""Players' notices: what the appends tell each player whose stream this
process serves (``service.notices`` says what; ``service.player_streams``
writes it out).

The process that appended hands the notices to its own players' streams
as it answers (``tell``); another process's come through the listener
(``service.listener``), sealed, and are opened only for a player streamed
here. Each stream keeps what it was told and has not sent yet, at most
``capacity`` notices (a stream that lets them pile up is dropped), and the
newest version of each game it was told of: an append's notices come once
from this process and again in its notice, and the second time they are
not news.
"""

from __future__ import annotations

import threading
from collections import deque
from collections.abc import Sequence
from dataclasses import dataclass, field
from uuid import UUID

from service import metrics, notices
from service.announcements import Notice, player_tag
from service.listener import Listener


@dataclass(eq=False)
class Heeding:
    """A player's stream's place: what it has been told and not sent yet,
    and the newest version of each game it was told of."""

    player_id: UUID
    capacity: int
    told: deque[notices.Notice] = field(default_factory=deque)
    seen: dict[str, int] = field(default_factory=dict)
    dropped: bool = False
    wake: threading.Event = field(default_factory=threading.Event)


class PlayerNotices:
    """The players' streams of this process, by player."""

    def __init__(self, capacity: int, listener: Listener):
        self._capacity = capacity
        self._listener = listener
        self._lock = threading.Lock()
        self._heedings: dict[UUID, set[Heeding]] = {}
        self._tags: dict[str, UUID] = {}  # how notices name the players of the streams
        listener.serve(self)

    def heed(self, player_id: UUID) -> Heeding:
        """Have what the appends tell the player kept for a stream of the
        player's, before it reads what is so now."""
        self._listener.start()
        heeding = Heeding(player_id, self._capacity)
        with self._lock:
            self._heedings.setdefault(player_id, set()).add(heeding)
            self._tags[player_tag(player_id)] = player_id
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

    # -- the listener's side (service.listener.Hearer) ------------------------

    def take_notice(self, notice: Notice) -> bool:
        """A notice telling a player whose stream this process serves: handed
        to the player's streams if it opens (else counted, and dropped)."""
        player_id = self._tags.get(notice.tag)
        if player_id is None:
            return False
        opened = notice.open_player(player_id)
        said = notices.read(opened) if opened is not None else None
        if said is None:
            metrics.NOTIFICATIONS_REFUSED.inc()
            return True
        with self._lock:
            self._tell(player_id, said)
        return True

    def connected(self) -> None:
        """Nothing to catch up on: a player's stream reads what is so when it begins."""

    def wake_all(self) -> None:
        """Have every player's stream look again: the listener stopped."""
        with self._lock:
            for heedings in self._heedings.values():
                for heeding in heedings:
                    heeding.wake.set()

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
            self._tags.pop(player_tag(heeding.player_id), None)

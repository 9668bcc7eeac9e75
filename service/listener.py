"""One listener a process: a connection hearing every process's appends
(``service.announcements.Listen``), started by the first stream that needs
it, and shared by whatever streams hear through it (the game feeds, the
players' notices: its ``Hearer``\\ s).

Each notice goes to the first hearer that takes it (a notice names one game
or one player, by a tag only the hearer serving it knows). When the
listener connects, every hearer catches up on what was appended while
nobody listened; when it stops, every waiting stream is woken, since
streams poll only while nobody listens.
"""

from __future__ import annotations

import threading
from typing import Protocol

from service.announcements import Listen, Notice

#: How long the first stream waits for the first try to listen, or its failure.
FIRST_TRY_SECONDS = 5.0


class Hearer(Protocol):
    """Streams of one kind that hear through the listener."""

    def take_notice(self, notice: Notice) -> bool:
        """Act on ``notice`` if it names something of these streams; whether it did."""

    def connected(self) -> None:
        """The listener listens (again): catch up on whatever was appended while it did not."""

    def wake_all(self) -> None:
        """The listener stopped: have every waiting stream look again."""


class Listener:
    """Hears of the appends of every process through ``listen``; None when
    this process is the only one that appends (the memory wiring): then it
    counts as listening, and there is nothing to listen for."""

    def __init__(self, listen: Listen | None):
        self._listen_with = listen
        self._hearers: list[Hearer] = []
        self._lock = threading.Lock()
        self._listening = threading.Event()
        self._tried = threading.Event()  # it has tried to connect once
        self._closed = threading.Event()
        self._thread: threading.Thread | None = None
        if listen is None:
            self._listening.set()
            self._tried.set()

    def serve(self, hearer: Hearer) -> None:
        """Hand ``hearer`` the notices that name its streams."""
        self._hearers.append(hearer)

    @property
    def listening(self) -> bool:
        return self._listening.is_set()

    def start(self) -> None:
        """Listen, if nothing does yet; the first time, wait for the first
        try (a stream that began before it would poll for nothing)."""
        with self._lock:
            if self._thread is None and self._listen_with is not None:
                self._thread = threading.Thread(target=self._listen, daemon=True, name="casino-listener")
                self._thread.start()
        self._tried.wait(FIRST_TRY_SECONDS)

    def close(self) -> None:
        """The app is gone: the listener ends within a second."""
        self._closed.set()

    def _listen(self) -> None:
        assert self._listen_with is not None
        self._listen_with(connected=self._connected, notice=self._heard, disconnected=self._disconnected,
                          stopped=self._closed.is_set)

    def _connected(self) -> None:
        self._listening.set()
        self._tried.set()
        for hearer in self._hearers:
            hearer.connected()

    def _disconnected(self) -> None:
        self._listening.clear()
        self._tried.set()
        for hearer in self._hearers:
            hearer.wake_all()

    def _heard(self, notice: Notice) -> None:
        for hearer in self._hearers:
            if hearer.take_notice(notice):
                return

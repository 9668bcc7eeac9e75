"""What a process hears of every process's appends, as the live streams
see it: a notice per append, named by a tag, that opens into an
announcement of the game's new version (and the events, when they fit) or
into what the append tells a player.

Only the shapes live here. The PostgreSQL wiring's notices come over
``LISTEN``, sealed under a key the database does not hold
(``service.postgres.notifications``); the memory wiring has none, since its
one process hands every stream every event as it appends.
"""

from __future__ import annotations

import base64
import hashlib
from collections.abc import Callable
from typing import Protocol
from uuid import UUID

from service.events import StoredEvent

_TAG_BYTES = 12


class Announcement(Protocol):
    """One append, opened: its game, the game's new version, when it was
    sent (Unix time) and, when they fit, the events appended (``events()``)."""

    @property
    def game_id(self) -> UUID: ...

    @property
    def version(self) -> int: ...

    @property
    def sent_at(self) -> float: ...

    def events(self) -> list[StoredEvent] | None: ...


class Notice(Protocol):
    """A notice as it came, named by ``tag`` and not yet opened: a process
    opens only those of the games and players it streams."""

    @property
    def tag(self) -> str: ...

    def open(self, game_id: UUID) -> Announcement | None:
        """What it announces of ``game_id``; None if it does not open, or names another game."""

    def open_player(self, player_id: UUID) -> bytes | None:
        """What it tells ``player_id`` (JSON); None if it does not open, or names another player."""


class Listen(Protocol):
    """Hears of every process's appends until ``stopped()`` (the PostgreSQL
    wiring's is ``service.postgres.notifications.listen``): ``connected()``
    each time it starts listening, ``notice`` for each append, and
    ``disconnected()`` each time it stops or fails to start."""

    def __call__(self, *, connected: Callable[[], None], notice: Callable[[Notice], None],
                 disconnected: Callable[[], None], stopped: Callable[[], bool]) -> None: ...


def tag(game_id: UUID) -> str:
    """How notices name the game: one who does not know its id cannot tell which it is."""
    return _tag(b"casino notification tag|", game_id)


def player_tag(player_id: UUID) -> str:
    """How notices name a player (never as a game: the hash is of another message)."""
    return _tag(b"casino player notification tag|", player_id)


def _tag(purpose: bytes, named: UUID) -> str:
    digest = hashlib.sha256(purpose + named.bytes).digest()[:_TAG_BYTES]
    return base64.urlsafe_b64encode(digest).decode()

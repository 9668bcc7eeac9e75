"""The message bus: what the game service did, handed to whatever reacts to it.

In the manner of Cosmic Python's message bus: the game service
(``service.games``) decides and appends, then reports what it appended as
a message (``GameCreated``, ``CommandAppended``), and knows nothing of who
listens. The handlers are registered in one place, the bootstrap
(``service.bootstrap``): the live streams publish a game's events, the
players' streams tell them what concerns them, the time keeper is woken to
let the computer seats act or told when a clock runs out, the metrics
count. A message is handled after its append has committed, in the
process that appended it; a handler that fails is logged and the others
still run, for the command it reports has been done and answered whatever
a reaction does.
"""

from __future__ import annotations

import logging
import uuid
from collections.abc import Callable, Mapping, MutableMapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any, TypeVar

from domain.game_types import State

from service.events import StoredEvent
from service.notices import Told

_log = logging.getLogger(__name__)


@dataclass(frozen=True)
class GameCreated:
    """A game was created: its first ``stored`` events, its ``state``, what
    it tells its players (``told``), whether a computer seat is awaited
    (``computer_due``: the creation wrote it, ``service.turns``) and when
    its clock runs out (``deadline``, ``service.deadlines``; None for no clock)."""

    game_id: uuid.UUID
    stored: Sequence[StoredEvent]
    state: State
    told: Told
    computer_due: bool = False
    deadline: datetime | None = None


@dataclass(frozen=True)
class CommandAppended:
    """A command on a game was appended: its ``stored`` events (those of what
    the rules did by themselves after it too), the game's ``state`` after
    them, what they tell the players, whether a computer seat is now
    awaited, and the deadline it wrote, if it set or moved one."""

    game_id: uuid.UUID
    command: str
    stored: Sequence[StoredEvent]
    state: State
    told: Told
    computer_due: bool = False
    deadline: datetime | None = None


Message = GameCreated | CommandAppended
M = TypeVar("M", GameCreated, CommandAppended)
Handler = Callable[[Any], None]


class MessageBus:
    """Hands each message to the handlers registered for its type, in the
    order they were registered."""

    def __init__(self, handlers: Mapping[type, Sequence[Handler]] | None = None):
        self._handlers: MutableMapping[type, list[Handler]] = {kind: list(each)
                                                                for kind, each in (handlers or {}).items()}

    def subscribe(self, kind: type[M], handler: Callable[[M], None]) -> None:
        """Have ``handler`` handle every message of type ``kind`` from now on."""
        self._handlers.setdefault(kind, []).append(handler)

    def handle(self, message: Message) -> None:
        """Run every handler of the message's type; one that raises is
        logged, and the rest run still."""
        for handler in self._handlers.get(type(message), ()):
            try:
                handler(message)
            except Exception:  # noqa: BLE001 - the append it reports stands; a reaction must not undo the answer
                _log.exception("handling %s of game %s failed in %s", type(message).__name__, message.game_id,
                               getattr(handler, "__qualname__", handler))

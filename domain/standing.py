"""Where a game stands, in words every game shares: the statuses all games
have, what a game awaits and from whom, and once it is over, how it ended
and who won.

Each game names its other statuses itself (a ``StrEnum`` whose members
include :data:`WAITING` and :data:`FINISHED`), and says what its state
awaits and how it ended (``GameType.awaiting`` and ``GameType.outcome``),
so a client, or a service that sends "your turn" notices or keeps clocks,
reads them the same way in every game type.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Any, Final, Protocol

#: Created, and not dealt yet: every game begins so.
WAITING: Final = "waiting"
#: Over: nothing more will be appended to the game. Every game ends so.
FINISHED: Final = "finished"


class HasStatus(Protocol):
    @property
    def status(self) -> str:
        """Where the game stands: :data:`WAITING`, :data:`FINISHED` or one of the game's own."""


def is_finished(state: HasStatus) -> bool:
    """Whether the game is over: nothing more will be appended to it."""
    return state.status == FINISHED


class Awaited(StrEnum):
    """The command a game waits for: the words of the API's commands."""

    JOIN = "join"  # players take the open seats (the game waits for them before anything else)
    DEAL = "deal"  # the dealer (or the operator) deals, or deals again
    PLAY = "play"  # a move: a card played, a bet or a stop
    ANSWER_UNDO = "answer_undo"  # the other seats answer a request to take the latest move back


@dataclass(frozen=True, slots=True)
class Awaiting:
    """What the game waits for now: ``command`` from any of ``seats``. No
    seat (``()``) means that no seat can give it: only the operator (a deck
    the operator fixes), or the service by itself."""

    command: Awaited
    seats: tuple[int, ...]

    @property
    def clock_seat(self) -> int | None:
        """The seat a clock runs for while the game awaits this: the one seat
        whose play or deal it awaits; None when it awaits players, the
        operator, the service or several seats' answers."""
        if self.command in (Awaited.PLAY, Awaited.DEAL) and len(self.seats) == 1:
            return self.seats[0]
        return None

    def to_dict(self) -> dict[str, Any]:
        return {"command": self.command.value, "seats": list(self.seats)}


@dataclass(frozen=True, slots=True)
class Outcome:
    """How a game ended (``result``: each game's own words for it, such as
    ``"target"`` or ``"deck_out"``) and the seats that won it: a side's
    seats, every seat sharing a win, or none (a draw)."""

    result: str
    winners: tuple[int, ...]


def standing_view(awaiting: Awaiting | None, outcome: Outcome | None) -> dict[str, Any]:
    """The fields of every game's view that say where it stands: ``awaiting``
    (null when the game awaits no one), ``result`` and ``winners`` (null
    until the game is over)."""
    return {
        "awaiting": awaiting.to_dict() if awaiting is not None else None,
        "result": outcome.result if outcome is not None else None,
        "winners": list(outcome.winners) if outcome is not None else None,
    }

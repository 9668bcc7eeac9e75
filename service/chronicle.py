"""What the games did that nobody asked for at that moment, in the log.

Every append a command makes is told here once it is stored
(``GameService``), and two kinds get a line of their own, with the facts as
JSON members beside the sentence (``service.ops.logs``):

- a time-out (``"event": "timed_out"``): the game, the seat whose clock ran
  out, what followed (``game_over``, with its result and winners;
  ``computer_moved``; ``went_on``, the game going on without the seat) and
  how long after the deadline it was claimed; one claimed more than ``LATE``
  after gets a warning of its own (``"event": "deadline_late"``);
- a game's end (``"event": "game_finished"``), however it came: the game,
  its result and its winners (seats).

A line says only what the game's public view shows: never a card, a token
or a seed.
"""

from __future__ import annotations

import logging
import uuid
from collections.abc import Sequence
from datetime import datetime, timedelta
from typing import Any

from domain.clocks import rfc3339
from domain.game_types import State, game_of, is_finished

_log = logging.getLogger("casino.games")

#: A deadline claimed this long after it passed was claimed late: the time
#: keepers look every fifth of a second, so only a busy or stalled service
#: (or one that was down) claims one later.
LATE = timedelta(seconds=1)

#: The command the time keeper appends a time-out with (``service.commands.TimeOut``).
TIME_OUT = "TimeOut"


def appended(game_id: uuid.UUID, command: str, before: State, after: State, events: Sequence[Any],
             at: datetime | None) -> None:
    """Log what the append that took the game from ``before`` to ``after``
    at ``at`` (the moment it was decided at) did, if it is worth a line."""
    if command == TIME_OUT and events and at is not None:
        _timed_out(game_id, before, after, events[0], at)
    if is_finished(after) and not is_finished(before):
        outcome = game_of(after.variant).outcome(after)
        result, winners = (outcome.result, list(outcome.winners)) if outcome else (None, [])
        _log.info("game %s finished (%s), won by seats %s", game_id, result, winners,
                  extra={"fields": {"event": "game_finished", "game": str(game_id), "version": after.version,
                                    "result": result, "winners": winners}})


def _timed_out(game_id: uuid.UUID, before: State, after: State, first: Any, at: datetime) -> None:
    """A time-out's line: ``first`` is its first event (the kernel's
    ``TimedOut``, naming the seat and whether the computer moved)."""
    seat = first.seat
    followed = "game_over" if is_finished(after) else "computer_moved" if first.computer else "went_on"
    deadline = game_of(before.variant).deadline(before)
    late = (at - deadline).total_seconds() if deadline is not None else 0.0
    _log.info("game %s: seat %s ran out of time (%s)", game_id, seat, followed.replace("_", " "),
              extra={"fields": {"event": "timed_out", "game": str(game_id), "seat": seat, "followed": followed,
                                "version": after.version, "late_seconds": round(late, 3)}})
    if deadline is not None and at - deadline > LATE:
        _log.warning("game %s: its deadline (%s) was claimed %.1f s late", game_id, rfc3339(deadline), late,
                     extra={"fields": {"event": "deadline_late", "game": str(game_id), "deadline": rfc3339(deadline),
                                       "late_seconds": round(late, 3)}})

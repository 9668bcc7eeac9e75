"""Clocks: how long a seat may take, as data, the same in every game.

A game created with a clock (:class:`ClockRule`) gives each seat either a
fixed time for every move (``per_move_seconds``) or a bank of time
(``initial_seconds``) that its moves spend and each of its moves adds to
(``increment_seconds``). Nothing here reads a clock: the time of every
event is given (the moment the service handled the command that brought
it, which the store records as the event's ``recorded_at``), and a clock
is a pure function of the events and their times. So a fold, a replay at
any version and ``verify`` all compute the same clocks.

A clock runs for at most one seat: the one whose play or deal the game
awaits (``clock_seat``, each game's: beneath a pending undo request it is
still the seat to play, who may play and let the request lapse). It runs
for nobody while a seat is open, while only the operator can act (a deck
the operator fixes) or while the service acts by itself (a reshuffle).
Whenever the seat it runs for changes, the time since it started is
charged to the seat it ran for (a bank: less that time, plus the increment),
and it starts for the next seat at that event's time. Its deadline is then
that start plus the seat's time. A command decided after the deadline is
refused (``time_out``), except the service's claim of the time-out
(:class:`~domain.seating.TimeOut`), which is refused before it
(``not_due``). A move taken back takes its clock back with it: the clock
runs on for the mover from where it stood before the move
(:mod:`domain.folding`), so an undo never gives time back.

The first action of each seat (its first deal or play) has a time of its
own when the rule gives one (``first_action_seconds``; every clock the
service makes now does, :data:`FIRST_ACTION_SECONDS`): the longer of the
seat's time and that, not taken from a bank. A seat that lets it run out
has not started to play: the game is called off (aborted), nobody loses.
The seats that have made their first action are the clock's ``acted``.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any, NamedTuple

from .errors import OptionError, RuleViolation

#: What the service does when a seat's time runs out.
ON_TIMEOUT = ("forfeit", "computer")
#: The longest time a clock gives (thirty days: correspondence play).
MAX_SECONDS = 30 * 24 * 3600
#: The least time a seat's first action (its first deal or play) has, whatever the clock.
FIRST_ACTION_SECONDS = 30


@dataclass(frozen=True, slots=True)
class ClockRule:
    """A game's clock, as its creation gave it: ``per_move_seconds`` for
    every move, or a bank of ``initial_seconds`` with ``increment_seconds``
    added after each move; and what a time-out does (``on_timeout``:
    ``"forfeit"``, the seat's side loses, or ``"computer"``, the service
    moves for the seat as a computer seat would); ``first_action_seconds``,
    the least time of each seat's first action (None, as in games created
    before it was given: the first action has the seat's time, like any)."""

    per_move_seconds: int | None = None
    initial_seconds: int | None = None
    increment_seconds: int = 0
    on_timeout: str = "forfeit"
    first_action_seconds: int | None = None

    def to_dict(self) -> dict[str, Any]:
        kind: dict[str, Any] = ({"per_move_seconds": self.per_move_seconds} if self.per_move_seconds is not None
                                else {"initial_seconds": self.initial_seconds,
                                      "increment_seconds": self.increment_seconds})
        first = {"first_action_seconds": self.first_action_seconds} if self.first_action_seconds is not None else {}
        return {**kind, "on_timeout": self.on_timeout, **first}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> ClockRule:
        return cls(data.get("per_move_seconds"), data.get("initial_seconds"), data.get("increment_seconds", 0),
                   data.get("on_timeout", "forfeit"), data.get("first_action_seconds"))

    @property
    def allowance(self) -> timedelta:
        """What each seat has at the start: the time for a move, or the bank."""
        seconds = self.per_move_seconds if self.per_move_seconds is not None else self.initial_seconds
        assert seconds is not None, "a clock is per move or a bank"
        return timedelta(seconds=seconds)


def rule(clock: Any, on_timeout: Any = None) -> ClockRule | None:
    """The clock of a creation's ``clock`` (None: none, whatever ``on_timeout``
    says) and ``on_timeout`` (None: ``"forfeit"``); an :class:`OptionError`
    naming the field at fault."""
    if on_timeout is not None and on_timeout not in ON_TIMEOUT:
        raise OptionError(f"'on_timeout' is one of {', '.join(ON_TIMEOUT)}.", "on_timeout")
    if clock is None:
        return None
    if not isinstance(clock, dict) or set(clock) not in ({"per_move_seconds"},
                                                         {"initial_seconds", "increment_seconds"},
                                                         {"initial_seconds"}):
        raise OptionError('A clock is {"per_move_seconds": N} or {"initial_seconds": N, "increment_seconds": M}.',
                          "clock")
    for name, value in clock.items():
        low = 0 if name == "increment_seconds" else 1
        if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= MAX_SECONDS:
            raise OptionError(f"'{name}' is a whole number of seconds from {low} to {MAX_SECONDS}.", "clock")
    return ClockRule.from_dict({**clock, "on_timeout": on_timeout or "forfeit",
                                "first_action_seconds": FIRST_ACTION_SECONDS})


class Clock(NamedTuple):
    """A game's clock at one moment: each seat's time (``remaining``: the
    bank, or with a clock per move the time for a move), the seat it runs
    for (None: nobody) and since when, and the seats that have made their
    first action (kept only under a rule with ``first_action_seconds``)."""

    rule: ClockRule
    remaining: tuple[timedelta, ...]
    seat: int | None = None
    since: datetime | None = None
    acted: tuple[int, ...] = ()


def start(clock_rule: ClockRule, seats: int) -> Clock:
    """A new game's clock: every seat's full time, running for nobody yet."""
    return Clock(clock_rule, (clock_rule.allowance,) * seats)


def tick(clock: Clock, seat: int | None, at: datetime) -> Clock:
    """The clock after an event at ``at`` that leaves the game waiting for
    ``seat`` (None: no seat). Unchanged while it waits for the same seat;
    else the seat it ran for is charged (a bank: the time spent, never
    below nothing, then the increment; nothing for its first action, which
    had its own time) and it starts for ``seat``."""
    if seat == clock.seat:
        return clock
    remaining, acted = clock.remaining, clock.acted
    ran, since = clock.seat, clock.since
    if ran is not None and first_action(clock):
        acted = tuple(sorted({*acted, ran}))
    elif ran is not None and since is not None and clock.rule.per_move_seconds is None:
        left = max(remaining[ran] - (at - since), timedelta(0)) + timedelta(seconds=clock.rule.increment_seconds)
        remaining = remaining[:ran] + (left,) + remaining[ran + 1:]
    return Clock(clock.rule, remaining, seat, at if seat is not None else None, acted)


def first_action(clock: Clock | None) -> bool:
    """Whether the clock runs for a seat's first action, which has its own time."""
    return (clock is not None and clock.seat is not None and clock.rule.first_action_seconds is not None
            and clock.seat not in clock.acted)


def kept_on_take_back(data: dict[str, Any]) -> dict[str, Any]:
    """Upcast a take-back stored before its version 2 (either game's): it
    left the clock as it stood (``restores_clock`` false), and so it replays."""
    return {**data, "restores_clock": False}


def deadline(clock: Clock | None) -> datetime | None:
    """When the running seat's time is up; None when the clock runs for nobody."""
    if clock is None or clock.seat is None or clock.since is None:
        return None
    time = clock.remaining[clock.seat]
    if first_action(clock):
        time = max(time, timedelta(seconds=clock.rule.first_action_seconds or 0))
    return clock.since + time


def check_time(clock: Clock | None, at: datetime | None, claims_time_out: bool) -> None:
    """Refuse a command decided at ``at`` after the deadline (``time_out``),
    or a claim of a time-out that is not due (``not_due``)."""
    due = deadline(clock)
    if claims_time_out:
        if due is None or at is None or at <= due:
            raise RuleViolation("not_due", "No seat's time has run out.")
    elif due is not None and at is not None and at > due:
        assert clock is not None and clock.seat is not None
        raise RuleViolation("time_out", f"Seat {clock.seat}'s time ran out at {rfc3339(due)}.")


def rfc3339(at: datetime) -> str:
    """A moment as RFC 3339 in UTC, to the millisecond: ``2026-11-26T10:00:00.000Z``."""
    return at.astimezone(UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")


def clock_view(clock: Clock | None) -> dict[str, Any] | None:
    """The view's ``clock``: the rule, each seat's ``remaining_ms`` as it stood
    at the game's last event, the seat it runs for and its ``deadline``."""
    if clock is None:
        return None
    due = deadline(clock)
    return {**clock.rule.to_dict(), "seat": clock.seat, "deadline": rfc3339(due) if due is not None else None,
            "seats": [{"seat": i, "remaining_ms": left // timedelta(milliseconds=1)}
                      for i, left in enumerate(clock.remaining)]}

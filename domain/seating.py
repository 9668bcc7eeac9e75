"""Who sits at a table, and how a game ends before its rules end it: the
same in every game.

A seat is *held* (by a name, and perhaps a player id that spans games) or
*open* (nobody holds it yet). A game created with open seats waits for
players: they join (an open seat, the one they ask for or the lowest) and
may leave again until the first deal; nobody deals while a seat is open.
Any seat may abort the game before the first play, and resign it at any
time; where a clock runs out (:mod:`domain.clocks`), the service claims the
time-out. These are the kernel's commands, shared by every game
(``Join``, ``Leave``, ``Resign``, ``Abort``, ``TimeOut``); each game decides
them into events of its own names, with the checks here.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .errors import RuleViolation


@dataclass(frozen=True, slots=True)
class Join:
    """Take an open seat: ``seat``, or the lowest open one when None.
    ``player`` is the id of the player joining, if it has one; a name alone
    joins as a guest."""

    name: str
    seat: int | None = None
    player: str | None = None


@dataclass(frozen=True, slots=True)
class Leave:
    """``seat`` gets up before the first deal: the seat is open again."""

    seat: int


@dataclass(frozen=True, slots=True)
class Resign:
    """``seat`` gives the game up: its side loses."""

    seat: int


@dataclass(frozen=True, slots=True)
class Abort:
    """``seat`` calls the game off before the first play: nobody wins."""

    seat: int


@dataclass(frozen=True, slots=True)
class TimeOut:
    """The service claims a clock that has run out (decided with the time it
    is claimed at, past the deadline). ``next_seed`` is fresh entropy for a
    move the computer makes for the seat (``on_timeout: "computer"``)."""

    next_seed: bytes | None = None


# The commands as every game type builds them (GameType.join_command ...):
# one set, which each game's module takes as its own.

def join_command(seat: int | None, name: str, player: str | None) -> Join:
    return Join(name, seat, player)


def leave_command(seat: int) -> Leave:
    return Leave(seat)


def resign_command(seat: int) -> Resign:
    return Resign(seat)


def abort_command(seat: int) -> Abort:
    return Abort(seat)


def time_out_command(next_seed: bytes | None) -> TimeOut:
    return TimeOut(next_seed)


@dataclass(frozen=True, slots=True)
class Holder:
    """Who holds a seat: a name, and the id of the player when it has one."""

    name: str
    player: str | None = None


#: Each seat's holder, seat 0 first; None for an open seat.
Holders = tuple[Holder | None, ...]


def holders(names: Sequence[str | None], player_ids: Sequence[str | None]) -> Holders:
    """The holders of seats named ``names`` (None: open) held by ``player_ids``."""
    return tuple(None if name is None else Holder(name, player) for name, player in zip(names, player_ids))


def open_seats(names: Sequence[str | None]) -> tuple[int, ...]:
    """The seats nobody holds, in seat order."""
    return tuple(seat for seat, name in enumerate(names) if name is None)


def seat_to_join(names: Sequence[str | None], player_ids: Sequence[str | None], join: Join,
                 rated: bool = False) -> int:
    """The seat ``join`` takes; a :class:`RuleViolation` when it can take none:
    ``unrated_seat`` (a guest joining a rated game), ``not_a_seat``,
    ``already_seated`` (a player holds one seat of a game at most),
    ``seat_taken`` (the seat asked for is held) or ``no_open_seat``."""
    if rated and join.player is None:
        raise RuleViolation("unrated_seat", "This game is rated: only a registered player may take a seat.")
    if join.seat is not None and not 0 <= join.seat < len(names):
        raise RuleViolation("not_a_seat", f"There is no seat {join.seat}: the seats are 0 to {len(names) - 1}.")
    if join.player is not None and join.player in player_ids:
        raise RuleViolation("already_seated", "You already hold a seat in this game.")
    if join.seat is not None:
        if names[join.seat] is not None:
            raise RuleViolation("seat_taken", f"Seat {join.seat} is taken.")
        return join.seat
    free = open_seats(names)
    if not free:
        raise RuleViolation("no_open_seat", "Every seat of this game is taken.")
    return free[0]


def check_leave(names: Sequence[str | None], seat: int, dealt: bool) -> None:
    """Refuse to let ``seat`` leave once the cards are dealt (``game_started``),
    or when nobody holds it (``seat_open``)."""
    if dealt:
        raise RuleViolation("game_started", "The cards have been dealt: you can resign, but no longer leave.")
    check_held(names, seat)


def check_held(names: Sequence[str | None], seat: int) -> None:
    """Refuse a command of a seat nobody holds (``seat_open``)."""
    if not 0 <= seat < len(names) or names[seat] is None:
        raise RuleViolation("seat_open", f"Nobody holds seat {seat}.")


def check_all_seated(names: Sequence[str | None]) -> None:
    """Refuse to deal, or to resign, while a seat is open (``seats_open``)."""
    free = open_seats(names)
    if free:
        seats = ", ".join(map(str, free))
        raise RuleViolation("seats_open", f"The game waits for players: seat{'s' * (len(free) > 1)} {seats}"
                            f" {'are' if len(free) > 1 else 'is'} open.")


def check_abort(names: Sequence[str | None], seat: int, played: bool) -> None:
    """Refuse an abort once a play has been made (``already_played``)."""
    check_held(names, seat)
    if played:
        raise RuleViolation("already_played", "A play has been made: the game can be resigned, no longer aborted.")


def joined(values: tuple[str | None, ...], seat: int, value: str | None) -> tuple[str | None, ...]:
    """``values`` (the seats' names or player ids) with ``seat``'s replaced."""
    return values[:seat] + (value,) + values[seat + 1:]

"""Mass Cool Casino's side of the game-type interface
(:class:`domain.game_types.GameType`): its one preset, and what a service needs
to create and run a game without knowing its rules. The rules themselves
are :func:`~.decide.decide` (with :func:`~.decide.follow_up`),
:func:`~.evolve.fold` and :func:`~.legal.legal_moves`; the views are in
:mod:`.views`."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any, NoReturn

from .. import clocks
from ..cards import Card
from ..clocks import ClockRule
from ..errors import RuleViolation
from ..seating import Holders, holders
# The seat commands are the kernel's, the same in every game type (re-exported for GameType).
from ..seating import abort_command as abort_command, join_command as join_command
from ..seating import leave_command as leave_command, resign_command as resign_command
from ..seating import time_out_command as time_out_command
from ..rating import rate_command as rate_command, to_rate
from ..standing import Outcome
from ..summary import Summary
from .commands import AnswerUndo, CreateGame, Deal, Undo
from .computer import computer_command as computer_command  # part of the game-type interface
from .moves import Move
from .rules import DESCRIPTION, GAME_TYPE, MAX_PLAYERS, MIN_PLAYERS
from .state import FINISHED, MassCoolState, Status
from .waiting import awaiting as awaiting  # part of the game-type interface

#: Every seat count the game is played with.
PLAYERS = tuple(range(MIN_PLAYERS, MAX_PLAYERS + 1))
#: Every status a game can be in.
STATUSES = tuple(Status)
STATE = MassCoolState


@dataclass(frozen=True, slots=True)
class Variant:
    """A preset of the game. There is one: the money dealt depends on the
    seat count, so its options are ``resolve(name, None, players)``."""

    name: str
    description: str
    players: tuple[int, ...]


VARIANTS: dict[str, Variant] = {GAME_TYPE: Variant(GAME_TYPE, DESCRIPTION, PLAYERS)}


def create_command(variant: str, players: tuple[str | None, ...], first_dealer: int,
                   options: dict[str, Any] | None, seed: bytes | None, clock: ClockRule | None = None,
                   rated: bool = False) -> CreateGame:
    """The creation command; ``variant`` is checked when it is decided (there is one, :data:`GAME_TYPE`)."""
    return CreateGame(players, first_dealer, options or {}, seed, variant, clock, rated)


def deal_command(seat: int | None, deck: tuple[Card, ...] | None, next_seed: bytes | None) -> Deal:
    return Deal(deck, seat, next_seed)


def parse_move(body: Any) -> Move:
    return Move.from_dict(body)


def undo_command(seat: int | None) -> Undo:
    return Undo(seat)


def answer_undo_command(seat: int, accept: bool) -> AnswerUndo:
    return AnswerUndo(seat, accept)


def count_out_command(seat: int) -> NoReturn:
    raise _not_in_this_game("count out: the game ends when the deck cannot give everyone a hand")


def void_command(reason: str, next_seed: bytes | None) -> NoReturn:
    raise _not_in_this_game("void a hand")


def client_seed_command(seat: int, seed: str) -> NoReturn:
    raise _not_in_this_game("take client seeds: its shuffles are committed one command ahead")


def _not_in_this_game(what: str) -> RuleViolation:
    return RuleViolation("not_in_this_game", f"Mass Cool Casino has no way to {what}.")


def outcome(state: MassCoolState) -> Outcome | None:
    """How the game ended and who won: the seat with the most money, or every seat tied on it."""
    ended = state.outcome
    return Outcome(ended.reason, ended.winners) if ended is not None else None


def log_revealed(state: MassCoolState) -> bool:
    """A finished game's whole log is public: this game has no option to keep it hidden."""
    return state.status == FINISHED


def players_to_rate(state: MassCoolState) -> tuple[str, ...]:
    """The players whose ratings the game moves now (:func:`domain.rating.to_rate`)."""
    return to_rate(state.rated, outcome(state), state.rating_changes, state.player_ids)


def seats(state: MassCoolState) -> list[dict[str, Any]]:
    return [{"seat": i, "name": name, "open": name is None} for i, name in enumerate(state.names)]


def seat_holders(state: MassCoolState) -> Holders:
    """Who holds each seat (None: open), with their player ids."""
    return holders(state.names, state.player_ids)


def deadline(state: MassCoolState) -> datetime | None:
    """When the time of the seat the clock runs for is up; None without one."""
    return clocks.deadline(state.clock)


def summary(state: MassCoolState) -> Summary:
    ended = state.outcome
    return Summary(
        variant=GAME_TYPE,
        status=state.status,
        player_names=state.names,
        hand_number=state.round,
        finished=state.status == FINISHED,
        outcome=outcome(state),
        former={} if ended is None else {"seats": list(ended.winners)},
    )

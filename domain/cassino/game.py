"""Cassino's side of the game-type interface (:class:`domain.game_types.GameType`):
what a service needs to create and run a game without knowing its rules.
The rules themselves are :func:`~.decide.decide`, :func:`~.evolve.fold` and
:func:`~.legal.legal_moves`; the views are in :mod:`.views`."""

from __future__ import annotations

from typing import Any

from datetime import datetime

from .. import clocks
from ..cards import Card
from ..clocks import ClockRule
from ..seating import Holders, holders
# The seat commands are the kernel's, the same in every game type (re-exported for GameType).
from ..seating import abort_command as abort_command, join_command as join_command
from ..seating import leave_command as leave_command, resign_command as resign_command
from ..seating import time_out_command as time_out_command
from ..rating import rate_command as rate_command, to_rate
from ..standing import Outcome
from ..summary import Summary
from .commands import AnswerUndo, CountOut, CreateGame, Deal, Play, SetClientSeed, Undo, VoidHand
from .computer import computer_command as computer_command  # part of the game-type interface
from .moves import Move
from .options import VARIANTS
from .state import FINISHED, GameState, Status
from .waiting import awaiting as awaiting  # part of the game-type interface

GAME_TYPE = "cassino"
DESCRIPTION = "Cassino and its fishing family: capture and build from the table with the cards in your hand."
#: Every seat count some variant is played with.
PLAYERS = tuple(sorted({n for v in VARIANTS.values() for n in v.players}))
#: Every status a game can be in.
STATUSES = tuple(Status)
STATE = GameState


def create_command(variant: str, players: tuple[str | None, ...], first_dealer: int,
                   options: dict[str, Any] | None, seed: bytes | None, clock: ClockRule | None = None,
                   rated: bool = False) -> CreateGame:
    return CreateGame(variant, players, first_dealer, options or {}, seed, clock, rated)


def deal_command(seat: int | None, deck: tuple[Card, ...] | None, next_seed: bytes | None) -> Deal:
    """A deal; Cassino commits each hand's seed when the hand before ends,
    so ``next_seed`` is not needed here."""
    return Deal(deck, seat)


def parse_move(body: Any) -> Move:
    return Move.from_dict(body)


def command_for(seat: int, move: Move, next_seed: bytes | None) -> Play:
    return Play(seat, move, next_seed)


def undo_command(seat: int | None) -> Undo:
    return Undo(seat)


def answer_undo_command(seat: int, accept: bool) -> AnswerUndo:
    return AnswerUndo(seat, accept)


def count_out_command(seat: int) -> CountOut:
    return CountOut(seat)


def void_command(reason: str, next_seed: bytes | None) -> VoidHand:
    """The operator voids the hand; ``next_seed`` commits the next hand's shuffle."""
    return VoidHand(reason, next_seed)


def client_seed_command(seat: int, seed: str) -> SetClientSeed:
    return SetClientSeed(seat, seed)


def follow_up(state: GameState, next_seed: bytes | None) -> None:
    """Nothing in Cassino happens by itself: every step is someone's command."""
    return None


def outcome(state: GameState) -> Outcome | None:
    """How the game ended and who won: every seat of the winning side (none for a draw)."""
    ended = state.outcome
    if ended is None:
        return None
    winners = state.team_seats(ended.winner) if ended.winner is not None else ()
    return Outcome(ended.reason.value, winners)


def players_to_rate(state: GameState) -> tuple[str, ...]:
    """The players whose ratings the game moves now (:func:`domain.rating.to_rate`)."""
    return to_rate(state.rated, outcome(state), state.rating_changes, state.player_ids)


def seats(state: GameState) -> list[dict[str, Any]]:
    return [{"seat": i, "name": s.name, "team": s.team, "open": s.name is None} for i, s in enumerate(state.seats)]


def seat_holders(state: GameState) -> Holders:
    """Who holds each seat (None: open), with their player ids."""
    return holders(state.names, state.player_ids)


def deadline(state: GameState) -> datetime | None:
    """When the time of the seat the clock runs for is up; None without one."""
    return clocks.deadline(state.clock)


def summary(state: GameState) -> Summary:
    ended = state.outcome
    return Summary(
        variant=state.variant,
        status=state.status,
        player_names=state.names,
        hand_number=state.hand_number,
        finished=state.status == FINISHED,
        outcome=outcome(state),
        former={} if ended is None else {"team": ended.winner},
    )

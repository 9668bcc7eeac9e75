"""Rematches: after a game ends, its players play again at a new table.

One seat offers a rematch, each other seat accepts (the same command,
``AnswerRematch``); the answer that completes it names the new game
(``game_id``, chosen by the service as a seed is: data in the command),
which the service then creates with the same players, variant, options,
clock and rated flag, the first deal moving to the seat after the one that
dealt first (``Terms``). Each answer is an event of the finished game, so
two seats answering at once append one after the other, and only one of
them completes the rematch. Only a game whose every seat is a registered
player's is rematched: a guest's seat has no one to seat again (its token
was for that game only), and a computer's is not a player who answers.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from .errors import RuleViolation


@dataclass(frozen=True, slots=True)
class Rematch:
    """A rematch offered by ``offered_by``, accepted by the seats
    ``accepted`` (the offer's among them), and, once every seat has, its
    new game (``game_id``)."""

    offered_by: int
    accepted: tuple[int, ...]
    game_id: str | None = None

    def to_dict(self) -> dict[str, Any]:
        return {"offered_by": self.offered_by, "accepted": list(self.accepted), "game_id": self.game_id}


@dataclass(frozen=True, slots=True)
class AnswerRematch:
    """``seat`` offers a rematch of the finished game, or accepts the one
    offered; ``game_id`` is the new game's id should this answer complete it."""

    seat: int
    game_id: str


@dataclass(frozen=True, slots=True)
class Terms:
    """What the rematch's new game is created with: the finished game's
    ``variant``, ``options`` (as its creation took them), ``clock`` (its rule,
    as a dict, or None), ``rated``, its ``players`` (id and name by seat), and
    ``first_dealer``, the seat after the finished game's first dealer in turn order."""

    variant: str
    options: Mapping[str, Any]
    clock: Mapping[str, Any] | None
    rated: bool
    players: tuple[tuple[str, str], ...]
    first_dealer: int


def answer(finished: bool, player_ids: Sequence[str | None], rematch: Rematch | None,
           command: AnswerRematch) -> tuple[int, str | None]:
    """The answer's event data, ``(seat, game_id)``: the new game's id when
    this answer is the last seat's, else None; or a :class:`RuleViolation`."""
    if not finished:
        raise RuleViolation("game_not_over", "A rematch is offered once the game is over.")
    if any(player is None for player in player_ids):
        raise RuleViolation("rematch_players_only", "Only a game whose every seat is a registered player's can be"
                            " rematched: a guest's or a computer's seat has no player to seat again.")
    if rematch is not None and rematch.game_id is not None:
        raise RuleViolation("rematch_exists", "This game's rematch has been made already: see its game_id.")
    if rematch is not None and command.seat in rematch.accepted:
        raise RuleViolation("rematch_answered", "Your seat has answered this rematch already.")
    accepted = (rematch.accepted if rematch is not None else ()) + (command.seat,)
    return command.seat, command.game_id if len(accepted) == len(player_ids) else None


def answered(rematch: Rematch | None, seat: int, game_id: str | None) -> Rematch:
    """The rematch after ``seat`` answered (the first answer offers it)."""
    if rematch is None:
        return Rematch(seat, (seat,), game_id)
    return Rematch(rematch.offered_by, (*rematch.accepted, seat), game_id)


def rematch_view(rematch: Rematch | None) -> dict[str, Any]:
    """The field of every game's view on its rematch: null until one is offered."""
    return {"rematch": rematch.to_dict() if rematch is not None else None}


def rematch_describer(name: str) -> dict[str, Any]:
    """The describer of a game's rematch answers, by the game's name for them."""
    return {name: lambda d: (f"seat {d['seat']} answers the rematch"
                             + (f": every seat has, the new game is {d['game_id']}" if d["game_id"] else ""))}


def terms(variant: str, options: Mapping[str, Any], clock: Mapping[str, Any] | None, rated: bool,
          player_ids: Sequence[str | None], names: Sequence[str | None], next_dealer: int) -> Terms:
    """The rematch's terms (see ``Terms``) of a finished game of every seat's
    player, whose first dealer's next seat is ``next_dealer``."""
    players = tuple((str(p), str(n)) for p, n in zip(player_ids, names, strict=True))
    return Terms(variant, options, clock, rated, players, next_dealer)

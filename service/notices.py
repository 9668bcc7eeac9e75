"""What a player's live stream is told of an append to one of the player's
games (``GET /v1/players/me/stream``).

An append that takes a game from ``before`` to ``after`` tells each player
who holds one of its seats after it:

- ``game_started`` (game, version), when the game leaves waiting for its
  players and is dealt;
- ``your_turn`` (game, version, deadline), when the game comes to wait for
  the player's seat (its play, deal or answer), which it did not before;
- ``game_over`` (game, version, result, winners), when the game ends.

Each is said in the words every game shares (``domain.standing``: what a
game awaits, how it ended), all of which the game's public view shows: a
player is told nothing that the player's seat could not see. The service
computes them as it appends (``GameService``), hands them to its own hub
and, through the store, to every other worker's (sealed notifications,
``service.postgres.notifications``).
"""

from __future__ import annotations

import uuid
from collections.abc import Mapping, Sequence
from typing import Any

from domain.clocks import rfc3339
from domain.game_types import AnyGameType, State, game_of, is_finished
from domain.standing import WAITING

from service import jsonio
from service.projection import awaited_seats

#: Told to a player: ``{"event": ..., "game": ..., "version": ..., ...}``, as its stream sends it.
Notice = dict[str, Any]
#: The notices of one append, by player.
Told = Mapping[uuid.UUID, Sequence[Notice]]

#: The events a player's stream sends, each a Server-Sent Events ``event:``.
EVENTS = ("your_turn", "game_started", "game_over")


def notices(game_id: uuid.UUID, before: State, after: State) -> dict[uuid.UUID, list[Notice]]:
    """What the append that took the game from ``before`` to ``after`` tells
    each player who holds a seat after it (none of them: nothing)."""
    game = game_of(after.variant)
    players = {seat: uuid.UUID(holder.player) for seat, holder in enumerate(game.seat_holders(after))
               if holder is not None and holder.player is not None}
    if not players:
        return {}
    common = {"game": str(game_id), "version": after.version}
    started = before.status == WAITING and after.status != WAITING and not is_finished(after)
    awaited, was_awaited = awaited_seats(game, after), awaited_seats(game, before)
    over = [_game_over(game, after, common)] if is_finished(after) and not is_finished(before) else []
    told: dict[uuid.UUID, list[Notice]] = {}
    for seat, player in players.items():
        said = [{"event": "game_started", **common}] if started else []
        if seat in awaited and seat not in was_awaited:
            said.append(your_turn(game, after, common))
        said += over
        if said:
            told[player] = said
    return told


def _game_over(game: AnyGameType, state: State, common: Mapping[str, Any]) -> Notice:
    """The ``game_over`` of a game that just finished."""
    outcome = game.outcome(state)
    return {"event": "game_over", **common, "result": outcome.result if outcome else None,
            "winners": list(outcome.winners) if outcome else []}


def your_turn(game: AnyGameType, state: State, common: Mapping[str, Any]) -> Notice:
    """The ``your_turn`` of a game that waits for the player's seat now."""
    deadline = game.deadline(state)
    return {"event": "your_turn", **common, "deadline": rfc3339(deadline) if deadline is not None else None}


def read(text: bytes) -> list[Notice] | None:
    """One append's notices for a player, as a notification carried them
    (its JSON, sealed by this service); None for anything else."""
    try:
        said = jsonio.loads(text)
    except ValueError:
        return None
    if not isinstance(said, list) or not said or not all(
            isinstance(n, dict) and n.get("event") in EVENTS and isinstance(n.get("game"), str)
            and isinstance(n.get("version"), int) for n in said):
        return None
    return said

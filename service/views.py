"""What a caller may see: of a game, of its events, of what a command did.

The rules of what is hidden belong to each game (``GameType.game_view``,
``event_view`` and ``log_revealed``); here the caller is named to the game
(a seat by its number, the operator by the flag, the public by neither) and
the service's own fields are added: versions, times, and for the operator
the events' positions, metadata and hashes. Everything is built after the
append, from the domain's results (``service.games.Applied``, ``Created``).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from domain.game_types import State, game_of, game_of_event

from service.auth import Caller
from service.events import StoredEvent, stored_form
from service.games import Applied, Created


def game_view(state: State, caller: Caller) -> dict[str, Any]:
    """The game at ``state`` as ``caller`` may see it."""
    return game_of(state.variant).game_view(state, caller.seat, caller.is_operator)


def log_revealed(state: State) -> bool:
    """Whether the whole log is public: the game is over and allows it."""
    return game_of(state.variant).log_revealed(state)


def redact(stored: dict[str, Any], caller: Caller, reveal: bool = False) -> dict[str, Any]:
    """The JSON form of an event (``type``, ``schema_version``, ``data``) for
    ``caller``; ``reveal`` shows everything (a finished game's public log).
    An event of a type no game has was written behind the service's back:
    the operator, who is looking into the damage, sees it as stored; no one
    else sees its data."""
    try:
        game = game_of_event(stored["type"])
    except KeyError:
        return stored if caller.is_operator else {**stored, "data": None}
    return game.event_view(stored, caller.seat, caller.is_operator, reveal)


def event_json(stored: StoredEvent, caller: Caller, reveal: bool = False) -> dict[str, Any]:
    """A stored event as the event log shows it to ``caller``."""
    out = {"version": stored.version, **redact(stored_form(stored), caller, reveal),
           "recorded_at": stored.recorded_at.isoformat()}
    if caller.is_operator:
        out["position"] = stored.position
        out["metadata"] = stored.metadata
        out["hash"] = stored.hash
        out["chain"] = stored.chain
    return out


def command_answer(applied: Applied, caller: Caller) -> dict[str, Any]:
    """A command's answer: the new version, the events it appended as the
    caller may see them, and the caller's view."""
    state = applied.state
    game = game_of(state.variant)
    reveal = game.log_revealed(state)
    shown = [{"version": applied.before + 1 + i, **redact(game.to_json(e), caller, reveal)}
             for i, e in enumerate(applied.events)]
    return {"version": state.version, "events": shown, "game": game_view(state, caller)}


def creation_answer(created: Created, caller: Caller, computers: Iterable[int]) -> dict[str, Any]:
    """A new game: its id and version, its seats with their tokens (none for
    a computer's), and the game as ``caller`` sees it."""
    state = created.state
    playing = set(computers)
    seats = [{**s, "computer": s["seat"] in playing, "token": None if s["seat"] in playing else created.tokens[i]}
             for i, s in enumerate(game_of(state.variant).seats(state))]
    return {"id": str(created.game_id), "version": state.version, "seats": seats,
            "game": game_view(state, caller)}


def moves_answer(state: State, caller: Caller) -> dict[str, Any]:
    """A seat's legal moves now, each a body ``/play`` accepts as it is; a bounded list."""
    listed = game_of(state.variant).legal_moves(state, caller.own_seat).first()
    return {"version": state.version, "seat": caller.own_seat, "moves": [m.to_dict() for m in listed.moves],
            "truncated": listed.truncated}

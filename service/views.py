"""What a caller may see of a game and of its events.

The rules of what is hidden belong to each game (``GameType.game_view``,
``event_view`` and ``log_revealed``); here the caller is named to the game:
a seat by its number, the operator by the flag, the public by neither.
"""

from __future__ import annotations

from typing import Any

from domain.games import State, game_of, game_of_event

from service.caller import Caller


def game_view(state: State, caller: Caller) -> dict[str, Any]:
    """The game at ``state`` as ``caller`` may see it."""
    return game_of(state.variant).game_view(state, _seat(caller), caller.is_operator)


def redact(stored: dict[str, Any], caller: Caller, reveal: bool = False) -> dict[str, Any]:
    """The JSON form of an event (``type``, ``schema_version``, ``data``) for
    ``caller``; ``reveal`` shows everything (a finished game's public log)."""
    return game_of_event(stored["type"]).event_view(stored, _seat(caller), caller.is_operator, reveal)


def log_revealed(state: State) -> bool:
    """Whether the whole log is public: the game is over and allows it."""
    return game_of(state.variant).log_revealed(state)


def _seat(caller: Caller) -> int | None:
    return caller.seat if caller.is_seat else None

"""The games this library knows, behind one small interface.

Each game is a module (a sibling package of :mod:`domain.cassino`) that
provides the names of :class:`GameType`; :data:`GAMES` maps a game type's
name to it, and :func:`game_of` finds the game of a variant, so a service
keeps one code path for every game.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any, Protocol

from . import cassino


class GameType(Protocol):
    """A game as a module: commands are decided into events, and a state is
    the fold of its events. States, commands and events are the game's own
    types; the service treats them as opaque, apart from ``state.version``."""

    @property
    def VARIANTS(self) -> Mapping[str, Any]:
        """The game's presets by name."""

    def decide(self, state: Any, command: Any) -> list[Any]:
        """The events ``command`` brings in ``state`` (None before creation),
        or a :class:`~domain.errors.RuleViolation`."""

    def evolve(self, state: Any, event: Any) -> Any:
        """The state after one event."""

    def fold(self, events: Iterable[Any], state: Any = None) -> Any:
        """The state after ``events``, applied to ``state`` (or from the start)."""

    def legal_moves(self, state: Any, seat: int) -> Any:
        """The moves ``seat`` may make now, as a lazy view with ``first()``."""

    def to_json(self, event: Any) -> dict[str, Any]:
        """The stored form of an event: ``{"type", "schema_version", "data"}``."""

    def from_json(self, stored: dict[str, Any]) -> Any:
        """An event read back from its stored form (old versions upcast)."""


#: Every game type, by name.
GAMES: dict[str, GameType] = {"cassino": cassino}


def game_of(variant: str) -> GameType:
    """The game a variant belongs to; :class:`KeyError` for an unknown one."""
    for game in GAMES.values():
        if variant in game.VARIANTS:
            return game
    raise KeyError(variant)

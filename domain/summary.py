"""What a games list holds of any game: one record every game type fills
from its state (``GameType.summary``), so a read model needs no game's rules."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True, slots=True)
class Summary:
    """What the games read model (and list) holds of a game's state.

    ``winner`` is the game's own JSON of its result once it is over
    (Cassino: ``{"team", "reason"}``; Mass Cool Casino: ``{"seats",
    "reason"}``), None before."""

    variant: str
    status: str
    player_names: tuple[str | None, ...]  # None for an open seat
    hand_number: int
    finished: bool
    winner: dict[str, Any] | None

"""What a games list holds of any game: one record every game type fills
from its state (``GameType.summary``), so a read model needs no game's rules."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from .standing import Outcome


@dataclass(frozen=True, slots=True)
class Summary:
    """What the games read model (and list) holds of a game's state.

    ``outcome`` is how the game ended and who won (``GameType.outcome``),
    None before. ``former`` holds the game's own fields that listings
    showed of it before ``winners`` and ``result`` (deprecated: Cassino's
    ``team``, Mass Cool Casino's ``seats``); ``winner`` writes both."""

    variant: str
    status: str
    player_names: tuple[str | None, ...]  # None for an open seat
    hand_number: int
    finished: bool
    outcome: Outcome | None
    former: Mapping[str, Any] = field(default_factory=dict)

    @property
    def winner(self) -> dict[str, Any] | None:
        """The outcome as the read model keeps it and a listing shows it,
        the same in every game type: ``winners`` (the winning seats, none
        for a draw or an aborted game) and ``result``, as the game's view
        has them; beside them, for the clients that read them before
        (deprecated), ``reason`` (the result) and the game's ``former``
        fields. None until the game is over."""
        if self.outcome is None:
            return None
        return {**self.former, "reason": self.outcome.result,
                "winners": list(self.outcome.winners), "result": self.outcome.result}

"""Computer players: seats that the service plays itself.

A game names its computer seats when it is created; the list is kept in
the metadata of the game's first event (``service.games.COMPUTER_SEATS``),
so it needs no table of its own and travels with the events (into
transcripts too).

A computer acts after the command that called on it has been answered, as
a time-out comes: each append that leaves the game awaiting a computer seat
writes so (``service.turns``), the time keeper (``service.timeouts``)
claims the game, and ``ComputerPlayers.act`` makes the computer's command,
through the same commands a person sends. What a computer does is its
game's to say (``GameType.computer_command``: Cassino's plays greedily).
Each command is appended with the version the computer looked at as its
``If-Match``, so a person's command that lands first simply wins (and
writes again whether a computer is awaited), and no computer's command is
appended twice. Its events' metadata name it as the actor
``computer:<seat>``.
"""

from __future__ import annotations

import logging
import uuid

from domain.errors import RuleViolation
from domain.game_types import game_of

from service.auth import seat
from service.commands import ComputerTurn, fresh_seed
from service.games import GameService, PreconditionFailed, VersionConflict

_log = logging.getLogger(__name__)


class ComputerPlayers:
    """The computer seats of every game, played through one ``GameService``."""

    def __init__(self, games: GameService):
        self._games = games

    def seats(self, game_id: uuid.UUID) -> tuple[int, ...]:
        return self._games.computer_seats.of(game_id)

    def act(self, game_id: uuid.UUID) -> bool | None:
        """Make the one command a computer seat of the game has to make now:
        True when it was appended, False when another command landed first
        (that one's append says again whether a computer is awaited), None
        when no computer has anything to do in the game."""
        computers = self.seats(game_id)
        if not computers:
            return None
        state = self._games.load(game_id)
        step = game_of(state.variant).computer_command(state, computers, fresh_seed())
        if step is None:
            return None
        who, command = step
        try:
            self._games.execute(ComputerTurn(game_id=game_id, caller=seat(who), command=command,
                                             expected_version=state.version))
        except (PreconditionFailed, VersionConflict, RuleViolation):
            return False
        return True

"""Computer players: seats that the service plays itself.

A game names its computer seats when it is created; the list is kept in
the metadata of the game's first event (``service.games.COMPUTER_SEATS``),
so it needs no table of its own and travels with the events (into
transcripts too).

After every command on such a game, ``ComputerPlayers.take_turns`` lets the
computer seats do what falls to them, through the same commands a person
sends. What a computer does is its game's to say
(``GameType.computer_command``: Cassino's plays greedily). Each command is
appended with the version the computer looked at as its ``If-Match``, so a
person's command that lands first simply wins and the computer looks again
after the next one. Its events' metadata name it as the actor
``computer:<seat>``.
"""

from __future__ import annotations

import logging
import threading
import uuid

from cachetools import FIFOCache

from domain.errors import RuleViolation
from domain.game_types import game_of

from service.auth import seat
from service.commands import ComputerTurn, fresh_seed
from service.games import COMPUTER_SEATS, GameService, PreconditionFailed, VersionConflict

# Commands one request may make on the computers' behalf: a whole hand of a
# game with only computer seats is well under this, and the next command
# carries on from where it stopped.
MAX_STEPS = 200

_log = logging.getLogger(__name__)


class ComputerPlayers:
    """The computer seats of every game, played through one ``GameService``.
    Which seats of a game they are is read once per game and kept (they are
    fixed when the game is created), for the ``capacity`` games read last
    (a ``cachetools.FIFOCache``: first in, first out)."""

    def __init__(self, games: GameService, capacity: int = 10_000):
        self._games = games
        self._known: FIFOCache = FIFOCache(maxsize=capacity)
        self._lock = threading.Lock()

    def seats(self, game_id: uuid.UUID) -> tuple[int, ...]:
        with self._lock:
            known = self._known.get(game_id)
        if known is None:
            first = self._games.events(game_id, 0, 1)
            known = tuple(first[0].metadata.get(COMPUTER_SEATS, ())) if first else ()
            with self._lock:
                self._known[game_id] = known
        return known

    def take_turns(self, game_id: uuid.UUID, request_id: str | None = None) -> int:
        """Let the computer seats act until it is a person's turn; returns how
        many commands they made. Runs after a command that is already stored
        and answered as it is: a failure here is logged, and the computers
        carry on after the next command."""
        try:
            return self._take_turns(game_id, request_id)
        except Exception:  # noqa: BLE001 - the caller's own command succeeded
            _log.exception("computer players could not act in game %s", game_id)
            return 0

    def _take_turns(self, game_id: uuid.UUID, request_id: str | None) -> int:
        computers = self.seats(game_id)
        if not computers:
            return 0
        for done in range(MAX_STEPS):
            state = self._games.load(game_id)
            step = game_of(state.variant).computer_command(state, computers, fresh_seed())
            if step is None:
                return done
            who, command = step
            try:
                self._games.execute(ComputerTurn(game_id=game_id, caller=seat(who), command=command,
                                                 expected_version=state.version, request_id=request_id))
            except (PreconditionFailed, VersionConflict, RuleViolation):
                return done  # someone else moved first; whoever did runs take_turns again
        return MAX_STEPS

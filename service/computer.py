"""Computer players: seats that the service plays itself.

A game names its computer seats when it is created; the list is kept in
the metadata of the game's first event (``computer_seats``), so it needs no
table of its own and travels with the events (into transcripts too).

After every command on such a game, :func:`take_turns` lets the computer
seats do what falls to them, through the same commands a person sends.
What a computer does is its game's to say (``GameType.computer_command``:
Cassino's plays greedily). Each command is appended with the version the
computer looked at as its ``If-Match``, so a person's command that lands
first simply wins and the computer looks again after the next one. Its
events' metadata name it as the actor ``computer:<seat>``.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable, Iterable
from typing import Any

from domain.errors import RuleViolation
from domain.game_types import game_of

from service.auth import seat
from service.games import GameService, MakeCommand, PreconditionFailed, VersionConflict, fresh_seed, request_hash

# Commands one request may make on the computers' behalf: a whole hand of a
# game with only computer seats is well under this, and the next command
# carries on from where it stopped.
MAX_STEPS = 200


def creation_metadata(computer_seats: Iterable[int]) -> dict[str, Any]:
    """What the game's first event's metadata adds to name its computer seats."""
    chosen = list(computer_seats)
    return {"computer_seats": chosen} if chosen else {}


def actor(seat_number: int) -> str:
    """How an event's metadata names the computer playing ``seat_number``."""
    return f"computer:{seat_number}"


class ComputerSeats:
    """Which seats of a game the computer plays, read once per game and kept
    (they are fixed when the game is created)."""

    def __init__(self, service: GameService, capacity: int = 10_000):
        self._service = service
        self._known: dict[uuid.UUID, tuple[int, ...]] = {}
        self._capacity = capacity

    def of(self, game_id: uuid.UUID) -> tuple[int, ...]:
        known = self._known.get(game_id)
        if known is None:
            first = self._service.store.load(game_id, until_version=1)
            known = tuple(first[0].metadata.get("computer_seats", ())) if first else ()
            if len(self._known) >= self._capacity:
                self._known.pop(next(iter(self._known)))
            self._known[game_id] = known
        return known


def take_turns(service: GameService, seats: ComputerSeats, game_id: uuid.UUID,
               metadata: Callable[[str, str], dict[str, Any]]) -> int:
    """Let the computer seats act until it is a person's turn; returns how
    many commands they made. ``metadata(actor, command)`` makes each
    command's event metadata."""
    computers = seats.of(game_id)
    if not computers:
        return 0
    for done in range(MAX_STEPS):
        state = service.load(game_id)
        step = game_of(state.variant).computer_command(state, computers, fresh_seed())
        if step is None:
            return done
        who, command = step
        name, caller = type(command).__name__, seat(who)
        try:
            service.execute(game_id, caller, _given(command), if_match=state.version, idempotency_key=None,
                            fingerprint=request_hash(caller, name, {}), meta=metadata(actor(who), name))
        except (PreconditionFailed, VersionConflict, RuleViolation):
            return done  # someone else moved first; whoever did runs take_turns again
    return MAX_STEPS


def _given(command: Any) -> MakeCommand:
    """A command already made: the computer chose it on the state it looked at."""
    return lambda game, state: command

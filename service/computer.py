"""Computer players: seats that the service plays itself.

A game names its computer seats when it is created; the list is kept in
the metadata of the game's first event (``computer_seats``), so it needs no
table of its own and travels with the events (into transcripts too).

After every command on such a game, :func:`take_turns` lets each computer
seat do what falls to it, through the same commands a person sends: answer
an undo request (it always agrees), count out once its side has reached the
target, deal when it is the dealer, and play when it is its turn. Each
command is appended with the version the computer looked at as its
``If-Match``, so a person's command that lands first simply wins and the
computer looks again on the next command. Its events' metadata name it as
the actor ``computer:<seat>``.

How it plays (:func:`choose`) is greedy: the capture worth the most points,
else the one taking the most cards, else a trail of its lowest card, else
(when the rules forbid trailing) the first legal move.
"""

from __future__ import annotations

import secrets
import uuid
from collections.abc import Callable
from typing import Any

from domain import AnswerUndo, CountOut, Deal, GameState, Move, Play, RuleViolation, legal_moves
from domain.cassino.scoring import card_points, secured_points
from domain.cassino.state import HAND_OVER, IN_PROGRESS, WAITING
from domain.cassino.table import Build

from service.caller import seat
from service.games import GameService, PreconditionFailed, VersionConflict, request_hash

# Commands one request may make on the computers' behalf: a whole hand of a
# game with only computer seats is well under this, and the next command
# carries on from where it stopped.
MAX_STEPS = 200
SEED_BYTES = 32


def creation_metadata(computer_seats: list[int]) -> dict[str, Any]:
    """What the game's first event's metadata adds to name its computer seats."""
    return {"computer_seats": computer_seats} if computer_seats else {}


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
        step = next_command(state, computers)
        if step is None:
            return done
        who, name, command = step
        caller = seat(who)
        try:
            service.execute(game_id, caller, lambda _state, chosen=command: chosen, if_match=state.version,
                            idempotency_key=None, fingerprint=request_hash(caller, name, {}),
                            meta=metadata(actor(who), name))
        except (PreconditionFailed, VersionConflict, RuleViolation):
            return done  # someone else moved first; whoever did runs take_turns again
    return MAX_STEPS


def next_command(state: GameState, computers: tuple[int, ...]) -> tuple[int, str, Any] | None:
    """The next thing a computer seat does in ``state``: (seat, command name,
    command), or None when it waits for a person."""
    asker = state.undo_request
    if asker is not None:
        for s in computers:
            if s != asker and s not in state.undo_accepted:
                return s, "AnswerUndo", AnswerUndo(s, True)
    if state.status == IN_PROGRESS and state.options.count_out:
        for s in computers:
            team = state.team_of(s)
            if state.scores[team] + secured_points(state, team) >= state.options.target:
                return s, "CountOut", CountOut(s)
    if state.status in (WAITING, HAND_OVER) and state.next_dealer in computers:
        return state.next_dealer, "Deal", Deal(None, seat=state.next_dealer)
    if state.status == IN_PROGRESS and state.turn in computers and asker is None:
        return state.turn, "Play", Play(state.turn, choose(state, state.turn), secrets.token_bytes(SEED_BYTES))
    return None


def choose(state: GameState, seat_number: int) -> Move:
    """The greedy player's move (see the module's docstring)."""
    moves = legal_moves(state, seat_number).first().moves
    captures = [m for m in moves if m.action == "capture"]
    if captures:
        return max(captures, key=lambda m: _gain(state, m))
    trails = [m for m in moves if m.action == "trail"]
    if trails:
        return min(trails, key=lambda m: (m.card.rank, m.card.suit))
    return moves[0]


def _gain(state: GameState, move: Move) -> tuple[int, int]:
    """What a capture takes: (points the cards score, number of cards)."""
    taken = [move.card]
    for target in move.targets:
        item = state.item(target)
        taken += item.cards if isinstance(item, Build) else [item]
    return sum(a.points for a in card_points(taken, state.options)), len(taken)


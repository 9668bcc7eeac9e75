"""What a caller asks of the service: one small command object per request.

A command says who asks (``caller``), of which game, and what; and, for the
service layer's own checks, the version the caller saw (``expected_version``,
an HTTP ``If-Match``), its idempotency key and the request it came in
(``request_id``, kept in its events' metadata). ``rules(game)`` turns it
into the game's own command, through the game's rules
(``domain.game_types.GameType``), when the service layer decides it: the
service never asks which game it serves, and a command that needs chance
draws its seed then (``fresh_seed``). ``body()`` is what tells a retry of
the request from another one sent under the same key.

These are the service's commands, not the domain's: a ``Play`` here carries
a parsed move and its caller; the game's ``command_for`` makes the domain's.
"""

from __future__ import annotations

import hashlib
import secrets
from dataclasses import dataclass
from typing import Any
from uuid import UUID

from domain.cards import Card
from domain.clocks import ClockRule
from domain.errors import RuleViolation
from domain.game_types import GameType, read_move

from service import jsonio
from service.auth import SERVICE, Caller
from service.writes import Paired

SEED_BYTES = 32
#: The most seats a game has.
MAX_SEATS = 8


def fresh_seed() -> bytes:
    """Secret entropy for a shuffle's commitment, from the operating system.
    Every seed a game needs comes from here, as data in its commands."""
    return secrets.token_bytes(SEED_BYTES)


def request_hash(actor: str, action: str, body: Any) -> str:
    """What tells a retry (same caller, action and body) from another request under the same key."""
    return hashlib.sha256(jsonio.dumps([actor, action, body], sort_keys=True)).hexdigest()


@dataclass(frozen=True, kw_only=True)
class Request:
    """What every command carries besides what it asks."""

    idempotency_key: str | None = None
    request_id: str | None = None

    @property
    def name(self) -> str:
        """The command's name in its events' metadata and in its request hash."""
        return type(self).__name__

    def body(self) -> dict[str, Any]:
        """What the caller asked, as JSON: a retry under the same key must ask the same."""
        return {}


@dataclass(frozen=True)
class SeatedPlayer:
    """A player who holds a seat of a game from its creation on: the seat, the player and the player's name."""

    seat: int
    player: UUID
    name: str


@dataclass(frozen=True, kw_only=True)
class CreateGame(Request):
    """Start a game of ``variant``. ``seats`` are the seats' names (None for
    an open seat, which a player joins later), and ``computers`` the seats
    the service plays; ``first_dealer`` None lets the service draw the first
    dealer. ``me``: the creator, a player, holds that seat (None in
    ``seats``) from the creation on, in the same append."""

    variant: str
    seats: tuple[str | None, ...]
    options: dict[str, Any]
    first_dealer: int | None = None
    computers: tuple[int, ...] = ()
    clock: ClockRule | None = None
    #: Listed in the lobby while it waits with a seat open (``service.projection.LISTED``).
    listed: bool = False
    #: Its result moves its players' ratings; every seat is a registered player's (``domain.rating``).
    rated: bool = False
    #: Whether a guest (a name without a player token) may take an open seat, or only players.
    guests: bool = True
    me: SeatedPlayer | None = None
    #: Players seated from the creation on (their seats None in ``seats``), in the same append.
    seated: tuple[SeatedPlayer, ...] = ()
    #: The pairings the game is made for (``service.pairing``), which its append ends.
    paired: tuple[Paired, ...] = ()
    #: The id the game is created under (None: a new one), and the finished game it is the rematch of.
    game_id: UUID | None = None
    rematch_of: UUID | None = None

    def body(self) -> dict[str, Any]:
        me = self.me.seat if self.me is not None else None
        asked = {"variant": self.variant, "options": self.options, "first_dealer": self.first_dealer,
                 "seats": [{"me": True} if i == me else {"open": True} if name is None
                           else {"name": name, "computer": i in self.computers} for i, name in enumerate(self.seats)]}
        return (asked | ({"clock": self.clock.to_dict()} if self.clock is not None else {})
                | ({"listed": True} if self.listed else {}) | ({} if self.guests else {"guests": False})
                | ({"rated": True} if self.rated else {})
                | ({"player": str(self.me.player)} if self.me is not None else {}))


@dataclass(frozen=True, kw_only=True)
class RegisterPlayer(Request):
    """A new player, under ``player_name``."""

    player_name: str

    def body(self) -> dict[str, Any]:
        return {"name": self.player_name}


@dataclass(frozen=True, kw_only=True)
class GameCommand(Request):
    """A command on one game: the game's rules decide it."""

    game_id: UUID
    caller: Caller
    expected_version: int | None = None
    #: How many more times the command is decided again when its append
    #: loses to another command once more (the first time always is).
    decide_again: int = 0

    @property
    def actor(self) -> str:
        """Who its events' metadata name as having acted."""
        return self.caller.actor

    @property
    def filed_as(self) -> str:
        """Whose its idempotency key is (``IdempotencyRecord.actor``): the caller's."""
        return self.caller.actor

    def rules(self, game: GameType) -> Any:
        """The game's own command for this one."""
        raise NotImplementedError

    def filed_body(self, game: GameType) -> Any:
        """What its idempotency key is filed with (``request_hash``), read as
        a command of ``game``: the same request written otherwise (a card in
        lower case, say) is the same."""
        return self.body()


@dataclass(frozen=True, kw_only=True)
class Deal(GameCommand):
    """The dealer deals; the operator may fix the deck (top card first), and
    then no seed is committed for the shuffles after it."""

    deck: tuple[Card, ...] | None = None

    def rules(self, game: GameType) -> Any:
        return game.deal_command(self.caller.seat, self.deck, fresh_seed() if self.deck is None else None)

    def body(self) -> dict[str, Any]:
        return {"deck": [c.code for c in self.deck] if self.deck is not None else None}


@dataclass(frozen=True, kw_only=True)
class Play(GameCommand):
    """A seat makes a move of the game: ``move`` as the request gave it (a
    ``/play`` body), read as a move of the game once the command finds the
    game (``domain.game_types.read_move``), so the game is looked up once,
    by the command; or a move of the game already read."""

    move: Any

    def rules(self, game: GameType) -> Any:
        return game.command_for(self.caller.own_seat, self.read(game), fresh_seed())

    def read(self, game: GameType) -> Any:
        """The move, as a move of ``game`` (``NotationError`` for a body that is no move)."""
        return self.move if self.parsed else read_move(game, self.move)

    @property
    def parsed(self) -> bool:
        """Whether ``move`` is a move of the game already, not a request's body."""
        return hasattr(self.move, "to_dict")

    def body(self) -> Any:
        return self.move.to_dict() if self.parsed else self.move

    def filed_body(self, game: GameType) -> Any:
        return self.read(game).to_dict()


@dataclass(frozen=True, kw_only=True)
class CountOut(GameCommand):
    def rules(self, game: GameType) -> Any:
        return game.count_out_command(self.caller.own_seat)


@dataclass(frozen=True, kw_only=True)
class Undo(GameCommand):
    """The seat that made the last move asks to take it back (or takes it
    back, where the game lets it); the operator takes it back."""

    def rules(self, game: GameType) -> Any:
        return game.undo_command(self.caller.seat)


@dataclass(frozen=True, kw_only=True)
class AnswerUndo(GameCommand):
    accept: bool

    def rules(self, game: GameType) -> Any:
        return game.answer_undo_command(self.caller.own_seat, self.accept)

    def body(self) -> dict[str, Any]:
        return {"accept": self.accept}


@dataclass(frozen=True, kw_only=True)
class VoidHand(GameCommand):
    reason: str

    def rules(self, game: GameType) -> Any:
        return game.void_command(self.reason, fresh_seed())

    def body(self) -> dict[str, Any]:
        return {"reason": self.reason}


@dataclass(frozen=True, kw_only=True)
class SetClientSeed(GameCommand):
    seed: str

    def rules(self, game: GameType) -> Any:
        return game.client_seed_command(self.caller.own_seat, self.seed)

    def body(self) -> dict[str, Any]:
        return {"seed": self.seed}


@dataclass(frozen=True, kw_only=True)
class Join(GameCommand):
    """Take an open seat (``seat``, or the lowest open one) under
    ``seat_name``: for the player ``caller.player``, or for a guest (the
    public). A caller who holds a seat already holds one too many."""

    seat_name: str
    seat: int | None = None
    # Players racing for seats: each lost race is a seat taken, so a join
    # ends taking a seat or refused by the rules, not in a conflict.
    decide_again: int = MAX_SEATS

    @property
    def filed_as(self) -> str:
        # A retry comes from the seat the first attempt took: the key is the player's, or the public's.
        return _players_or_callers(self.caller)

    def rules(self, game: GameType) -> Any:
        if self.caller.is_seat and self.caller.player is None:
            raise RuleViolation("already_seated", "You already hold a seat in this game.")
        player = str(self.caller.player) if self.caller.player is not None else None
        return game.join_command(self.seat, self.seat_name, player)

    def body(self) -> dict[str, Any]:
        return {"seat": self.seat, "name": self.seat_name}


@dataclass(frozen=True, kw_only=True)
class Leave(GameCommand):
    """The seat gets up before the first deal: it is open again."""

    @property
    def filed_as(self) -> str:
        # A player's retry comes from no seat: the key is the player's.
        return _players_or_callers(self.caller)

    def rules(self, game: GameType) -> Any:
        if not self.caller.is_seat:
            raise RuleViolation("not_seated", "You hold no seat in this game.")
        return game.leave_command(self.caller.own_seat)


def _players_or_callers(caller: Caller) -> str:
    """Whose the key of a command that seats or unseats a player is: the
    player's, whichever seat the player holds when it is retried."""
    return f"player:{caller.player.hex}" if caller.player is not None else caller.actor


@dataclass(frozen=True, kw_only=True)
class ComputerTurn(GameCommand):
    """What a computer seat chose (``command``, the game's own) on the game
    at ``expected_version``; its events name it ``computer:<seat>``."""

    command: Any

    @property
    def name(self) -> str:
        return type(self.command).__name__

    @property
    def actor(self) -> str:
        return f"computer:{self.caller.own_seat}"

    def rules(self, game: GameType) -> Any:
        return self.command


@dataclass(frozen=True, kw_only=True)
class Resign(GameCommand):
    """A seat gives the game up: its side loses."""

    def rules(self, game: GameType) -> Any:
        return game.resign_command(self.caller.own_seat)


@dataclass(frozen=True, kw_only=True)
class AnswerRematch(GameCommand):
    """A seat of a finished game offers a rematch, or accepts the one
    offered; ``new_game`` is the rematch's id should this answer complete it."""

    new_game: UUID

    def rules(self, game: GameType) -> Any:
        return game.rematch_command(self.caller.own_seat, str(self.new_game))


@dataclass(frozen=True, kw_only=True)
class Abort(GameCommand):
    """A seat calls the game off before the first play."""

    def rules(self, game: GameType) -> Any:
        return game.abort_command(self.caller.own_seat)


@dataclass(frozen=True, kw_only=True)
class TimeOut(GameCommand):
    """The service claims the time-out of a game whose clock has run out
    (``service.timeouts``); its events name the actor ``service``."""

    caller: Caller = SERVICE

    def rules(self, game: GameType) -> Any:
        return game.time_out_command(fresh_seed())

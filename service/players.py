"""Players: identities that span games.

A player registers with a name (``PlayerService.register``) and is given a
token, shown in that answer only: like a seat's, only its sha256 is kept.
A player token is a bearer token like a seat's; on a game it acts for the
seat its player holds there, and nothing else (``service.auth``). Which
seat a player holds in which game is ``player_seats``, a read model that
the appends of joins and leaves keep (``service.projection``), so a token
finds its seat, and a player's games are listed, without reading events.

A registration sent with an ``Idempotency-Key`` gets an id and a token
derived from the key and a server secret (``service.auth.player_identity``),
as a game's creation does for its seats: a retry makes them again, finds
the player kept under that id, and is given the same answer, with nothing
kept in clear. Two adapters keep ``Players``: PostgreSQL's
(``service.postgres.players``) and memory's (``service.memory.players``);
tests/contract holds both to it.

A player may replace the token (one that leaked, say): the old one stops
working at once, since a player's token is looked up on every request
(``service.auth``). To take the identity to another device, the player asks
for a transfer code: twelve letters, kept as their hash, that another device
exchanges once, within ten minutes, for a new token of the player; that
token replaces the one before, so the identity moves rather than being
copied. A code is spent by its claim, and forgotten when the token changes.
"""

from __future__ import annotations

import secrets
import uuid
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Protocol

from service.auth import hash_token, new_player_token, player_identity
from service.commands import RegisterPlayer
from service.games import KeyReused, TokensLost

#: How long a transfer code (``PlayerService.transfer``) may be claimed.
TRANSFER_LIFETIME = timedelta(minutes=10)
#: A transfer code's letters: no 0/O or 1/I to mistake for one another; 32 of them, 5 bits a letter.
CODE_ALPHABET = "23456789ABCDEFGHJKLMNPQRSTUVWXYZ"
#: 12 letters, 60 bits: far beyond guessing in the ten minutes a code lives.
CODE_LENGTH = 12


@dataclass(frozen=True)
class Player:
    id: uuid.UUID
    name: str


@dataclass(frozen=True)
class Registered:
    """A player, and its token (in clear only here)."""

    player: Player
    token: str


class Players(Protocol):
    """Where players are kept, and which seat they hold in a game (the
    read model of ``player_seats`` the appends write; a player's list of
    games is the read model's, ``ReadModel.player_games``, and may come from a replica)."""

    def add(self, player: Player, token_hash: str) -> tuple[Player, str]:
        """Keep a new player under its token's hash, and answer it; if a
        player is kept under its id already (a retried registration), that
        one and its token's hash, unchanged."""

    def find(self, player_id: uuid.UUID) -> Player | None:
        """The player of that id, or None."""

    def player_for_token(self, token_hash: str) -> uuid.UUID | None:
        """The id of the player whose token has that hash, or None."""

    def token_hash_of(self, player_id: uuid.UUID) -> str | None:
        """The hash of the player's token, or None for no such player."""

    def seat_of(self, player_id: uuid.UUID, game_id: uuid.UUID) -> int | None:
        """The seat the player holds in the game, or None (on the primary:
        which seat a token acts for is never read from a replica)."""

    def replace_token(self, player_id: uuid.UUID, token_hash: str) -> None:
        """Keep the player under a new token's hash (the old token stops
        working at once) and forget the player's transfer code, if any."""

    def add_transfer(self, player_id: uuid.UUID, code_hash: str, lifetime: timedelta) -> datetime:
        """Keep a transfer code's hash for the player, valid for ``lifetime``
        from now by the store's clock, in place of any code before; when it expires."""

    def claim(self, code_hash: str, token_hash: str) -> Player | None:
        """Spend the transfer code of that hash, if one is kept and has not
        expired: its player is kept under ``token_hash`` from now on (the
        token before stops working) and answered. None for any other code,
        one spent already among them: a code is claimed once."""


class PlayerService:
    """Registering players, and reading what is kept of them. ``secret``
    derives the ids and tokens of registrations sent with an idempotency
    key (``service.auth.player_key_from``); without it, each process makes its own."""

    def __init__(self, players: Players, secret: bytes):
        self._players = players
        self._secret = secret

    def register(self, command: RegisterPlayer) -> Registered:
        """A new player, or for a retry under the same key the one it made."""
        key = command.idempotency_key
        player_id, token = player_identity(self._secret, key) if key is not None else (uuid.uuid4(),
                                                                                          new_player_token())
        asked = Player(player_id, command.player_name)
        kept, token_hash = self._players.add(asked, hash_token(token))
        if kept != asked:
            raise KeyReused()
        if token_hash != hash_token(token):
            # The secret changed since: never answer with a token that does not work.
            raise TokensLost("A player was registered under this Idempotency-Key, but its token can no longer"
                             " be given again: the service's secret has been replaced since. Register anew.")
        return Registered(kept, token)

    def find(self, player_id: uuid.UUID) -> Player | None:
        return self._players.find(player_id)

    def new_token(self, player_id: uuid.UUID) -> str:
        """A new token for the player; the one before stops working at once."""
        token = new_player_token()
        self._players.replace_token(player_id, hash_token(token))
        return token

    def transfer(self, player_id: uuid.UUID) -> tuple[str, datetime]:
        """A one-time code that another device exchanges for a token of the
        player (``claim``), valid for ``TRANSFER_LIFETIME``; and when it expires."""
        code = "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))
        expires = self._players.add_transfer(player_id, hash_token(code), TRANSFER_LIFETIME)
        return "-".join(code[i:i + 4] for i in range(0, CODE_LENGTH, 4)), expires

    def claim(self, code: str) -> Registered | None:
        """The player of a transfer code, with a new token (which replaces the
        one before: the identity moves to the claiming device); None for a
        code that is not valid (mistyped, expired or spent)."""
        token = new_player_token()
        found = self._players.claim(hash_token(normal_code(code)), hash_token(token))
        return Registered(found, token) if found is not None else None


def normal_code(code: str) -> str:
    """A transfer code as it is kept: in capitals, without the dashes and spaces a person may type."""
    return "".join(code.split()).replace("-", "").upper()

"""Players in memory (``service.players.Players``), over the ``Tables`` the
memory event store writes the seats they hold into."""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime, timedelta
from uuid import UUID

from service.memory.tables import KeptPlayer, Tables
from service.players import Player


class MemoryPlayers:
    def __init__(self, tables: Tables):
        self.tables = tables

    def add(self, player: Player, token_hash: str) -> tuple[Player, str]:
        t = self.tables
        with t.lock:
            kept = t.players.get(player.id)
            if kept is None:
                if token_hash in t.player_tokens:
                    raise ValueError("a player with this token is kept already")  # PostgreSQL's unique key
                kept = t.players[player.id] = KeptPlayer(player.name, token_hash, t.now())
                t.player_tokens[token_hash] = player.id
        return Player(player.id, kept.name), kept.token_hash

    def find(self, player_id: UUID) -> Player | None:
        with self.tables.lock:
            kept = self.tables.players.get(player_id)
        return Player(player_id, kept.name) if kept is not None else None

    def player_for_token(self, token_hash: str) -> UUID | None:
        with self.tables.lock:
            return self.tables.player_tokens.get(token_hash)

    def token_hash_of(self, player_id: UUID) -> str | None:
        with self.tables.lock:
            kept = self.tables.players.get(player_id)
        return kept.token_hash if kept is not None else None

    def seat_of(self, player_id: UUID, game_id: UUID) -> int | None:
        with self.tables.lock:
            held = self.tables.player_seats.get((player_id, game_id))
        return held.seat if held is not None else None

    def replace_token(self, player_id: UUID, token_hash: str) -> None:
        t = self.tables
        with t.lock:
            self._retoken(player_id, token_hash)

    def add_transfer(self, player_id: UUID, code_hash: str, lifetime: timedelta) -> datetime:
        t = self.tables
        with t.lock:
            expires = t.now() + lifetime
            self._forget_transfer(player_id)
            t.transfers[code_hash] = (player_id, expires)
        return expires

    def claim(self, code_hash: str, token_hash: str) -> Player | None:
        t = self.tables
        with t.lock:
            found = t.transfers.get(code_hash)
            if found is None or found[1] <= t.now():
                return None
            player_id = found[0]
            self._retoken(player_id, token_hash)
            return Player(player_id, t.players[player_id].name)

    def _retoken(self, player_id: UUID, token_hash: str) -> None:
        """Under the lock: the player kept under ``token_hash``, its transfer code forgotten."""
        t = self.tables
        kept = t.players[player_id]
        del t.player_tokens[kept.token_hash]
        t.players[player_id] = replace(kept, token_hash=token_hash)
        t.player_tokens[token_hash] = player_id
        self._forget_transfer(player_id)

    def _forget_transfer(self, player_id: UUID) -> None:
        t = self.tables
        for code_hash in [c for c, (holder, _) in t.transfers.items() if holder == player_id]:
            del t.transfers[code_hash]

"""Players in memory (``service.players.Players``), over the ``Tables`` the
memory event store writes the seats they hold into."""

from __future__ import annotations

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

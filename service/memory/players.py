"""Players in memory (``service.players.Players``), over the ``Tables`` the
memory event store writes the seats they hold into."""

from __future__ import annotations

from uuid import UUID

from service.memory.tables import KeptPlayer, Tables
from service.players import Player
from service.readmodel import Cursor, Row, newest_first


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

    def turns(self, player_id: UUID) -> list[Row]:
        t = self.tables
        with t.lock:
            rows = [{"id": game, "version": t.rows[game]["version"], "deadline": t.rows[game]["deadline"],
                     "created_at": held.created_at}
                    for (player, game), held in t.player_seats.items()
                    if player == player_id and game in t.rows and held.seat in (t.rows[game]["awaiting"] or ())]
        return sorted(rows, key=lambda row: (row["created_at"], row["id"]), reverse=True)

    def games(self, player_id: UUID, statuses: tuple[str, ...], after: Cursor | None,
              limit: int) -> tuple[list[Row], Cursor | None]:
        t = self.tables
        with t.lock:
            rows = [{"id": game, "variant": t.rows[game]["variant"], "status": t.rows[game]["status"],
                     "seat": held.seat, "version": t.rows[game]["version"], "awaiting": t.rows[game]["awaiting"],
                     "deadline": t.rows[game]["deadline"],
                     "created_at": held.created_at}
                    for (player, game), held in t.player_seats.items() if player == player_id and game in t.rows]
        return newest_first([row for row in rows if not statuses or row["status"] in statuses], after, limit)

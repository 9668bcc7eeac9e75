"""The games read model in memory (``service.readmodel.ReadModel``), over
the ``Tables`` the memory event store writes its rows into."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any
from uuid import UUID

from service.events import StoredEvent
from service.writes import GAME_COLUMNS
from service.memory.tables import HeldSeat, Tables
from service.projection import PLAYER_SEATS, split_row
from service.readmodel import SEAT_RATINGS, Cursor, GameFilter, Kept, Row, held_ratings, newest_first


class MemoryReadModel:
    def __init__(self, tables: Tables):
        self.tables = tables

    def page(self, where: GameFilter, after: Cursor | None, limit: int) -> tuple[list[Row], Cursor | None]:
        """Up to ``limit`` rows newest first, after ``after``; and the cursor
        of the next page, None when there is none."""
        with self.tables.lock:
            rows = [{"id": game, **row} for game, row in self.tables.rows.items() if where.matches(row)]
        return newest_first(rows, after, limit)

    def game_ids(self) -> list[UUID]:
        """Every game with events, a row or a checkpoint, in id order."""
        t = self.tables
        with t.lock:
            return sorted(set(t.events) | set(t.rows) | set(t.checkpoints))

    def evidence(self, game_id: UUID) -> Kept:
        """The game's events, its row (with the seats players hold) and its checkpoint, as of one moment."""
        t = self.tables
        with t.lock:
            row = t.rows.get(game_id)
            seats = {str(player): seat for player, seat in self._seats(game_id).items()}
            kept = {**row, PLAYER_SEATS: seats} if row is not None else None
            return list(t.events.get(game_id, [])), kept, t.checkpoints.get(game_id)

    def _seats(self, game_id: UUID) -> dict[UUID, int]:
        return {player: held.seat for (player, game), held in self.tables.player_seats.items() if game == game_id}

    def heads(self) -> list[dict[str, Any]]:
        """Every game's last version and its hash, in game id order."""
        with self.tables.lock:
            return [{"game_id": str(game), "version": events[-1].version, "head": events[-1].hash}
                    for game, events in sorted(self.tables.events.items()) if events]

    def rebuild(self, game_id: UUID, project: Callable[[Sequence[StoredEvent]], Mapping[str, Any]]) -> None:
        """Replace the game's row and the seats players hold in it by
        ``project(events)``, from its events alone (under the lock, so no
        append comes between)."""
        t = self.tables
        with t.lock:
            row, seats = split_row(project(list(t.events.get(game_id, []))))
            t.rows[game_id] = {column: row[column] for column in GAME_COLUMNS}
            for player in self._seats(game_id):
                del t.player_seats[(player, game_id)]
            for player, seat in seats.items():
                t.player_seats[(player, game_id)] = HeldSeat(seat, row["created_at"])

    def player_turns(self, player_id: UUID) -> list[Row]:
        t = self.tables
        with t.lock:
            rows = [{"id": game, "version": t.rows[game]["version"], "deadline": t.rows[game]["deadline"],
                     "created_at": held.created_at}
                    for (player, game), held in t.player_seats.items()
                    if player == player_id and game in t.rows and held.seat in (t.rows[game]["awaiting"] or ())]
        return sorted(rows, key=lambda row: (row["created_at"], row["id"]), reverse=True)

    def player_games(self, player_id: UUID, statuses: tuple[str, ...], after: Cursor | None,
              limit: int) -> tuple[list[Row], Cursor | None]:
        t = self.tables
        with t.lock:
            rows = [{"id": game, "variant": t.rows[game]["variant"], "status": t.rows[game]["status"],
                     "seat": held.seat, "version": t.rows[game]["version"], "awaiting": t.rows[game]["awaiting"],
                     "deadline": t.rows[game]["deadline"], "winner": t.rows[game]["winner"],
                     "player_names": t.rows[game]["player_names"], "created_at": held.created_at}
                    for (player, game), held in t.player_seats.items() if player == player_id and game in t.rows]
            page, following = newest_first([row for row in rows if not statuses or row["status"] in statuses],
                                           after, limit)
            return self._with_ratings(page), following

    def lobby(self, variants: tuple[str, ...], after: Cursor | None, limit: int) -> tuple[list[Row], Cursor | None]:
        """Up to ``limit`` games in the lobby, newest first, after ``after``."""
        with self.tables.lock:
            rows = [{"id": game, "variant": row["variant"], "lobby": row["lobby"], "created_at": row["created_at"]}
                    for game, row in self.tables.rows.items()
                    if row["lobby"] is not None and (not variants or row["variant"] in variants)]
            page, following = newest_first(rows, after, limit)
            return self._with_ratings(page), following

    def _with_ratings(self, rows: list[Row]) -> list[Row]:
        """``rows`` (of games, each with its ``variant``), each with its ``SEAT_RATINGS`` (under the lock)."""
        t = self.tables
        variants = {row["id"]: row["variant"] for row in rows}
        held: dict[UUID, list[tuple[int, Any]]] = {game: [] for game in variants}
        for (player, game), seat in t.player_seats.items():
            if game in held:
                held[game].append((seat.seat, t.ratings.get((player, variants[game]))))
        return [{**row, SEAT_RATINGS: held_ratings(held[row["id"]])} for row in rows]

    def delete_rows_without_events(self) -> int:
        """Remove the rows of games that have no events; how many were removed."""
        t = self.tables
        with t.lock:
            gone = [game for game in t.rows if not t.events.get(game)]
            for game in gone:
                del t.rows[game]
        return len(gone)


"""Pairing in memory (``service.pairing.Pairings``), over the ``Tables``
the memory event store ends pairings in."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from datetime import datetime, timedelta
from uuid import UUID

from service.memory.tables import PairingResult, Tables, WaitingRow
from service.pairing import Ask, Pairing, Waiting


class MemoryPairings:
    def __init__(self, tables: Tables):
        self.tables = tables

    def ask(self, waiting: Waiting) -> bool:
        t = self.tables
        with t.lock:
            if any(row.player == waiting.player for row in t.pairings.values()):
                return False
            t.pairings[waiting.id] = WaitingRow(waiting.player, waiting.name, waiting.ask.pool,
                                                waiting.ask.to_dict(), waiting.rating, waiting.since)
        return True

    def find(self, pairing_id: UUID) -> Pairing | None:
        t = self.tables
        with t.lock:
            row, ended = t.pairings.get(pairing_id), t.pairing_results.get(pairing_id)
        if row is not None:
            return Pairing(pairing_id, row.player, Ask.from_dict(row.ask), "waiting")
        if ended is None:
            return None
        return Pairing(pairing_id, ended.player, Ask.from_dict(ended.ask),
                       "paired" if ended.game is not None else "cancelled", ended.game, ended.seat)

    def cancel(self, pairing_id: UUID, at: datetime) -> Pairing | None:
        t = self.tables
        with t.lock:
            row = t.pairings.pop(pairing_id, None)
            if row is not None:
                t.pairing_results[pairing_id] = PairingResult(row.player, row.ask, None, None, at)
        return self.find(pairing_id)

    def claim(self, now: datetime, limit: int, lease: timedelta) -> list[Waiting]:
        t = self.tables
        with t.lock:
            rows = sorted(t.pairings.items(), key=lambda item: item[1].created_at)
            free = [(i, r) for i, r in rows if r.claimed_until is None or r.claimed_until <= now]
            if not free:
                return []
            pool = free[0][1].pool
            taken = [(i, r) for i, r in rows if r.pool == pool and (r.held or (i, r) in free)][:limit]
            for i, r in taken:
                t.pairings[i] = replace(r, claimed_until=now + lease, held=False)
        return [Waiting(i, r.player, r.name, Ask.from_dict(r.ask), r.rating, r.created_at) for i, r in taken]

    def release(self, pairing_ids: Sequence[UUID], until: datetime) -> None:
        t = self.tables
        with t.lock:
            for i in pairing_ids:
                if i in t.pairings:
                    t.pairings[i] = replace(t.pairings[i], claimed_until=until, held=True)

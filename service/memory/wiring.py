"""The memory wiring: the service's adapters over one set of ``Tables``, in
this process. Every append is this process's, so live streams need no
listener (``Hub.publish`` hands them every event); the tables always answer."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from service.bootstrap import Adapters
from service.memory.deadlines import MemoryDeadlines
from service.memory.players import MemoryPlayers
from service.memory.pairing import MemoryPairings
from service.memory.ratings import MemoryRatings
from service.memory.readmodel import MemoryReadModel
from service.memory.store import MemoryEventStore
from service.memory.tables import Tables
from service.memory.tickets import MemoryTicketUses
from service.memory.turns import MemoryTurns


def adapters(config: Mapping[str, Any], checkpoint_key: bytes | None, tables: Tables | None = None) -> Adapters:
    """Every adapter over ``tables`` (new, empty ones by default); ``config`` asks nothing of them."""
    tables = tables or Tables()
    return Adapters(
        store=MemoryEventStore(tables, checkpoint_key),
        read_model=MemoryReadModel(tables),
        ticket_uses=MemoryTicketUses(tables),
        deadlines=MemoryDeadlines(tables),
        computer_turns=MemoryTurns(tables),
        players=MemoryPlayers(tables),
        pairings=MemoryPairings(tables),
        ratings=MemoryRatings(tables),
        listen=None,
        ready=lambda timeout: True,
        close=lambda: None,
    )

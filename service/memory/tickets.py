"""Stream tickets' single use, in memory (``service.auth.TicketUses``), as
``service.postgres.tickets`` records them in the database."""

from __future__ import annotations

from datetime import UTC, datetime

from service.memory.tables import Tables


class MemoryTicketUses:
    def __init__(self, tables: Tables):
        self.tables = tables

    def use_once(self, mac: str, expires: int) -> bool:
        """Record the use of a ticket: True the first time, False ever after
        (and for a ticket the tables' clock says has expired). Uses of
        expired tickets are swept on the way."""
        t = self.tables
        until = datetime.fromtimestamp(expires, UTC)
        with t.lock:
            now = t.now()
            for gone in [m for m, at in t.ticket_uses.items() if at <= now]:
                del t.ticket_uses[gone]
            if until <= now or mac in t.ticket_uses:
                return False
            t.ticket_uses[mac] = until
            return True

"""A page of a listing (the operator's games, the lobby, a player's games):
read where ``service.replicas`` routes it, newest first, with the cursor of
the next page and the ``Consistency-Token`` of what it showed."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from service.readmodel import Cursor, Row
from service.replicas import Seen, Source
from service.web.current import services
from service.web.requests import seen, token

#: Reads a page of rows from a source, and the cursor of the next page.
PageRead = Callable[[Source], tuple[list[Row], Cursor | None]]


def routed_page(read: PageRead, item: Callable[[Row], dict[str, Any]],
                client_seen: Seen | None = None) -> tuple[dict[str, Any], int, dict[str, str]]:
    """The answer: ``{"games": [item(row), ...], "next"}``, its status and
    its headers; ``client_seen`` when the caller has read ``seen()`` already."""
    found = services().reads.routed(read, client_seen or seen())
    rows, following = found.value
    return ({"games": [item(row) for row in rows], "next": following.code if following else None},
            200, token(found.position))

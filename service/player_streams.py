"""``GET /v1/players/me/stream``'s text: what a player is told across all
their games, as Server-Sent Events (``service.notices``: ``your_turn``,
``game_started``, ``game_over``).

On connecting, the stream first sends ``your_turn`` for every game that
waits for the player now, from the read model (``Players.turns``); then
whatever the appends to the player's games tell the player, as the
process's players' notices hand it on (``service.player_notices``: this
process's appends at once, other processes' from their sealed
notifications). The stream heeds them before it reads, so an append in
between is not missed, and what it found so when it began is not sent
again when the append's notice comes. While nothing is listening (the
connection is being made again), the stream reads the player's turns
every ``poll`` seconds instead. A stream costs what a game's stream costs:
a greenlet waiting on an event, and a bounded buffer; no thread, no
connection.

Nothing is kept for a player who is not connected: a stream that ends (its
time is up, or its reader fell behind its buffer) is opened again by the
client, which gets ``your_turn`` again for every game that waits for the
player, and reads ``/v1/players/me/games`` for whatever else changed meanwhile.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Generator, Sequence
from typing import Any
from uuid import UUID

from domain.clocks import rfc3339

from service import jsonio, notices
from service.streams import KEEPALIVE, Hub, Timing, waiting


def frame(notice: notices.Notice) -> str:
    """One notice as an SSE message: ``event`` its kind, ``data`` the rest."""
    data = {key: value for key, value in notice.items() if key != "event"}
    return f"event: {notice['event']}\ndata: {jsonio.dumps(data).decode()}\n\n"


def events(hub: Hub, player_id: UUID, turns: Callable[[], Sequence[notices.Notice]], timing: Timing,
           clock: Callable[[], float] = time.monotonic) -> Generator[str, None, None]:
    """The stream's text until its time is up: ``your_turn`` for each game
    that waits for the player now (``turns()``), then what the player is told."""
    deadline = clock() + timing.seconds
    players = hub.players
    heeding = players.heed(player_id)  # before reading, so no append slips between

    def news() -> str:
        return "".join(frame(n) for n in players.already_told(heeding, list(turns())))

    def take(timeout: float) -> str:
        return "".join(frame(n) for n in players.hear(heeding, timeout))  # one write for all of it

    try:
        yield news() or KEEPALIVE
        yield from waiting(hub.listener, timing, deadline, lambda: heeding.dropped, take, news, clock)
    finally:
        players.unheed(heeding)


def turn_of(row: dict[str, Any]) -> notices.Notice:
    """The ``your_turn`` of a game that waits for the player's seat, from its read-model row."""
    deadline = row["deadline"]
    return {"event": "your_turn", "game": str(row["id"]), "version": row["version"],
            "deadline": rfc3339(deadline) if deadline is not None else None}

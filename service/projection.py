"""The ``games`` read model: what its row for a game holds, from the game alone.

The service writes a row with each append (``row_changes``); ``casino
rebuild-projections`` and ``verify`` compute the whole row from the stored
events (``expected_row``). Both come from the same functions here, so a
rebuilt row equals the one the service kept. The row's times are those of
the events: the service stamps them with the append's transaction time
(``service.events.NOW``), which is also its events' ``recorded_at``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from domain.game_types import State, game_of
from domain.standing import WAITING

from service.events import NOW, Recorded


def row_changes(state: State, *, created: bool) -> dict[str, Any]:
    """The columns an append that leaves the game at ``state`` writes
    (``created_at`` and ``updated_at`` are the store's)."""
    summary = game_of(state.variant).summary(state)
    row: dict[str, Any] = {"status": summary.status, "version": state.version}
    if created:
        row |= {"variant": summary.variant}
    if created or summary.status == WAITING:  # players join and leave until the first deal
        row |= {"player_names": list(summary.player_names)}
    if summary.finished:
        row |= {"finished_at": NOW, "winner": summary.winner}
    return row


def expected_row(events: Sequence[Recorded], state: State) -> dict[str, Any]:
    """The whole row (but ``id``) for a game whose stored ``events`` fold to ``state``.
    ``winner`` is the game's own account of its result (``GameType.summary``)."""
    summary = game_of(state.variant).summary(state)
    return {
        "variant": summary.variant,
        "status": summary.status,
        "player_names": list(summary.player_names),
        "version": state.version,
        "created_at": events[0].recorded_at,
        "updated_at": events[-1].recorded_at,
        "finished_at": events[-1].recorded_at if summary.finished else None,
        "winner": summary.winner,
    }

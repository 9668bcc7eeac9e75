"""The ``games`` read model: what its row for a game holds, from the game alone.

The service writes a row with each append (``row_changes``); ``casino
rebuild-projections`` and ``verify`` compute the whole row from the stored
events (``expected_row``). Both come from the same functions here, so a
rebuilt row equals the one the service kept. The row's times are those of
the events: the service stamps them with the append's transaction time
(``store.NOW``), which is also its events' ``recorded_at``.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from domain import Event, GameState, evolve, fold, from_json
from domain.games import State, game_of

from service.store import NOW, StoredEvent


class Unfoldable(ValueError):
    """Stored events that do not fold into a game: ``version`` is the first that does not apply."""

    def __init__(self, version: int, event_type: str, cause: Exception):
        super().__init__(f"Version {version} ({event_type}) does not fit the game before it"
                         f" ({type(cause).__name__}: {cause}).")
        self.version = version


def decode(stored: StoredEvent) -> Event:
    """A stored event as the domain's event (upcast to the current schema)."""
    return from_json({"type": stored.type, "schema_version": stored.schema_version, "data": stored.data})


def refold(events: Iterable[StoredEvent], state: GameState | None = None) -> GameState | None:
    """The state after the stored ``events``; None when there are none and no state."""
    decoded = (decode(e) for e in events)
    if state is None:
        first = next(decoded, None)
        if first is None:
            return None
        state = evolve(None, first)
    return fold(decoded, state)


def refold_checked(events: Iterable[StoredEvent], state: GameState | None = None) -> GameState | None:
    """``refold`` for events that may have been altered: raises ``Unfoldable``."""
    for event in events:
        try:
            state = evolve(state, decode(event))
        # Altered data can fail anywhere in decoding or applying an event;
        # whatever it raises, the history does not hold together there.
        except Exception as error:
            raise Unfoldable(event.version, event.type, error) from error
    return state


def row_changes(state: State, *, created: bool) -> dict[str, Any]:
    """The columns an append that leaves the game at ``state`` writes
    (``created_at`` and ``updated_at`` are the store's)."""
    summary = game_of(state.variant).summary(state)
    row: dict[str, Any] = {"status": summary.status, "version": state.version}
    if created:
        row |= {"variant": summary.variant, "player_names": list(summary.player_names)}
    if summary.finished:
        row |= {"finished_at": NOW, "winner": summary.winner}
    return row


def expected_row(events: Sequence[StoredEvent], state: State) -> dict[str, Any]:
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

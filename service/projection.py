"""The read model: what its rows for a game hold, from the game alone.

A game's ``games`` row, and the seats players hold in it
(``player_seats``). The service writes them with each append
(``row_changes``, ``seat_changes``); ``casino rebuild-projections`` and
``verify`` compute them whole from the stored events (``expected_row``).
Both come from the same functions here, so a rebuilt row equals the one
the service kept. The row's times are those of the events: the service
stamps them with the append's transaction time (``service.events.NOW``),
which is also its events' ``recorded_at``.

Seats change hands only while a game waits for its players (a join, a
leave), so what depends on them (the names, the lobby's entry, the seats
players hold) is written only by appends to a waiting game; and what a
player's list of games shows of whose turn it is (``awaiting``,
``deadline``) only for a game a player holds a seat in. The appends of
every other game write nothing of it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any
from uuid import UUID

from domain.game_types import AnyGameType, State, game_of
from domain.seating import Holder
from domain.standing import WAITING, Awaited

from service.events import Recorded
from service.writes import NOW

#: The key of a game's first event's metadata saying it was created to be
#: listed in the lobby (``"listed": true``), as ``computer_seats`` names its computers.
LISTED = "listed"
#: The key of ``expected_row`` (and of the row ``ReadModel.evidence`` reads) that holds the seats
#: players hold, beside the columns: each player's id (as text) and seat.
PLAYER_SEATS = "player_seats"


def row_changes(after: State, before: State | None = None, *, listed: bool = False) -> dict[str, Any]:
    """The columns of the ``games`` row an append that takes the game from
    ``before`` (None: a new game, created ``listed`` or not) to ``after``
    writes (``created_at`` and ``updated_at`` are the store's). A ``lobby``
    written later is kept only if the game was created listed (the store's)."""
    game = game_of(after.variant)
    summary = game.summary(after)
    row: dict[str, Any] = {"status": summary.status, "version": after.version}
    waiting = before is None or before.status == WAITING
    if before is None:
        row |= {"variant": summary.variant}
        if listed:
            row |= {"listed": True}
    if waiting:
        row |= {"player_names": list(summary.player_names)}
        if before is not None or listed:
            row |= {"lobby": lobby_entry(game, after)}
    if summary.finished:
        row |= {"finished_at": NOW, "winner": summary.winner}
    if (waiting and before is not None) or _held_by_players(game, after):  # a player may have left
        row |= turn_columns(game, after)
    return row


def seat_changes(before: State, after: State) -> dict[int, Holder | None]:
    """The seats whose holder the append changed, each with its new holder (None: open)."""
    if before.status != WAITING:
        return {}
    game = game_of(after.variant)
    was, now = game.seat_holders(before), game.seat_holders(after)
    return {seat: holder for seat, (old, holder) in enumerate(zip(was, now, strict=True)) if old != holder}


def player_seat_changes(before: State, changed: Mapping[int, Holder | None]) -> dict[UUID, int | None]:
    """What the seats that changed hands (``seat_changes``) change in
    ``player_seats``: the seat each player now holds, None for a player
    who holds none any more."""
    was = game_of(before.variant).seat_holders(before)
    gone: dict[UUID, int | None] = {UUID(old.player): None for seat in changed
                                    if (old := was[seat]) is not None and old.player is not None}
    return gone | {UUID(holder.player): seat for seat, holder in changed.items()
                   if holder is not None and holder.player is not None}


def lobby_entry(game: AnyGameType, state: State) -> dict[str, Any] | None:
    """What the lobby shows of a game that waits with a seat open: its
    seats (taken, with a name, or open) and its clock; None for any other."""
    if state.status != WAITING:
        return None
    holders = game.seat_holders(state)
    if all(holder is not None for holder in holders):
        return None
    clock = state.clock
    return {"seats": [{"seat": seat, "name": holder.name if holder else None, "open": holder is None}
                      for seat, holder in enumerate(holders)],
            "clock": clock.rule.to_dict() if clock is not None else None}


def turn_columns(game: AnyGameType, state: State) -> dict[str, Any]:
    """``awaiting`` (the seats whose play, deal or answer the game waits
    for) and ``deadline`` (when the running clock's time is up), for a game
    a player holds a seat in; both null for any other."""
    if not _held_by_players(game, state):
        return {"awaiting": None, "deadline": None}
    return {"awaiting": sorted(awaited_seats(game, state)), "deadline": game.deadline(state)}


def awaited_seats(game: AnyGameType, state: State) -> frozenset[int]:
    """The seats whose play, deal or answer the game waits for (not the open
    seats it waits to be joined): whose turn it is, to a player."""
    awaiting = game.awaiting(state)
    return frozenset(awaiting.seats) if awaiting is not None and awaiting.command is not Awaited.JOIN else frozenset()


def held_seats(game: AnyGameType, state: State) -> dict[str, int]:
    """The seats players hold: player (its id as text) to seat."""
    return {str(UUID(holder.player)): seat for seat, holder in enumerate(game.seat_holders(state))
            if holder is not None and holder.player is not None}


def _held_by_players(game: AnyGameType, state: State) -> bool:
    return any(holder is not None and holder.player is not None for holder in game.seat_holders(state))


def expected_row(events: Sequence[Recorded], state: State) -> dict[str, Any]:
    """The whole row (but ``id``) for a game whose stored ``events`` fold to
    ``state``, and the seats players hold in it (``PLAYER_SEATS``).
    ``winner`` is the game's own account of its result (``GameType.summary``)."""
    game = game_of(state.variant)
    summary = game.summary(state)
    listed = bool(events[0].metadata.get(LISTED))
    return {
        "variant": summary.variant,
        "status": summary.status,
        "player_names": list(summary.player_names),
        "version": state.version,
        "created_at": events[0].recorded_at,
        "updated_at": events[-1].recorded_at,
        "finished_at": events[-1].recorded_at if summary.finished else None,
        "winner": summary.winner,
        "listed": listed,
        "lobby": lobby_entry(game, state) if listed else None,
        **turn_columns(game, state),
        PLAYER_SEATS: held_seats(game, state),
    }


def split_row(row: Mapping[str, Any]) -> tuple[dict[str, Any], dict[UUID, int]]:
    """An ``expected_row`` as the ``games`` columns, and the seats players hold."""
    columns = {name: value for name, value in row.items() if name != PLAYER_SEATS}
    return columns, {UUID(player): seat for player, seat in (row.get(PLAYER_SEATS) or {}).items()}

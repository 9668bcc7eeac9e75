"""Event logs: one game's (``/v1/games/{id}/events``), as the caller may see
it, and every game's in one global order (``/v1/events``), for consumers
that catch up from where they stopped (``service.postgres.store`` says why
that order has no gap a reader could miss)."""

from __future__ import annotations

import uuid
from typing import NamedTuple

from flask import Blueprint, Response, request

from service.auth import OPERATOR, Caller, CallerKind
from service.events import Cursor, SeveralOrigins, StoredEvent
from service.games import CorruptGame
from service.replicas import Seen, Source
from service.views import event_json, log_revealed
from service.web.current import services
from service.web.guards import any_caller, operator_required
from service.web.requests import int_arg, malformed, not_modified, seen, shown, token

bp = Blueprint("events", __name__)

MAX_PAGE = 500
#: Positions stay below this, the largest integer a JavaScript client reads exactly.
MAX_POSITION = 2**53 - 1


@bp.get("/v1/games/<uuid:game_id>/events")
@any_caller
def game_log(game_id: uuid.UUID, caller: Caller):
    """Events after version ``after`` (a cursor), at most ``limit`` of them.
    A spectator's page may come from a replica, never from a game older
    than the version the client names."""
    after = int_arg("after", 0, 0, 10**9)
    limit = int_arg("limit", 100, 1, MAX_PAGE)
    found = services().reads.routed(lambda source: _page(source, game_id, caller, after, limit), seen(),
                                    version=lambda page: page.version, replica=caller.kind is CallerKind.PUBLIC)
    page = found.value
    headers = shown(page.version, found.position)
    if not_modified(page.version):
        return Response(status=304, headers=headers)
    last = page.events[-1].version if page.events else after
    return ({"events": [event_json(e, caller, page.reveal) for e in page.events],
             "next": last if last < page.version else None,
             "version": page.version}, 200, headers)


class _Page(NamedTuple):
    events: list[StoredEvent]
    version: int  # the game's
    reveal: bool  # whether its whole log is public


def _page(source: Source, game_id: uuid.UUID, caller: Caller, after: int, limit: int) -> _Page:
    """The page, and the game it is of, read from ``source``."""
    try:
        state = source.games.load(game_id)
        version, reveal = state.version, log_revealed(state)
    except CorruptGame as damaged:
        # The stored log is all the operator has to look into the damage.
        if not caller.is_operator:
            raise
        version, reveal = damaged.last_version, True
    return _Page(source.games.events(game_id, after, after + limit), version, reveal)


@bp.get("/v1/events")
@operator_required("read every game's events")
def global_log(caller: Caller):
    """Events after position ``after``, or after ``cursor``; ``next`` is where
    to read on from, even when the page is empty (new events will come
    after it), and ``cursor`` too, for every origin (``service.events.Cursor``:
    on a cluster appended to through several nodes, ``after`` alone cannot
    say where a reader stands, so a page that would give events of another
    node's order than its position's is refused, 400). A page may come from
    a replica that has everything up to ``after``."""
    after = int_arg("after", 0, 0, MAX_POSITION)
    given = _cursor_arg()
    cursor = given or Cursor.at(after)
    limit = int_arg("limit", 100, 1, MAX_PAGE)
    asked, furthest = seen(), max(cursor.positions, default=0)
    try:
        found = services().reads.routed(lambda source: source.games.log(given or after, limit),
                                        Seen(asked.version, max(asked.position, furthest)))
    except SeveralOrigins:
        raise malformed("after", "One position cannot say where a reader stands in this log: send 'cursor'.",
                        "This log is numbered by each node of the cluster that appends to it, and a position"
                        " names a place in one node's order only, so 'after' cannot say which events of the"
                        " others you have read. Page with 'cursor' instead, as each page gives it.") from None
    page = found.value
    return ({"events": [{"game_id": str(e.game_id), **event_json(e, OPERATOR)} for e in page],
             "next": page[-1].position if page else furthest, "cursor": cursor.past(page).code},
            200, token(found.position))


def _cursor_arg() -> Cursor | None:
    raw = request.args.get("cursor")
    if raw is None:
        return None
    try:
        return Cursor.parse(raw)
    except ValueError:
        raise malformed("cursor", "Expected a cursor, as a page's 'cursor' gave it.",
                        "'cursor' is what a page of this log gave as its 'cursor'.") from None

"""Event logs: one game's (``/v1/games/{id}/events``), as the caller may see
it, and every game's in one global order (``/v1/events``), for consumers
that catch up from where they stopped (``service.postgres.store`` says why
that order has no gap a reader could miss)."""

from __future__ import annotations

import uuid

from flask import Blueprint

from service.auth import OPERATOR, Caller
from service.games import CorruptGame
from service.views import event_json, log_revealed
from service.web.current import services
from service.web.guards import any_caller, operator_required
from service.web.requests import etag, int_arg

bp = Blueprint("events", __name__)

MAX_PAGE = 500
#: Positions stay below this, the largest integer a JavaScript client reads exactly.
MAX_POSITION = 2**53 - 1


@bp.get("/v1/games/<uuid:game_id>/events")
@any_caller
def game_log(game_id: uuid.UUID, caller: Caller):
    """Events after version ``after`` (a cursor), at most ``limit`` of them."""
    after = int_arg("after", 0, 0, 10**9)
    limit = int_arg("limit", 100, 1, MAX_PAGE)
    games = services().games
    try:
        state = games.load(game_id)
        version, reveal = state.version, log_revealed(state)
    except CorruptGame as damaged:
        # The stored log is all the operator has to look into the damage.
        if not caller.is_operator:
            raise
        version, reveal = damaged.last_version, True
    page = games.events(game_id, after, after + limit)
    last = page[-1].version if page else after
    return ({"events": [event_json(e, caller, reveal) for e in page],
             "next": last if last < version else None,
             "version": version}, 200, etag(version))


@bp.get("/v1/events")
@operator_required("read every game's events")
def global_log(caller: Caller):
    """Events after position ``after``; ``next`` is where to read on from,
    even when the page is empty (new events will come after it)."""
    after = int_arg("after", 0, 0, MAX_POSITION)
    limit = int_arg("limit", 100, 1, MAX_PAGE)
    page = services().games.log(after, limit)
    return {"events": [{"game_id": str(e.game_id), **event_json(e, OPERATOR)} for e in page],
            "next": page[-1].position if page else after}

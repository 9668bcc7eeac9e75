"""``/v1/games/{id}/events``: a game's event log, as the caller may see it."""

from __future__ import annotations

from flask import Blueprint

from service.api.helpers import caller_for, etag, games, int_arg
from service.games import CorruptGame, event_json, log_revealed

bp = Blueprint("events", __name__, url_prefix="/v1/games/<uuid:game_id>")

MAX_PAGE = 500


@bp.get("/events")
def log(game_id):
    """Events after version ``after`` (a cursor), at most ``limit`` of them."""
    caller = caller_for(game_id)
    after = int_arg("after", 0, 0, 10**9)
    limit = int_arg("limit", 100, 1, MAX_PAGE)
    try:
        state = games().load(game_id)
        version, reveal = state.version, log_revealed(state)
    except CorruptGame as damaged:
        # The stored log is all the operator has to look into the damage.
        if not caller.is_operator:
            raise
        version, reveal = damaged.last_version, True
    page = games().store.load(game_id, after)[:limit]
    last = page[-1].version if page else after
    return ({"events": [event_json(e, caller, reveal) for e in page],
             "next": last if last < version else None,
             "version": version}, 200, etag(version))

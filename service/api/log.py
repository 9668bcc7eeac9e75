"""``/v1/events``: every game's events in one global order, for consumers
that catch up from where they stopped (see ``service.store`` on why the
order has no gaps a reader could miss)."""

from __future__ import annotations

from flask import Blueprint

from service.api.helpers import games, int_arg, require_operator
from service.caller import OPERATOR
from service.games import event_json

bp = Blueprint("log", __name__, url_prefix="/v1/events")

MAX_PAGE = 500
#: Positions stay below this, the largest integer a JavaScript client reads exactly.
MAX_POSITION = 2**53 - 1


@bp.get("")
def index():
    """Events after position ``after``; ``next`` is where to read on from,
    even when the page is empty (new events will come after it)."""
    require_operator(None, "read every game's events")
    after = int_arg("after", 0, 0, MAX_POSITION)
    limit = int_arg("limit", 100, 1, MAX_PAGE)
    page = games().store.read_all(after, limit)
    return {"events": [{"game_id": str(e.game_id), **event_json(e, OPERATOR)} for e in page],
            "next": page[-1].position if page else after}

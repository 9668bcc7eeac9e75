"""``GET /v1/games``: the operator's list of games, filtered, newest first,
paged by a cursor on ``(created_at, id)`` rather than an offset (a page
stays right while games are created, and costs the same however deep).

Each game is listed with its game type, and its ``outcome`` is the game's
account of its result (``GameType.summary``'s ``winner``: ``winners`` and
``result`` in every game type, and the game's deprecated former fields), as
the read model keeps it: the service reads no game's result itself. A page may come
from a replica (``service.replicas``)."""

from __future__ import annotations

from typing import Any

from flask import Blueprint, url_for

from domain.game_types import game_of

from service.auth import Caller
from service.readmodel import STATUSES, GameFilter
from service.web.guards import operator_required
from service.web.paging import routed_page
from service.web.requests import page_args, text_args, time_arg

bp = Blueprint("listing", __name__, url_prefix="/v1/games")

_MAX_TEXT = 40  # the longest variant or seat name


@bp.get("")
@operator_required("list games")
def index(caller: Caller):
    where = GameFilter(
        statuses=text_args("status", _MAX_TEXT, allowed=STATUSES),
        variants=text_args("variant", _MAX_TEXT),
        players=text_args("player", _MAX_TEXT),
        created_since=time_arg("created_since"),
        created_before=time_arg("created_before"),
        finished_since=time_arg("finished_since"),
        finished_before=time_arg("finished_before"),
    )
    cursor, limit = page_args()
    return routed_page(lambda source: source.read_model.page(where, cursor, limit), _summary)


def _summary(row: dict[str, Any]) -> dict[str, Any]:
    return {
        "id": str(row["id"]),
        "url": url_for("games.show", game_id=row["id"]),
        "game_type": game_of(row["variant"]).GAME_TYPE,
        "variant": row["variant"],
        "status": row["status"],
        "players": row["player_names"],
        "version": row["version"],
        "created_at": row["created_at"].isoformat(),
        "updated_at": row["updated_at"].isoformat(),
        "finished_at": row["finished_at"].isoformat() if row["finished_at"] else None,
        "outcome": row["winner"],
    }

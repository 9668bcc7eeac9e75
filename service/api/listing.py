"""``GET /v1/games``: the operator's list of games, filtered, newest first,
paged by a cursor on ``(created_at, id)`` rather than an offset (a page
stays right while games are created, and costs the same however deep)."""

from __future__ import annotations

from datetime import datetime

from flask import Blueprint, request, url_for

from service.api.helpers import int_arg, read_model, require_operator
from service.problems import ApiProblem
from service.readmodel import Cursor, GameFilter

bp = Blueprint("listing", __name__, url_prefix="/v1/games")

STATUSES = ("waiting", "in_progress", "hand_over", "finished")
#: The query parameters that may be given more than once (each value counts).
REPEATABLE = frozenset({"status", "variant", "player"})
MAX_PAGE = 200
_MAX_TEXT = 40  # the longest variant or seat name


@bp.get("")
def index():
    require_operator(None, "list games")
    where = GameFilter(
        statuses=_texts("status", allowed=STATUSES),
        variants=_texts("variant"),
        players=_texts("player"),
        created_since=_time("created_since"),
        created_before=_time("created_before"),
        finished_since=_time("finished_since"),
        finished_before=_time("finished_before"),
    )
    limit = int_arg("limit", 50, 1, MAX_PAGE)
    rows, following = read_model().list(where, _cursor(), limit)
    return {"games": [_summary(row) for row in rows],
            "next": following.code if following else None}


def _summary(row) -> dict:
    winner = row["winner"]
    return {
        "id": str(row["id"]),
        "url": url_for("games.show", game_id=row["id"]),
        "variant": row["variant"],
        "status": row["status"],
        "players": row["player_names"],
        "version": row["version"],
        "created_at": row["created_at"].isoformat(),
        "updated_at": row["updated_at"].isoformat(),
        "finished_at": row["finished_at"].isoformat() if row["finished_at"] else None,
        "winner": winner["team"] if winner else None,
        "result": winner["reason"] if winner else None,
    }


def _malformed(name: str, message: str) -> ApiProblem:
    return ApiProblem(400, "malformed", f"'{name}': {message}", errors=[{"field": name, "message": message}])


def _texts(name: str, allowed: tuple[str, ...] | None = None) -> tuple[str, ...]:
    values = tuple(request.args.getlist(name))
    for value in values:
        if allowed is not None and value not in allowed:
            raise _malformed(name, f"Expected one of {', '.join(allowed)}.")
        if not 1 <= len(value) <= _MAX_TEXT or not value.isprintable():
            raise _malformed(name, f"Expected 1 to {_MAX_TEXT} printable characters.")
    return values


def _time(name: str) -> datetime | None:
    raw = request.args.get(name)
    if raw is None:
        return None
    try:
        when = datetime.fromisoformat(raw)
    except ValueError:
        when = None
    if when is None or when.tzinfo is None:
        raise _malformed(name, "Expected a date and time with its offset, like 2025-11-22T18:00:00Z"
                               " (in a URL, write + as %2B).")
    return when


def _cursor() -> Cursor | None:
    raw = request.args.get("cursor")
    if raw is None:
        return None
    try:
        return Cursor.parse(raw)
    except ValueError:
        raise _malformed("cursor", "Not a cursor this service gave out: pass a page's 'next' as it is.") from None

"""``GET /v1/lobby``: the games that wait for players and were created to
be listed, newest first, paged by a cursor as the other listings are; from
a replica when one has caught up with what the client has seen.

It reads the read model's ``lobby`` entries, which the appends keep
(``service.projection.lobby_entry``): a game is in the lobby while it
waits with a seat open, if it was created ``listed``; a private game
(``"listed": false``) is joined by its id and never listed. Each seat a
registered player holds shows the player's rating in the game's variant,
read with the page (``service.readmodel.SEAT_RATINGS``).
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, url_for

from domain.game_types import GAME_TYPES, game_of

from service.readmodel import seat_rating
from service.web.paging import routed_page
from service.web.requests import page_args, seen, text_args

bp = Blueprint("lobby", __name__, url_prefix="/v1/lobby")

_MAX_TEXT = 40  # the longest variant


@bp.get("")
def index():
    """Anyone may look; each game with its seats (taken or open) and its clock."""
    variants = text_args("variant", _MAX_TEXT)
    game_types = text_args("game_type", max(map(len, GAME_TYPES)), allowed=tuple(GAME_TYPES))
    cursor, limit = page_args()
    client_seen = seen()  # a bad Consistency-Token is malformed even when no game could match
    if game_types:
        of_types = [v for t in game_types for v in GAME_TYPES[t].VARIANTS]
        variants = tuple(v for v in variants if v in of_types) if variants else tuple(of_types)
        if not variants:  # none of the variants asked for is of the game types asked for
            return {"games": [], "next": None}
    return routed_page(lambda source: source.read_model.lobby(variants, cursor, limit), _entry, client_seen)


def _entry(row: dict[str, Any]) -> dict[str, Any]:
    lobby = row["lobby"]
    return {
        "id": str(row["id"]),
        "url": url_for("games.show", game_id=row["id"]),
        "game_type": game_of(row["variant"]).GAME_TYPE,
        "variant": row["variant"],
        "seats": [{**seat, "rating": seat_rating(row, seat["seat"])} for seat in lobby["seats"]],
        "clock": lobby["clock"],
        "created_at": row["created_at"].isoformat(),
    }

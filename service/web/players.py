"""``/v1/players``: register a player, and a player's own games.

A player token is shown once, in the answer to the registration; the
player then sends it as any bearer token. ``/v1/players/me/...`` answers
for the player whose token it is.
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, g, url_for

from domain.clocks import rfc3339

from service.auth import Caller
from service.commands import RegisterPlayer
from service.readmodel import STATUSES
from service.web.current import services
from service.web.guards import player_required
from service.web.requests import body, creation_key, page_args, text_args
from service.web.schemas import PlayerSchema

bp = Blueprint("players", __name__, url_prefix="/v1/players")


@bp.post("")
def register():
    """Anyone may register; the player's token is in this answer only."""
    registered = services().players.register(RegisterPlayer(
        player_name=body(PlayerSchema)["name"], idempotency_key=creation_key(), request_id=g.get("request_id")))
    player = registered.player
    return {"id": str(player.id), "name": player.name, "token": registered.token}, 201


@bp.get("/me/games")
@player_required("list your games")
def my_games(caller: Caller):
    """The player's games, newest first, paged by a cursor as the operator's list is."""
    statuses = text_args("status", max(map(len, STATUSES)), allowed=STATUSES)
    cursor, limit = page_args()
    rows, following = services().players.games(caller.own_player, statuses, cursor, limit)
    return {"games": [_mine(row) for row in rows], "next": following.code if following else None}


def _mine(row: dict[str, Any]) -> dict[str, Any]:
    return {
        "id": str(row["id"]),
        "url": url_for("games.show", game_id=row["id"]),
        "variant": row["variant"],
        "status": row["status"],
        "seat": row["seat"],
        "version": row["version"],
        "your_turn": row["seat"] in (row["awaiting"] or ()),
        "deadline": rfc3339(row["deadline"]) if row["deadline"] is not None else None,
    }

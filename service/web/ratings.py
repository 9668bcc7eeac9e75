"""A player's page and the leaderboard (``service.ratings``): anyone may
read them, by a player's id and by variant. Neither shows anything of a
game but how it ended: its id, variant, the player's seat, its winners and
result, which the game's public view shows too."""

from __future__ import annotations

import uuid
from typing import Any

from flask import Blueprint, url_for

from domain.game_types import GAME_TYPES
from domain.standing import FINISHED

from service.readmodel import Row, outcome_of
from service.web.current import services
from service.web.problems import ApiProblem
from service.web.requests import MAX_PAGE, int_arg, malformed, page_args, parsed_arg, text_args

bp = Blueprint("ratings", __name__)

#: Every variant, in the order the variants list shows them.
VARIANTS = tuple(v for game in GAME_TYPES.values() for v in game.VARIANTS)


@bp.get("/v1/players/<uuid:player_id>")
def profile(player_id: uuid.UUID):
    """A player's name, ratings, and finished games, newest first, paged by a cursor."""
    found = services()
    player = found.players.find(player_id)
    if player is None:
        raise ApiProblem(404, "not_found", "There is no player with this id.")
    cursor, limit = page_args()
    rows, following = found.read_model.player_games(player_id, (FINISHED,), cursor, limit)
    return {"id": str(player.id), "name": player.name, "ratings": found.adapters.ratings.player_ratings(player_id),
            "games": [_finished(row) for row in rows], "next": following.code if following else None}


def _finished(row: Row) -> dict[str, Any]:
    return {"id": str(row["id"]), "url": url_for("games.show", game_id=row["id"]), "variant": row["variant"],
            "seat": row["seat"], "outcome": outcome_of(row["winner"])}


@bp.get("/v1/leaderboard")
def leaderboard():
    """The players of a variant by rating, highest first, non-provisional only; paged by place."""
    variants = text_args("variant", max(map(len, VARIANTS)), allowed=VARIANTS)
    if len(variants) != 1:
        raise malformed("variant", "Name one variant.", "'variant': Name one variant, such as ?variant=cassino.")
    after = parsed_arg("cursor", _place, "Not a cursor this service gave out: pass a page's 'next' as it is.") or 0
    rows, following = services().adapters.ratings.leaderboard(variants[0], after, int_arg("limit", 50, 1, MAX_PAGE))
    return {"variant": variants[0], "players": rows, "next": str(following) if following is not None else None}


def _place(code: str) -> int:
    if not code.isdigit() or len(code) > 9:
        raise ValueError(code)
    return int(code)

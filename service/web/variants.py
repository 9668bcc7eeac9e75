"""``/v1/variants``: every preset of every game, with its resolved options."""

from __future__ import annotations

from flask import Blueprint

from domain.game_types import GAME_TYPES

bp = Blueprint("variants", __name__, url_prefix="/v1/variants")


@bp.get("")
def index():
    """Each preset with its game type, seat counts and options, resolved for
    its first seat count (an option may depend on it: Mass Cool Casino's money)."""
    return {"variants": [
        {"name": v.name, "game_type": game.GAME_TYPE, "description": v.description, "players": list(v.players),
         "options": game.resolve(v.name, None, v.players[0]).to_dict()}
        for game in GAME_TYPES.values() for v in game.VARIANTS.values()
    ]}

"""``/v1/variants``: every preset with its resolved options."""

from __future__ import annotations

from flask import Blueprint

from domain import VARIANTS

bp = Blueprint("variants", __name__, url_prefix="/v1/variants")


@bp.get("")
def index():
    return {"variants": [
        {"name": v.name, "description": v.description, "players": list(v.players),
         "options": v.options.to_dict()}
        for v in VARIANTS.values()
    ]}

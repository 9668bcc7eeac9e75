"""The rules of each game as a page, ``/rules/<game_type>`` (service.web.rulebook);
``?variant=NAME`` says which variant the table that links here plays."""

from __future__ import annotations

from flask import Blueprint, abort, render_template, request

from service.web.pages import HEADERS
from service.web.rulebook import playing, rendered, sections

bp = Blueprint("rules", __name__, template_folder="templates")


@bp.get("/rules/<string:game_type>")
def rules(game_type: str):
    if game_type not in sections():
        abort(404)
    page = render_template("rules.html", game_type=game_type, title=sections()[game_type].title,
                           games=[(name, s.title) for name, s in sections().items()],
                           variant=playing(game_type, request.args.get("variant")), body=rendered(game_type))
    return page, 200, {**HEADERS, "Content-Type": "text/html; charset=utf-8"}

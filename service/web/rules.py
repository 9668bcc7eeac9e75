"""The rules of each game as a page, ``/rules/<game_type>`` (service.web.rulebook);
``?variant=NAME`` says which variant the table that links here plays. For
players: ``/rules/<game_type>/play``, the game and its variants, and
``/rules/<game_type>/<variant>/play``, one variant on a page of its own."""

from __future__ import annotations

from flask import Blueprint, abort, render_template, request

from service.web.pages import HEADERS
from service.web.rulebook import for_players, playing, rendered, sections, variants_of

bp = Blueprint("rules", __name__, template_folder="templates")


@bp.get("/rules/<string:game_type>")
def rules(game_type: str):
    if game_type not in sections():
        abort(404)
    page = render_template("rules.html", game_type=game_type, title=sections()[game_type].title,
                           games=[(name, s.title) for name, s in sections().items()],
                           variant=playing(game_type, request.args.get("variant")), body=rendered(game_type))
    return page, 200, {**HEADERS, "Content-Type": "text/html; charset=utf-8"}


@bp.get("/rules/<string:game_type>/play")
def how_to_play(game_type: str):
    """How to play the game, for players: the basics, then each variant in a few words (the engineering
    rulebook, every rule with its sources and tests, stays at ``/rules/<game_type>``)."""
    if game_type not in sections():
        abort(404)
    page = render_template("playing.html", game_type=game_type, title=sections()[game_type].title,
                           body=for_players(game_type), variants=variants_of(game_type))
    return page, 200, {**HEADERS, "Content-Type": "text/html; charset=utf-8"}


@bp.get("/rules/<string:game_type>/<string:variant>/play")
def how_to_play_variant(game_type: str, variant: str):
    """How to play one variant, for players: what the variant is, then the game's basics it changes."""
    if game_type not in sections():
        abort(404)
    chosen = next((v for v in variants_of(game_type) if v.anchor == variant), None)
    if chosen is None:
        abort(404)
    page = render_template("playing_variant.html", game_type=game_type, title=sections()[game_type].title,
                           body=for_players(game_type), variant=chosen)
    return page, 200, {**HEADERS, "Content-Type": "text/html; charset=utf-8"}

"""The front door: ``/``, a page that says what is here for a player (play,
watch, the rules) and for a developer (the docs, the spec, a first
request), and ``/favicon.ico``."""

from __future__ import annotations

from pathlib import Path

from flask import Blueprint, render_template, request, send_from_directory

from service.web.pages import HEADERS
from service.web.rulebook import sections, variants_of

bp = Blueprint("front", __name__, template_folder="templates")

STATIC = Path(__file__).resolve().parents[1] / "static"


@bp.get("/")
def home():
    page = render_template("home.html", origin=request.host_url.rstrip("/"),
                           rules=[(name, s.title) for name, s in sections().items()],
                           variants={name: variants_of(name) for name in sections()})
    return page, 200, {**HEADERS, "Content-Type": "text/html; charset=utf-8"}


@bp.get("/favicon.ico")
def favicon():
    return send_from_directory(STATIC, "favicon.ico", mimetype="image/vnd.microsoft.icon", max_age=86400)

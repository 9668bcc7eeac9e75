"""The web client: plain HTML, CSS and JavaScript modules under ``/play/``,
served as they lie in ``service/static/web`` (no build step).

The pages use only the public API, as any third-party client would. A
seat's token reaches them in the link's fragment (``#token=...``), which a
browser never sends to a server; the page moves it to the tab's
``sessionStorage`` for that game and sends it only as ``Authorization``.
The answers forbid loading anything from elsewhere and sending a referrer.
"""

from __future__ import annotations

from pathlib import Path

from flask import Blueprint, redirect, send_from_directory

from service.web.pages import HEADERS

bp = Blueprint("client", __name__)

ROOT = Path(__file__).resolve().parents[1] / "static" / "web"



@bp.get("/play")
def play_root():
    return redirect("/play/", 308)


@bp.get("/play/")
def lobby():
    return asset("index.html")


@bp.get("/play/<string:name>")
def asset(name):
    """One file of the client (``send_from_directory`` refuses any path
    outside the folder, and answers 404 for a file that is not there)."""
    response = send_from_directory(ROOT, name, max_age=0)
    response.headers.update(HEADERS)
    return response

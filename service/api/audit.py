"""An operator's look at one game: ``/verify`` checks its integrity, and
``/replay`` shows it as it was at any version."""

from __future__ import annotations

from flask import Blueprint

from domain.state import FINISHED
from service.api.helpers import caller_for, etag, games, int_arg, read_model, refused, require_operator
from service.caller import OPERATOR
from service.games import GameNotFound, log_revealed
from service.problems import ApiProblem
from service.projection import refold
from service.verify import Evidence, verify
from service.views import game_view

bp = Blueprint("audit", __name__, url_prefix="/v1/games/<uuid:game_id>")


@bp.get("/verify")
def verify_game(game_id):
    require_operator(game_id, "verify a game")
    events, row = read_model().evidence(game_id)
    if not events and row is None:
        raise GameNotFound(game_id)
    return verify(Evidence(game_id, events, row)).to_json()


@bp.get("/replay")
def replay(game_id):
    """The game as of ``version``: for the operator, and for everyone once
    the game is finished. Each caller sees what the event log shows them:
    every hand and the stock when the finished game's log is public
    (``public_log``), else only what they saw at the table."""
    caller = caller_for(game_id)
    version = int_arg("version", None, 1, 10**9)
    state = games().load(game_id)
    if not caller.is_operator and state.status != FINISHED:
        raise refused(caller, "replay a game before it is finished")
    if version > state.version:
        raise ApiProblem(404, "not_found", f"The game has no version {version}: it is at version "
                                           f"{state.version}.")
    then = refold(games().store.load(game_id, until_version=version))
    shown = OPERATOR if log_revealed(state) else caller
    return game_view(then, shown), 200, etag(version)

"""An operator's look at one game: ``/verify`` checks its integrity, and
``/replay`` shows it as it was at any version."""

from __future__ import annotations

import uuid

from flask import Blueprint

from domain.game_types import is_finished

from service.auth import OPERATOR, Caller, refused
from service.games import GameNotFound
from service.ops.verify import Evidence, verify
from service.replicas import NotYet, Source
from service.views import game_view, log_revealed
from service.web.current import ratings, services
from service.web.guards import any_caller, operator_required
from service.web.requests import etag, int_arg, seen, token

bp = Blueprint("audit", __name__, url_prefix="/v1/games/<uuid:game_id>")


@bp.get("/verify")
@operator_required("verify a game")
def verify_game(game_id: uuid.UUID, caller: Caller):
    found = services()
    events, row, checkpoint = found.read_model.evidence(game_id)
    if not events and row is None and checkpoint is None:
        raise GameNotFound(game_id)
    return verify(Evidence(game_id, events, row, checkpoint, found.checkpoint_key)).to_json()


@bp.get("/replay")
@any_caller
def replay(game_id: uuid.UUID, caller: Caller):
    """The game as of ``version``: for the operator, and for everyone once
    the game is finished. Each caller sees what the event log shows them:
    every hand and the stock when the finished game's log is public
    (``public_log``), else only what they saw at the table. On a damaged
    game it works for the operator up to the version before the damage.
    It may come from a replica."""
    version = int_arg("version", None, 1, 10**9)

    def replayed(source: Source) -> dict:
        shown = OPERATOR
        if not caller.is_operator:
            state = source.games.load(game_id)
            if not is_finished(state):
                if source.replica:
                    raise NotYet()  # the primary may have seen it end
                raise refused(caller, "replay a game before it is finished")
            shown = OPERATOR if log_revealed(state) else caller
        return game_view(source.games.state_at(game_id, version), shown, ratings())

    found = services().reads.routed(replayed, seen())
    return found.value, 200, {**etag(version), **token(found.position)}

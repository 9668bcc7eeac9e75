"""``/v1/games``: create a game, see one, and a seat's legal moves."""

from __future__ import annotations

import uuid

from flask import Blueprint, Response, g, url_for

from service.auth import PUBLIC, Caller, CallerKind
from service.commands import CreateGame
from domain.game_types import read_move

from service import commands
from service.views import MovesAsked, check_answer, creation_answer, game_view, moves_answer
from service.web.current import services
from service.web.guards import any_caller, seat_required
from service.web.requests import (body, creation_key, etag, json_body, moves_asked, not_modified, seen,
                                  shown)
from service.web.schemas import CreateGameSchema

bp = Blueprint("games", __name__, url_prefix="/v1/games")


@bp.post("")
def create():
    """Anyone may create a game; its seats' tokens are in this answer only."""
    data = body(CreateGameSchema)
    computers = tuple(i for i, s in enumerate(data["seats"]) if s["computer"])
    seats = tuple(s["name"] for s in data["seats"])
    listed = data["listed"] if data["listed"] is not None else None in seats
    created = services().create(CreateGame(
        variant=data["variant"], seats=seats, options=data["options"], first_dealer=data["first_dealer"],
        computers=computers, clock=data["clock"], listed=listed, idempotency_key=creation_key(),
        request_id=g.get("request_id")))
    answer = creation_answer(created, PUBLIC, computers)
    location = url_for("games.show", game_id=created.game_id)
    return answer, 201, {"Location": location, **shown(created.state.version, created.position)}


@bp.get("/<uuid:game_id>")
@any_caller
def show(game_id: uuid.UUID, caller: Caller):
    """A spectator's view may come from a replica, never older than the
    version the client names; a seat's and the operator's come from the primary."""
    found = services().reads.routed(lambda source: source.games.load(game_id), seen(),
                                    version=lambda state: state.version, replica=caller.kind is CallerKind.PUBLIC)
    headers = shown(found.value.version, found.position)
    if not_modified(found.value.version):
        return Response(status=304, headers=headers)
    return game_view(found.value, caller), 200, headers


@bp.get("/<uuid:game_id>/moves")
@seat_required("list legal moves")
def moves(game_id: uuid.UUID, caller: Caller):
    """Narrowed by ``card``, ``action`` and ``target`` (repeatable), paged by
    ``limit`` and ``cursor``; a cursor of an older version of the game is
    refused (409), as its pages would not fit together."""
    state = services().games.load(game_id)
    asked: MovesAsked = moves_asked(state.version)
    return moves_answer(state, caller, asked), 200, etag(state.version)


@bp.post("/<uuid:game_id>/moves/check")
@seat_required("check a move")
def check_move(game_id: uuid.UUID, caller: Caller):
    """A dry run of ``play``: decided as ``play`` decides it, appending nothing."""
    move = read_move(services().games.rules_of(game_id), json_body())
    state, refusal = services().games.dry_run(commands.Play(game_id=game_id, caller=caller, move=move))
    return check_answer(state, refusal), 200, etag(state.version)

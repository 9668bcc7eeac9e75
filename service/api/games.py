"""``/v1/games``: create a game, and see one."""

from __future__ import annotations

import secrets
import uuid

from flask import Blueprint, g, url_for

from domain import CreateGame, legal_moves
from service.api.helpers import body, caller_for, creation_key, etag, fresh_seed, games
from service.caller import PUBLIC
from service.games import Answer, request_hash
from service.problems import ApiProblem
from service.schemas import CreateGameSchema
from service.views import game_view

bp = Blueprint("games", __name__, url_prefix="/v1/games")


def metadata(caller, command: str) -> dict:
    return {"actor": caller.actor, "command": command, "command_id": uuid.uuid4().hex,
            "request_id": g.get("request_id")}


@bp.post("")
def create():
    data = body(CreateGameSchema)
    names = tuple(data["seats"])
    first = data["first_dealer"]
    if first is None:
        first = secrets.randbelow(len(names))
    command = CreateGame(data["variant"], names, first, data["options"], seed=fresh_seed())

    def answer(game_id, state, tokens) -> Answer:
        return Answer(201, {
            "id": str(game_id),
            "version": state.version,
            "seats": [{"seat": i, "name": s.name, "team": s.team, "token": tokens[i]}
                      for i, s in enumerate(state.seats)],
            "game": game_view(state, PUBLIC),
        })

    done = games().create(command, metadata(PUBLIC, "CreateGame"), answer,
                          idempotency_key=creation_key(), fingerprint=request_hash(PUBLIC, "CreateGame", data))
    location = url_for("games.show", game_id=done.body["id"])
    return done.body, done.status, {"Location": location, **etag(done.body["version"])}


@bp.get("/<uuid:game_id>")
def show(game_id):
    caller = caller_for(game_id)
    state = games().load(game_id)
    return game_view(state, caller), 200, etag(state.version)


@bp.get("/<uuid:game_id>/moves")
def moves(game_id):
    caller = caller_for(game_id)
    if caller.is_operator:
        raise ApiProblem(403, "forbidden", "Only a seat has legal moves; send your seat's token.")
    if not caller.is_seat:
        raise ApiProblem(401, "unauthenticated", "Send your seat's token to see your legal moves.",
                         headers={"WWW-Authenticate": 'Bearer realm="casino"'})
    state = games().load(game_id)
    listed = legal_moves(state, caller.seat).first()
    return ({"version": state.version, "seat": caller.seat,
             "moves": [m.to_dict() for m in listed.moves], "truncated": listed.truncated},
            200, etag(state.version))

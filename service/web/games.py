"""``/v1/games``: create a game, see one, and a seat's legal moves."""

from __future__ import annotations

import uuid

from flask import Blueprint, Response, g, url_for

from domain.errors import RuleViolation

from service import commands
from service.auth import PUBLIC, Caller, CallerKind, Forbidden, Unauthenticated
from service.commands import CreateGame, SeatedPlayer
from service.views import MovesAsked, check_answer, creation_answer, game_view, moves_answer
from service.web.current import ratings, services
from service.web.guards import any_caller, current_caller, seat_required
from service.web.requests import (body, creation_key, etag, json_body, moves_asked, not_modified, seen,
                                  shown)
from service.web.schemas import CreateGameSchema

bp = Blueprint("games", __name__, url_prefix="/v1/games")


@bp.post("")
def create():
    """Anyone may create a game; its seats' tokens are in this answer only. A
    player (by a player token) sits at it as themselves, in a seat ``{"me": true}``."""
    data = body(CreateGameSchema)
    computers = tuple(i for i, s in enumerate(data["seats"]) if s["computer"])
    seats = tuple(s["name"] for s in data["seats"])
    caller = current_caller(wanted="your player token to sit at the game, or no token")
    me = _creator(caller, next((i for i, s in enumerate(data["seats"]) if s["me"]), None))
    listed = data["listed"] if data["listed"] is not None else any(
        name is None and not s["me"] for name, s in zip(seats, data["seats"]))
    created = services().games.create(CreateGame(
        variant=data["variant"], seats=seats, options=data["options"], first_dealer=data["first_dealer"],
        computers=computers, clock=data["clock"], listed=listed, guests=data["guests"], rated=data["rated"], me=me,
        idempotency_key=creation_key(),
        request_id=g.get("request_id")))
    answer = creation_answer(created, PUBLIC, computers, ratings())
    location = url_for("games.show", game_id=created.game_id)
    return answer, 201, {"Location": location, **shown(created.state.version, created.position)}


def _creator(caller: Caller, seat: int | None) -> SeatedPlayer | None:
    """The player who sits at the new game in ``seat`` (a seat ``{"me": true}``),
    or None; a player token is never ignored: a creation by one without such a
    seat is refused, and such a seat needs a player token."""
    if seat is None:
        if caller.is_player:
            raise RuleViolation("player_not_seated", 'You sent your player token: give your own seat as {"me": true}'
                                " among the seats, or send no token to create a game for others.")
        return None
    if caller.is_operator:
        raise Forbidden('The operator holds no seat: a seat {"me": true} is a player\'s, sent with a player token.')
    if not caller.is_player:
        raise Unauthenticated('A seat {"me": true} is the seat of the player who creates the game:'
                              " send your player token (register at POST /v1/players first).")
    found = services().players.find(caller.own_player)
    assert found is not None  # the token named the player, and players are never removed
    return SeatedPlayer(seat, found.id, found.name)


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
    return game_view(found.value, caller, ratings()), 200, headers


@bp.get("/<uuid:game_id>/moves")
@seat_required("list legal moves")
def moves(game_id: uuid.UUID, caller: Caller):
    """Narrowed by ``card``, ``action`` and ``target`` (repeatable), paged by
    ``limit`` and ``cursor``; a cursor of an older version of the game is
    refused (409), as its pages would not fit together, and one the service
    did not give out to this seat (400: ``service.move_cursors``)."""
    state = services().games.load(game_id)
    cursors, seat = services().move_cursors, caller.own_seat
    asked: MovesAsked = moves_asked(state.version, lambda text: cursors.read(text, game_id, seat))
    answer = moves_answer(state, caller, asked, lambda cursor: cursors.issue(game_id, seat, cursor))
    return answer, 200, etag(state.version)


@bp.post("/<uuid:game_id>/moves/check")
@seat_required("check a move")
def check_move(game_id: uuid.UUID, caller: Caller):
    """A dry run of ``play``: decided as ``play`` decides it, appending nothing."""
    state, refusal = services().games.dry_run(commands.Play(game_id=game_id, caller=caller, move=json_body()))
    return check_answer(state, refusal), 200, etag(state.version)

"""Taking and leaving seats: ``/v1/games/{id}/join`` and ``/leave``.

A player joins with a player token, under the player's name (or the name
given); anyone else joins as a guest under the name they give, and gets
the seat's token in the answer, shown only there. A join under an ``Idempotency-Key`` is
retried to the same seat and the same answer: a guest's token is derived
from the key (which must then be a secret random value, as a game
creation's), so a retry makes it again rather than a second seat.
"""

from __future__ import annotations

import uuid

from flask import Blueprint, g

from service import commands
from service.auth import PUBLIC, Caller, Forbidden, Unauthenticated, player, seat
from service.views import command_answer
from service.web import allowances
from service.web.current import ratings, services
from service.web.guards import any_caller
from service.web.requests import body, guest_key, idempotency_key, if_match, shown
from service.web.schemas import EmptySchema, JoinSchema

bp = Blueprint("seats", __name__, url_prefix="/v1/games/<uuid:game_id>")


@bp.post("/join")
@any_caller
def join(game_id: uuid.UUID, caller: Caller):
    """Take an open seat: ``seat``, or the lowest open one."""
    if caller.is_operator:
        raise Forbidden("The operator does not take seats: a player or a guest does.")
    data = body(JoinSchema, optional=True)
    if caller.is_player:
        found = services().players.find(caller.own_player)
        assert found is not None, "the token named this player"
        name, key = data.get("name", found.name), idempotency_key()
    elif "name" in data:
        if not services().games.guests_welcome(game_id):
            raise Unauthenticated("Only players may join this game: send your player token (POST /v1/players"
                                  " registers you).")
        allowances.spend("guest_join")  # so many from one address: nobody fills every open seat as a guest
        name, key = data["name"], guest_key()  # a guest's token is derived from the key
    else:
        raise Unauthenticated("Send your player token to join as that player, or give the name you take the seat"
                              " under to join as a guest.")
    applied = services().games.execute(commands.Join(
        game_id=game_id, caller=caller, seat_name=name, seat=data.get("seat"), expected_version=if_match(),
        idempotency_key=key, request_id=g.get("request_id")))
    (taken, token), = applied.seated.items()
    answer = command_answer(applied, seat(taken, caller.player), ratings()) | {"seat": taken}
    if token is not None:
        answer["token"] = token
    return answer, 200, shown(applied.state.version, applied.position)


@bp.post("/leave")
@any_caller
def leave(game_id: uuid.UUID, caller: Caller):
    """The seat gets up while the game waits for its players: it is open
    again. A player who holds no seat is refused ``not_seated``, unless the
    request is the retry of a leave that was done (its first answer)."""
    if caller.is_operator:
        raise Forbidden("The operator cannot leave a seat: only the seat can.")
    if not (caller.is_seat or caller.is_player):
        raise Unauthenticated("Send your seat's token (or your player token) to leave your seat.")
    body(EmptySchema, optional=True)
    applied = services().games.execute(commands.Leave(
        game_id=game_id, caller=caller, expected_version=if_match(), idempotency_key=idempotency_key(),
        request_id=g.get("request_id")))
    return (command_answer(applied, player(caller.own_player) if caller.is_player else PUBLIC, ratings()), 200,
            shown(applied.state.version, applied.position))

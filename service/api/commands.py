"""Commands on a game: deal, play, count out.

Each answers 200 with the game's new ``version``, the events it appended as
the caller may see them, and the caller's new view.
"""

from __future__ import annotations

import secrets

from flask import Blueprint

from domain import Card, CountOut, Deal, Move, Play, full_deck
from service.api.games import metadata
from service.api.helpers import body, caller_for, etag, games, idempotency_key, if_match
from service.games import request_hash
from service.problems import ApiProblem
from service.schemas import DealSchema, EmptySchema, MoveSchema

bp = Blueprint("commands", __name__, url_prefix="/v1/games/<uuid:game_id>")


def shuffled_deck() -> tuple[Card, ...]:
    """A deck in an order drawn from the operating system's secure source."""
    deck = list(full_deck())
    secrets.SystemRandom().shuffle(deck)
    return tuple(deck)


def _run(game_id, caller, name: str, data: dict, make_command):
    answer = games().execute(
        game_id, caller, make_command,
        if_match=if_match(), idempotency_key=idempotency_key(),
        fingerprint=request_hash(caller, name, data), meta=metadata(caller, name),
    )
    return answer.body, answer.status, etag(answer.body["version"])


def _seat_required(caller, action: str):
    if caller.is_operator:
        raise ApiProblem(403, "forbidden", f"The operator may deal but cannot {action}: that is a seat's move.")
    if not caller.is_seat:
        raise ApiProblem(401, "unauthenticated", f"Send your seat's token to {action}.",
                         headers={"WWW-Authenticate": 'Bearer realm="casino"'})


@bp.post("/deal")
def deal(game_id):
    caller = caller_for(game_id)
    data = body(DealSchema(), optional=True)
    if not (caller.is_seat or caller.is_operator):
        raise ApiProblem(401, "unauthenticated", "Send the dealer's token (or the operator's) to deal.",
                         headers={"WWW-Authenticate": 'Bearer realm="casino"'})
    fixed = data["deck"] is not None
    if fixed and not caller.is_operator:
        raise ApiProblem(403, "forbidden", "Only the operator may fix the order of the deck.")
    deck = tuple(Card.parse(c) for c in data["deck"]) if fixed else None

    def command(state):
        return Deal(deck or shuffled_deck(), seat=caller.seat if caller.is_seat else None, fixed=fixed)

    return _run(game_id, caller, "Deal", data, command)


@bp.post("/play")
def play(game_id):
    caller = caller_for(game_id)
    data = body(MoveSchema())
    _seat_required(caller, "play")
    move = Move.from_dict(data)
    return _run(game_id, caller, "Play", move.to_dict(), lambda state: Play(caller.seat, move))


@bp.post("/count-out")
def count_out(game_id):
    caller = caller_for(game_id)
    data = body(EmptySchema(), optional=True)
    _seat_required(caller, "count out")
    return _run(game_id, caller, "CountOut", data, lambda state: CountOut(caller.seat))

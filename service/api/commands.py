"""Commands on a game: deal, play, count out, undo, void, client seeds.

Each answers 200 with the game's new ``version``, the events it appended as
the caller may see them, and the caller's new view. Whatever needs chance is
drawn here, from the operating system's secure source, and handed to the
domain as data: a game's first shuffle seed when it is created, and a fresh
seed with each command that may end a hand, for the next hand's commitment.
"""

from __future__ import annotations

from flask import Blueprint

from domain import AnswerUndo, Card, CountOut, Deal, Move, Play, SetClientSeed, Undo, VoidHand
from service.api.games import computers_act, metadata
from service.api.helpers import body, caller_for, etag, fresh_seed, games, idempotency_key, if_match
from service.games import request_hash
from service.problems import ApiProblem
from service.schemas import AnswerUndoSchema, ClientSeedSchema, DealSchema, EmptySchema, MoveSchema, VoidSchema

bp = Blueprint("commands", __name__, url_prefix="/v1/games/<uuid:game_id>")


def _run(game_id, caller, name: str, data: dict, make_command):
    answer = games().execute(
        game_id, caller, make_command,
        if_match=if_match(), idempotency_key=idempotency_key(),
        fingerprint=request_hash(caller, name, data), meta=metadata(caller, name),
    )
    computers_act(game_id)
    return answer.body, answer.status, etag(answer.body["version"])


def _unauthenticated(detail: str) -> ApiProblem:
    return ApiProblem(401, "unauthenticated", detail, headers={"WWW-Authenticate": 'Bearer realm="casino"'})


def _seat_required(caller, action: str):
    if caller.is_operator:
        raise ApiProblem(403, "forbidden", f"The operator cannot {action}: that is a seat's move.")
    if not caller.is_seat:
        raise _unauthenticated(f"Send your seat's token to {action}.")


def _operator_required(caller, action: str):
    if caller.is_seat:
        raise ApiProblem(403, "forbidden", f"Only the operator may {action}.")
    if not caller.is_operator:
        raise _unauthenticated("Send the operator's token.")


@bp.post("/deal")
def deal(game_id):
    caller = caller_for(game_id)
    data = body(DealSchema, optional=True)
    if not (caller.is_seat or caller.is_operator):
        raise _unauthenticated("Send the dealer's token (or the operator's) to deal.")
    if data["deck"] is not None and not caller.is_operator:
        raise ApiProblem(403, "forbidden", "Only the operator may fix the order of the deck.")
    deck = tuple(Card.parse(c) for c in data["deck"]) if data["deck"] is not None else None
    command = Deal(deck, seat=caller.seat if caller.is_seat else None)
    return _run(game_id, caller, "Deal", data, lambda state: command)


@bp.post("/play")
def play(game_id):
    caller = caller_for(game_id)
    data = body(MoveSchema)
    _seat_required(caller, "play")
    move = Move.from_dict(data)
    return _run(game_id, caller, "Play", move.to_dict(), lambda state: Play(caller.seat, move, fresh_seed()))


@bp.post("/count-out")
def count_out(game_id):
    caller = caller_for(game_id)
    data = body(EmptySchema, optional=True)
    _seat_required(caller, "count out")
    return _run(game_id, caller, "CountOut", data, lambda state: CountOut(caller.seat))


@bp.post("/undo")
def undo(game_id):
    """The seat that made the last play asks to take it back (or takes it
    back, where the game's ``undo`` is ``free``); the operator takes it back."""
    caller = caller_for(game_id)
    data = body(EmptySchema, optional=True)
    if not (caller.is_seat or caller.is_operator):
        raise _unauthenticated("Send your seat's token (or the operator's) to undo.")
    return _run(game_id, caller, "Undo", data, lambda state: Undo(caller.seat))


@bp.post("/undo/answer")
def answer_undo(game_id):
    caller = caller_for(game_id)
    data = body(AnswerUndoSchema)
    _seat_required(caller, "answer an undo request")
    return _run(game_id, caller, "AnswerUndo", data, lambda state: AnswerUndo(caller.seat, data["accept"]))


@bp.post("/void")
def void(game_id):
    caller = caller_for(game_id)
    data = body(VoidSchema)
    _operator_required(caller, "void a hand")
    return _run(game_id, caller, "VoidHand", data, lambda state: VoidHand(data["reason"], fresh_seed()))


@bp.post("/client-seed")
def client_seed(game_id):
    caller = caller_for(game_id)
    data = body(ClientSeedSchema)
    _seat_required(caller, "set a client seed")
    return _run(game_id, caller, "SetClientSeed", data, lambda state: SetClientSeed(caller.seat, data["seed"]))

"""Commands on a game: deal, play, count out, undo, void, client seeds.

Each reads its request, builds its command from the game's own rules
(``domain.game_types``: the same routes serve every game), and hands it to the
service layer; the answer is 200 with the game's new ``version``, the events
it appended as the caller may see them, and the caller's new view. Chance
comes from the service layer (``fresh_seed``), as data in the command.
"""

from __future__ import annotations

import logging
import uuid
from typing import Any

from flask import Blueprint, g

from domain.cards import Card
from domain.game_types import read_move

from service import computer
from service.auth import Caller, Forbidden, operator_required, seat_or_operator_required, seat_required
from service.games import MakeCommand, fresh_seed, request_hash
from service.views import command_answer
from service.web.app import services
from service.web.requests import body, etag, idempotency_key, if_match, json_body
from service.web.schemas import AnswerUndoSchema, ClientSeedSchema, DealSchema, EmptySchema, VoidSchema

bp = Blueprint("commands", __name__, url_prefix="/v1/games/<uuid:game_id>")
log = logging.getLogger(__name__)


def metadata(actor: str, command: str) -> dict[str, Any]:
    """What every event of a command records besides itself."""
    return {"actor": actor, "command": command, "command_id": uuid.uuid4().hex, "request_id": g.get("request_id")}


def computers_act(game_id: uuid.UUID) -> None:
    """After a command: the game's computer seats do whatever now falls to
    them. The command itself is already stored and answered as it is; a
    failure here is logged, and the computers carry on after the next one."""
    found = services()
    try:
        computer.take_turns(found.games, found.computers, game_id, metadata)
    except Exception:  # noqa: BLE001 - the caller's own command succeeded
        log.exception("computer players could not act in game %s", game_id)


def _run(game_id: uuid.UUID, caller: Caller, name: str, data: Any, make_command: MakeCommand):
    applied = services().games.execute(
        game_id, caller, make_command,
        if_match=if_match(), idempotency_key=idempotency_key(),
        fingerprint=request_hash(caller, name, data), meta=metadata(caller.actor, name),
    )
    computers_act(game_id)
    return command_answer(applied, caller), 200, etag(applied.state.version)


@bp.post("/deal")
@seat_or_operator_required("deal")
def deal(game_id: uuid.UUID, caller: Caller):
    """The dealer deals. Only the operator may fix the deck; a game whose
    deck the operator fixes commits no seed for the shuffles after it."""
    data = body(DealSchema, optional=True)
    if data["deck"] is not None and not caller.is_operator:
        raise Forbidden("Only the operator may fix the order of the deck.")
    deck = tuple(Card.parse(c) for c in data["deck"]) if data["deck"] is not None else None
    seed = fresh_seed() if deck is None else None
    return _run(game_id, caller, "Deal", data,
                lambda game, state: game.deal_command(caller.seat, deck, seed))


@bp.post("/play")
@seat_required("play")
def play(game_id: uuid.UUID, caller: Caller):
    move = read_move(services().games.rules_of(game_id), json_body())
    return _run(game_id, caller, "Play", move.to_dict(),
                lambda game, state: game.command_for(caller.own_seat, move, fresh_seed()))


@bp.post("/count-out")
@seat_required("count out")
def count_out(game_id: uuid.UUID, caller: Caller):
    data = body(EmptySchema, optional=True)
    return _run(game_id, caller, "CountOut", data, lambda game, state: game.count_out_command(caller.own_seat))


@bp.post("/undo")
@seat_or_operator_required("undo")
def undo(game_id: uuid.UUID, caller: Caller):
    """The seat that made the last move asks to take it back (or takes it
    back, where the game's ``undo`` is ``free``); the operator takes it back."""
    data = body(EmptySchema, optional=True)
    return _run(game_id, caller, "Undo", data, lambda game, state: game.undo_command(caller.seat))


@bp.post("/undo/answer")
@seat_required("answer an undo request")
def answer_undo(game_id: uuid.UUID, caller: Caller):
    data = body(AnswerUndoSchema)
    return _run(game_id, caller, "AnswerUndo", data,
                lambda game, state: game.answer_undo_command(caller.own_seat, data["accept"]))


@bp.post("/void")
@operator_required("void a hand")
def void(game_id: uuid.UUID, caller: Caller):
    data = body(VoidSchema)
    return _run(game_id, caller, "VoidHand", data,
                lambda game, state: game.void_command(data["reason"], fresh_seed()))


@bp.post("/client-seed")
@seat_required("set a client seed")
def client_seed(game_id: uuid.UUID, caller: Caller):
    data = body(ClientSeedSchema)
    return _run(game_id, caller, "SetClientSeed", data,
                lambda game, state: game.client_seed_command(caller.own_seat, data["seed"]))

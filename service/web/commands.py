"""Commands on a game: deal, play, count out, undo, void, client seeds,
resign, abort and rematch.

Each reads its request into the service's command (``service.commands``)
and hands it to the service layer; the answer is 200 with the game's new
``version``, the events it appended as the caller may see them, and the
caller's new view. The game's rules make the game's own command from it
(the same routes serve every game), and chance comes from the service
layer, as data in that command.
"""

from __future__ import annotations

import uuid

from flask import Blueprint, g

from domain.cards import Card

from service import commands, rematches
from service.auth import Caller, Forbidden
from service.views import command_answer, game_view
from service.web import allowances
from service.web.current import ratings, services
from service.web.guards import operator_required, seat_or_operator_required, seat_required
from service.web.requests import body, etag, idempotency_key, if_match, json_body, shown
from service.web.schemas import AnswerUndoSchema, ClientSeedSchema, DealSchema, EmptySchema, VoidSchema

bp = Blueprint("commands", __name__, url_prefix="/v1/games/<uuid:game_id>")


def _run(command: type[commands.GameCommand], game_id: uuid.UUID, caller: Caller, **asked):
    applied = services().games.execute(command(game_id=game_id, caller=caller, expected_version=if_match(),
                                         idempotency_key=idempotency_key(), request_id=g.get("request_id"),
                                         **asked))
    return command_answer(applied, caller, ratings()), 200, shown(applied.state.version, applied.position)


@bp.post("/deal")
@seat_or_operator_required("deal")
def deal(game_id: uuid.UUID, caller: Caller):
    """The dealer deals. Only the operator may fix the deck; a game whose
    deck the operator fixes commits no seed for the shuffles after it."""
    data = body(DealSchema, optional=True)
    if data["deck"] is not None and not caller.is_operator:
        raise Forbidden("Only the operator may fix the order of the deck.")
    deck = tuple(Card.parse(c) for c in data["deck"]) if data["deck"] is not None else None
    return _run(commands.Deal, game_id, caller, deck=deck)


@bp.post("/play")
@seat_required("play")
def play(game_id: uuid.UUID, caller: Caller):
    return _run(commands.Play, game_id, caller, move=json_body())  # read as the game's move by the command


@bp.post("/count-out")
@seat_required("count out")
def count_out(game_id: uuid.UUID, caller: Caller):
    body(EmptySchema, optional=True)
    return _run(commands.CountOut, game_id, caller)


@bp.post("/undo")
@seat_or_operator_required("undo")
def undo(game_id: uuid.UUID, caller: Caller):
    """The seat that made the last move asks to take it back (or takes it
    back, where the game's ``undo`` is ``free``); the operator takes it back."""
    body(EmptySchema, optional=True)
    return _run(commands.Undo, game_id, caller)


@bp.post("/undo/answer")
@seat_required("answer an undo request")
def answer_undo(game_id: uuid.UUID, caller: Caller):
    return _run(commands.AnswerUndo, game_id, caller, accept=body(AnswerUndoSchema)["accept"])


@bp.post("/void")
@operator_required("void a hand")
def void(game_id: uuid.UUID, caller: Caller):
    return _run(commands.VoidHand, game_id, caller, reason=body(VoidSchema)["reason"])


@bp.post("/client-seed")
@seat_required("set a client seed")
def client_seed(game_id: uuid.UUID, caller: Caller):
    return _run(commands.SetClientSeed, game_id, caller, seed=body(ClientSeedSchema)["seed"])


@bp.post("/resign")
@seat_required("resign")
def resign(game_id: uuid.UUID, caller: Caller):
    """The seat gives the game up: its side loses (docs/rules.md, "Resigning")."""
    body(EmptySchema, optional=True)
    return _run(commands.Resign, game_id, caller)


@bp.post("/rematch")
@seat_required("answer a rematch")
def rematch(game_id: uuid.UUID, caller: Caller):
    """A seat of the finished game offers a rematch, or accepts the one
    offered; once every seat has, the new game exists (``service.rematches``).
    A seat that answered before gets the game as it stands, nothing appended."""
    body(EmptySchema, optional=True)
    answered = rematches.answer(services().games, commands.AnswerRematch(
        game_id=game_id, caller=caller, new_game=uuid.uuid4(), decide_again=rematches.DECIDE_AGAIN,
        request_id=g.get("request_id")))
    if isinstance(answered, rematches.Answered):
        state = answered.state
        answer = {"version": state.version, "events": [], "game": game_view(state, caller, ratings())}
        return answer, 200, etag(state.version)
    return command_answer(answered, caller, ratings()), 200, shown(answered.state.version, answered.position)


@bp.post("/abort")
@seat_required("abort the game")
def abort(game_id: uuid.UUID, caller: Caller):
    """The seat calls the game off before the first play: nobody wins. A
    guest's seat (a seat's token, no player's) may do so only so often from
    one address (``service.web.allowances``)."""
    body(EmptySchema, optional=True)
    if caller.player is None:
        allowances.spend("guest_abort")
    return _run(commands.Abort, game_id, caller)

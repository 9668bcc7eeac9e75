"""``/v1/players``: register a player; a player's own games, and own live
stream (``service.player_streams``) with the tickets that open it from a browser.

A player token is shown once, in the answer to the registration; the
player then sends it as any bearer token. ``/v1/players/me/...`` answers
for the player whose token it is (or, for the stream, whose ticket it is).
"""

from __future__ import annotations

import time
from datetime import UTC, datetime
from typing import Any

from flask import Blueprint, g, request, url_for

from domain.clocks import rfc3339

from service import notices, player_streams
from service.auth import Caller, Forbidden, Unauthenticated
from service.commands import RegisterPlayer
from service.readmodel import STATUSES, outcome_of, seat_rating
from service.stream_limits import holder_of
from service.web import allowances, clients, sse
from service.web.current import services
from service.web.guards import current_caller, player_required
from service.web.paging import routed_page
from service.web.requests import body, creation_key, page_args, text_args
from service.web.problems import ApiProblem
from service.web.schemas import ClaimSchema, PlayerSchema

bp = Blueprint("players", __name__, url_prefix="/v1/players")


@bp.post("")
def register():
    """Anyone may register, so many times from one address only
    (``service.web.allowances``); the player's token is in this answer only."""
    name, key = body(PlayerSchema)["name"], creation_key()
    allowances.spend("registration")
    registered = services().players.register(RegisterPlayer(
        player_name=name, idempotency_key=key, request_id=g.get("request_id")))
    player = registered.player
    return {"id": str(player.id), "name": player.name, "token": registered.token}, 201


@bp.get("/me")
@player_required("see who you are")
def me(caller: Caller):
    """The player the token names: id, name and ratings."""
    found = services().players.find(caller.own_player)
    assert found is not None  # the token named the player, and players are never removed
    return {"id": str(found.id), "name": found.name,
            "ratings": services().adapters.ratings.player_ratings(found.id)}


@bp.post("/me/token")
@player_required("replace your token")
def replace_token(caller: Caller):
    """A new token for the player; the one sent stops working at once."""
    found = services().players.find(caller.own_player)
    assert found is not None
    return {"id": str(found.id), "name": found.name, "token": services().players.new_token(found.id)}


@bp.post("/me/transfer")
@player_required("move your identity to another device")
def transfer(caller: Caller):
    """A one-time code for another device (``POST /v1/players/claim``), valid ten minutes."""
    code, expires = services().players.transfer(caller.own_player)
    return {"code": code, "expires_at": rfc3339(expires), "claim": url_for("players.claim")}, 201


@bp.post("/claim")
def claim():
    """Anyone with a transfer code gets a new token of its player, once."""
    found = services().players.claim(body(ClaimSchema)["code"])
    if found is None:
        raise ApiProblem(422, "invalid_transfer_code", "This transfer code is not valid: it was mistyped, has"
                         " been used already, or has expired (a code lasts ten minutes). Ask for a new one.")
    return {"id": str(found.player.id), "name": found.player.name, "token": found.token}


@bp.get("/me/games")
@player_required("list your games")
def my_games(caller: Caller):
    """The player's games, newest first, paged by a cursor as the operator's
    list is; from a replica when one has caught up with what the client has seen."""
    statuses = text_args("status", max(map(len, STATUSES)), allowed=STATUSES)
    cursor, limit = page_args()
    player_id = caller.own_player
    return routed_page(lambda source: source.read_model.player_games(player_id, statuses, cursor, limit), _mine)


def _mine(row: dict[str, Any]) -> dict[str, Any]:
    return {
        "id": str(row["id"]),
        "url": url_for("games.show", game_id=row["id"]),
        "variant": row["variant"],
        "status": row["status"],
        "seat": row["seat"],
        "players": row["player_names"],
        "ratings": [seat_rating(row, seat) for seat in range(len(row["player_names"]))],
        "created_at": rfc3339(row["created_at"]),
        "version": row["version"],
        "your_turn": row["seat"] in (row["awaiting"] or ()),
        "deadline": rfc3339(row["deadline"]) if row["deadline"] is not None else None,
        "outcome": outcome_of(row["winner"]),
    }


@bp.post("/me/stream-tickets")
@player_required("open your stream")
def new_ticket(caller: Caller):
    """A short-lived ticket for the player to open their own stream without a header."""
    ticket, expires = services().authenticator.player_ticket(caller, time.time())
    return {"ticket": ticket, "expires_at": datetime.fromtimestamp(expires, UTC).isoformat(),
            "stream": url_for("players.stream", ticket=ticket)}


@bp.get("/me/stream")
def stream():
    """The player's stream (``service.player_streams``), by a player token or a ticket."""
    ticket = request.args.get("ticket")
    if ticket is not None:
        caller = services().authenticator.redeem_player(ticket, time.time())
    else:
        caller = current_caller(wanted="your player token (or a ticket) to open your stream")
        if caller.is_operator:
            raise Forbidden("The operator has no stream of a player's: only a player has.")
        if not caller.is_player:
            raise Unauthenticated("Send your player token (or a ticket) to open your stream.")
    timed = sse.timing()
    found, player_id = services(), caller.own_player

    def turns() -> list[notices.Notice]:  # the primary's: the notices that follow are the primary's appends'
        return [player_streams.turn_of(row) for row in found.read_model.player_turns(player_id)]

    return sse.within_share(holder_of(caller, None, clients.request_address()), lambda on_close: sse.event_stream(
        lambda timing: player_streams.events(found.hub, player_id, turns, timing), timed, on_close))

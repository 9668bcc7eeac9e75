"""``/v1/pairing``: a player asks to be paired (``service.pairing``), sees
how the ask stands, and cancels it while it waits. A pairing is its
player's: anyone else is told there is none."""

from __future__ import annotations

import uuid
from typing import Any

from flask import Blueprint, url_for

from domain.rating import INITIAL

from service.auth import Caller
from service.games import game_type
from service.pairing import Ask, Pairing, Waiting
from service.web.current import services
from service.web.guards import player_required
from service.web.problems import ApiProblem
from service.web.requests import body
from service.web.schemas import PairingSchema

bp = Blueprint("pairing", __name__, url_prefix="/v1/pairing")


@bp.post("")
@player_required("ask to be paired")
def ask(caller: Caller):
    """Wait to be paired: 202, with the pairing's id and where to see it."""
    data = body(PairingSchema)
    game_type(data["variant"]).resolve(data["variant"], None, data["seats"])  # a variant and seat count it has
    found, player = services(), caller.own_player
    kept = found.players.find(player)
    assert kept is not None  # the token is a player's
    asked = Ask(data["variant"], data["seats"], data["clock"], data["rated"])
    rating = found.adapters.ratings.of([str(player)], asked.variant).get(str(player), INITIAL)
    waiting = Waiting(uuid.uuid4(), player, kept.name, asked, rating.rating, found.adapters.store.now())
    if not found.adapters.pairings.ask(waiting):
        raise ApiProblem(409, "already_waiting", "You are waiting to be paired already: cancel that pairing first.")
    found.pairer.wake()
    shown = _shown(Pairing(waiting.id, player, asked, "waiting"))
    return shown, 202, {"Location": shown["url"]}


@bp.get("/<uuid:pairing_id>")
@player_required("see your pairing")
def show(pairing_id: uuid.UUID, caller: Caller):
    return _shown(_own(pairing_id, caller))


@bp.delete("/<uuid:pairing_id>")
@player_required("cancel your pairing")
def cancel(pairing_id: uuid.UUID, caller: Caller):
    """Stop waiting; a pairing already paired stays so (409 ``already_paired``)."""
    _own(pairing_id, caller)
    after = services().adapters.pairings.cancel(pairing_id, services().adapters.store.now())
    assert after is not None
    if after.status == "paired":
        raise ApiProblem(409, "already_paired", "You have been paired already: your game has begun.",
                         game_id=str(after.game_id))
    return _shown(after)


def _own(pairing_id: uuid.UUID, caller: Caller) -> Pairing:
    found = services().adapters.pairings.find(pairing_id)
    if found is None or found.player != caller.own_player:
        raise ApiProblem(404, "not_found", "You have no pairing with this id.")
    return found


def _shown(pairing: Pairing) -> dict[str, Any]:
    return {"id": str(pairing.id), "url": url_for("pairing.show", pairing_id=pairing.id), "status": pairing.status,
            **pairing.ask.to_dict(), "game_id": str(pairing.game_id) if pairing.game_id else None,
            "game_url": url_for("games.show", game_id=pairing.game_id) if pairing.game_id else None,
            "seat": pairing.seat}

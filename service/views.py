"""The game as one caller may see it at the table.

A seat sees its own hand; the public sees no hand; the operator sees every
hand and the order of the stock. Captured piles lie face down, so only their
size shows, but the cards of the latest capture were seen by everyone. With
``open_piles`` (Stealing Bundles, African) the piles lie face up, and everyone sees
each pile's top card (``pile_top``).
"""

from __future__ import annotations

import functools
from typing import Any

from domain import GameState, Options
from domain.cards import codes
from domain.cassino.table import item_to_dict

from service.caller import Caller


@functools.lru_cache(maxsize=1024)
def _options_dict(options: Options) -> dict[str, Any]:
    # A game's options never change, and every view shows them: convert once.
    # The dict is shared: callers only serialise it.
    return options.to_dict()


def _pile_top(state: GameState, seat: int) -> str | None:
    """The top card of ``seat``'s capture pile where piles lie face up."""
    pile = state.captured[seat]
    return pile[-1].code if state.options.open_piles and pile else None


def game_view(state: GameState, caller: Caller) -> dict[str, Any]:
    opts = state.options
    outcome = state.outcome
    view: dict[str, Any] = {
        "status": state.status,
        "variant": state.variant,
        "options": _options_dict(opts),
        "version": state.version,
        "hand_number": state.hand_number,
        "round": state.round,
        "last_round": state.last_round,
        "dealer": state.dealer,
        "next_dealer": state.next_dealer if state.status in ("waiting", "hand_over") else None,
        "turn": state.turn,
        "deck_count": len(state.stock),
        "table": [item_to_dict(it) for it in state.table],
        "seats": [
            {
                "seat": i,
                "name": s.name,
                "team": s.team,
                "hand_count": len(state.hands[i]),
                "captured_count": len(state.captured[i]),
                "pile_top": _pile_top(state, i),
                "sweeps": state.sweeps[i],
                "score": state.scores[s.team],
            }
            for i, s in enumerate(state.seats)
        ],
        "last_capture": (
            {"seat": state.last_capturer, "cards": codes(state.last_capture)}
            if state.last_capture else None
        ),
        "scores": list(state.scores),
        "commitment": state.commitment,
        "client_seeds": list(state.client_seeds),
        "undo_request": (
            {"seat": state.undo_request, "accepted": list(state.undo_accepted)}
            if state.undo_request is not None else None
        ),
        "winner": outcome.winner if outcome else None,
        "result": outcome.reason if outcome else None,
    }
    if caller.is_seat:
        view["you"] = caller.seat
        view["hand"] = codes(state.hands[caller.seat])
    if caller.is_operator:
        view["hands"] = [codes(h) for h in state.hands]
        view["stock"] = codes(state.stock)
    return view

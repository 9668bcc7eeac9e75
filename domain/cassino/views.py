"""What each caller may see of a Cassino game, and of its events.

At the table a seat sees its own hand, and no one else's; the operator sees
every hand and the order of the stock. Captured piles lie face down, so only
their size shows, but the cards of the latest capture were seen by everyone;
with ``open_piles`` (Stealing Bundles, African) they lie face up, and every
caller sees each pile's top card (``pile_top``). A seat may count its own
side's captures, so while a hand is played its view says what its side's
count-out would count and whether it would win (``count_out``); the
operator's view says so for every side. A caller is named by two
keywords: ``seat`` (the seat asking, or None) and ``operator``; with
neither, the view is the public's.

Events keep their version and type, so a reader can tell nothing is
missing; only what the caller could not see at the table is removed:

- ``HandDealt``: the deck order is the operator's alone (``deck`` becomes
  null, ``deck_count`` says how many cards it held); each seat sees its own
  hand, and other hands become null beside their ``hand_counts``.
- ``RoundDealt``: the same for the hands of a later round; the cards it
  lays face up on the table (a last round's odd cards) are seen by all.
- ``ShuffleCommitted``: the secret seed is null; its commitment is public,
  and ``SeedRevealed`` shows the seed once its hand is over.
- ``CardDrawn`` (Draw Cassino): only the drawing seat sees the card.

Plays, captures, builds and scores happen face up and are shown to everyone.
Once a game is over its whole log is public (``reveal``), unless the game's
``public_log`` option keeps it redacted (:func:`log_revealed`).
"""

from __future__ import annotations

import functools
from typing import Any

from ..cards import codes
from ..clocks import clock_view
from ..kernel_events import DESCRIBERS as KERNEL_DESCRIBERS
from ..rating import rating_view
from ..rematch import rematch_view
from ..standing import standing_view
from ..views import Describer, cards_text, describe, names_text, private_parts
from .game import GAME_TYPE, awaiting, outcome
from .options import Options
from .scoring import count_out_claim
from .state import FINISHED, HAND_OVER, IN_PROGRESS, WAITING, GameState
from .table import item_to_dict

_HIDDEN_HANDS = {"HandDealt", "RoundDealt"}


@functools.lru_cache(maxsize=1024)
def _options_dict(options: Options) -> dict[str, Any]:
    # A game's options never change, and every view shows them: convert once.
    # The dict is shared: callers only serialise it.
    return options.to_dict()


def _pile_top(state: GameState, seat: int) -> str | None:
    """The top card of ``seat``'s capture pile where piles lie face up
    (``open_piles``: Stealing Bundles, African); None where they lie face down."""
    pile = state.captured[seat]
    return pile[-1].code if state.options.open_piles and pile else None


def game_view(state: GameState, seat: int | None = None, operator: bool = False) -> dict[str, Any]:
    """The game as ``seat``, the operator, or (with neither) the public may see it."""
    ended = state.outcome
    view: dict[str, Any] = {
        "game_type": GAME_TYPE,
        "status": state.status,
        "variant": state.variant,
        "options": _options_dict(state.options),
        "version": state.version,
        "hand_number": state.hand_number,
        "round": state.round,
        "last_round": state.last_round,
        "dealer": state.dealer,
        "next_dealer": state.next_dealer if state.status in (WAITING, HAND_OVER) else None,
        "turn": state.turn,
        "deck_count": len(state.stock),
        "table": [item_to_dict(it) for it in state.table],
        "seats": [
            {
                "seat": i,
                "name": s.name,
                "open": s.name is None,
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
        "winner": ended.winner if ended else None,  # the winning side
        **standing_view(awaiting(state), outcome(state)),
        "clock": clock_view(state.clock),
        **rating_view(state.rated, state.rating_changes),
        **rematch_view(state.rematch),
    }
    return view | private_parts(state.hands, state.stock, codes, seat, operator) | _claims(state, seat, operator)


def _claims(state: GameState, seat: int | None, operator: bool) -> dict[str, Any]:
    """What a count-out would count now, as the table lets each one count:
    a seat its own side's captures (``count_out``), the operator every
    side's (``count_outs``); null when the game takes no count-out now."""
    open_to_claims = state.options.count_out and state.status == IN_PROGRESS
    parts: dict[str, Any] = {}
    if seat is not None:
        parts["count_out"] = _claim(state, state.team_of(seat)) if open_to_claims else None
    if operator:
        parts["count_outs"] = [_claim(state, team) for team in range(state.teams)] if open_to_claims else None
    return parts


def _claim(state: GameState, team: int) -> dict[str, Any]:
    claim = count_out_claim(state, team)
    return {"secured": claim.secured, "total": claim.total, "succeeds": claim.succeeds}


def event_view(stored: dict[str, Any], seat: int | None = None, operator: bool = False,
               reveal: bool = False) -> dict[str, Any]:
    """The JSON form of an event (``type``, ``schema_version``, ``data``) as
    its caller may see it; ``reveal`` shows everything (a finished game's
    public log)."""
    if operator or reveal:
        return stored
    kind, data = stored["type"], stored["data"]
    if kind == "ShuffleCommitted":
        return {**stored, "data": {**data, "seed": None}}
    if kind == "CardDrawn" and data["seat"] != seat:
        return {**stored, "data": {**data, "card": None}}
    if kind not in _HIDDEN_HANDS:
        return stored
    hands = data["hands"]
    shown = {**data, "hand_counts": [len(h) for h in hands],
             "hands": [h if i == seat else None for i, h in enumerate(hands)]}
    if "deck" in data:
        shown["deck_count"] = len(data["deck"])
        shown["deck"] = None
    return {**stored, "data": shown}


def log_revealed(state: GameState) -> bool:
    """Whether the whole log is public: the game is over and its options allow it."""
    return state.status == FINISHED and state.options.public_log


def _scores(scores: list[int]) -> str:
    return "-".join(map(str, scores))


_DESCRIBERS: dict[str, Describer] = {
    "GameCreated": lambda d: (f"{d['variant']} for {names_text([s['name'] for s in d['seats']])};"
                              f" seat {d['first_dealer']} deals first"),
    "HandDealt": lambda d: (f"hand {d['hand_number']} dealt by seat {d['dealer']}; table {cards_text(d['table'])}"
                            + (" (deck fixed by the operator)" if d.get("fixed") else "")),
    "RoundDealt": lambda d: f"round {d['round']} dealt" + (" (the last)" if d["last"] else ""),
    "CardTrailed": lambda d: f"seat {d['seat']} trails {d['card']}",
    "CardsCaptured": lambda d: (f"seat {d['seat']} takes {cards_text(d['cards'][:-1])} with {d['card']}"
                                + (", a sweep" if d.get("sweep") else "")),
    "BundleStolen": lambda d: (f"seat {d['seat']} steals seat {d['victim']}'s bundle of {len(d['cards']) - 1}"
                               f" with {d['card']}"),
    "BuildMade": lambda d: (f"seat {d['seat']} plays {d['card']} on {cards_text(d['targets'])}:"
                            f" build {d['build']['id']} of {d['build']['value']}"),
    "HandEnded": lambda d: f"hand {d['hand_number']} scored; scores {_scores(d['scores'])}",
    "CountedOut": lambda d: (f"seat {d['seat']} counts out at {d['total']}: "
                             + ("it holds" if d["success"] else "it falls short")),
    "GameFinished": lambda d: ((f"team {d['winner']} wins" if d["winner"] is not None
                                else "no winner" if d["reason"] == "aborted" else "a draw")
                               + f" ({d['reason']}); scores {_scores(d['scores'])}"),
    **KERNEL_DESCRIBERS,
}


def describe_event(stored: dict[str, Any]) -> str:
    """One line saying what the event records (``casino replay --print``)."""
    return describe(stored, _DESCRIBERS)

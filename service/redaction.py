"""Events as one caller may see them.

Every event keeps its version and type, so a reader can tell nothing is
missing; only the parts the caller could not see at the table are removed:

- ``HandDealt``: the deck order is the operator's alone (``deck`` becomes
  null, ``deck_count`` says how many cards it held); each seat sees its own
  hand, and other hands become null beside their ``hand_counts``.
- ``RoundDealt``: the same for the hands of a later round.
- ``ShuffleCommitted``: the secret seed is null; its commitment is public,
  and ``SeedRevealed`` shows the seed once its hand is over.
- ``CardDrawn`` (Draw Cassino): only the drawing seat sees the card.

Plays, captures, builds and scores happen face up and are shown to everyone.
Once a game is over its whole log is public (``reveal``), unless the game's
``public_log`` option keeps it redacted.
"""

from __future__ import annotations

from typing import Any

from service.caller import Caller

_HIDDEN_HANDS = {"HandDealt", "RoundDealt"}


def redact(stored: dict[str, Any], caller: Caller, reveal: bool = False) -> dict[str, Any]:
    """The JSON form of an event (``type``, ``schema_version``, ``data``) for
    ``caller``; ``reveal`` shows everything (a finished game's public log)."""
    if caller.is_operator or reveal:
        return stored
    if stored["type"] == "ShuffleCommitted":
        return {**stored, "data": {**stored["data"], "seed": None}}
    if stored["type"] == "CardDrawn" and not caller.sees_hand(stored["data"]["seat"]):
        return {**stored, "data": {**stored["data"], "card": None}}
    if stored["type"] not in _HIDDEN_HANDS:
        return stored
    data = dict(stored["data"])
    hands = data["hands"]
    data["hand_counts"] = [len(h) for h in hands]
    data["hands"] = [h if caller.sees_hand(i) else None for i, h in enumerate(hands)]
    if "deck" in data:
        data["deck_count"] = len(data["deck"])
        data["deck"] = None
    return {**stored, "data": data}

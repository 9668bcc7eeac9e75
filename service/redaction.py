"""Events as one caller may see them.

Every event keeps its version and type, so a reader can tell nothing is
missing; only the parts the caller could not see at the table are removed:

- ``HandDealt``: the deck order is the operator's alone (``deck`` becomes
  null, ``deck_count`` says how many cards it held); each seat sees its own
  hand, and other hands become null beside their ``hand_counts``.
- ``RoundDealt``: the same for the hands of a later round.

Plays, captures, builds and scores happen face up and are shown to everyone.
"""

from __future__ import annotations

from typing import Any

from service.caller import Caller

_HIDDEN_HANDS = {"HandDealt", "RoundDealt"}


def redact(stored: dict[str, Any], caller: Caller) -> dict[str, Any]:
    """The JSON form of an event (``type``, ``schema_version``, ``data``) for ``caller``."""
    if caller.is_operator or stored["type"] not in _HIDDEN_HANDS:
        return stored
    data = dict(stored["data"])
    hands = data["hands"]
    data["hand_counts"] = [len(h) for h in hands]
    data["hands"] = [h if caller.sees_hand(i) else None for i, h in enumerate(hands)]
    if "deck" in data:
        data["deck_count"] = len(data["deck"])
        data["deck"] = None
    return {**stored, "data": data}

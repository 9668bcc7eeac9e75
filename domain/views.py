"""What every game's view of a table shares: the parts only some callers
see, and a line of text for each event. At any table here a seat sees its
own hand and the operator sees every hand and the order of the stock; the
public part of a view is each game's own."""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

from .cards import Card, codes

Hand = TypeVar("Hand")


def private_parts(hands: Sequence[Hand], stock: Sequence[Card], show: Callable[[Hand], Any], seat: int | None,
                  operator: bool) -> dict[str, Any]:
    """The fields a view adds for ``seat`` (``you``, ``hand``) and for the
    operator (``hands``, ``stock``), each hand written by ``show``."""
    parts: dict[str, Any] = {}
    if seat is not None:
        parts["you"] = seat
        parts["hand"] = show(hands[seat])
    if operator:
        parts["hands"] = [show(h) for h in hands]
        parts["stock"] = codes(stock)
    return parts


#: Says in one line what an event's data (its JSON form's ``data``) records.
Describer = Callable[[dict[str, Any]], str]


def describe(stored: dict[str, Any], describers: dict[str, Describer]) -> str:
    """One line saying what a stored event (``{"type", "schema_version",
    "data"}``, current schema) records, for a person reading a transcript:
    its type's describer, or, for a type or a shape it does not know, its fields."""
    describer = describers.get(stored["type"])
    try:
        return describer(stored["data"]) if describer else _fields(stored["data"])
    except (KeyError, TypeError, IndexError):
        return _fields(stored["data"])


def names_text(names: Sequence[str | None]) -> str:
    """Seats' names in a sentence, an open seat as "(open)"."""
    return ", ".join(name if name is not None else "(open)" for name in names)


def seating_describers(*, joined: str, left: str, resigned: str, aborted: str, timed_out: str,
                       clock: str) -> dict[str, Describer]:
    """The describers of the kernel's events of seating and clocks
    (:mod:`domain.seating`, :mod:`domain.clocks`), by their stored names."""
    return {
        joined: lambda d: f"{d['name']} takes seat {d['seat']}" + (f" (player {d['player']})" if d["player"] else ""),
        left: lambda d: f"seat {d['seat']} is left open",
        resigned: lambda d: f"seat {d['seat']} resigns",
        aborted: lambda d: f"seat {d['seat']} aborts the game",
        timed_out: lambda d: f"seat {d['seat']}'s time runs out"
                             + (": the computer moves for it" if d["computer"] else ""),
        clock: lambda d: "clock: " + ", ".join(f"{k} {v}" for k, v in d["clock"].items()),
    }


def cards_text(codes_: Sequence[str]) -> str:
    """Card codes in a sentence: space-separated, or "nothing"."""
    return " ".join(codes_) or "nothing"


def _fields(data: dict[str, Any]) -> str:
    text = ", ".join(f"{name}={json.dumps(value)}" for name, value in data.items())
    return text if len(text) <= 120 else text[:119] + "…"

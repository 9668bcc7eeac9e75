"""What every game's view of a table shares: the parts only some callers
see. At any table here a seat sees its own hand and the operator sees every
hand and the order of the stock; the public part of a view is each game's own."""

from __future__ import annotations

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

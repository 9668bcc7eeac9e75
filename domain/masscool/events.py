"""The facts of a game of Mass Cool Casino, in the past tense.

Each event is a frozen dataclass with a registered name and a
``schema_version``; its JSON form is ``{"type", "schema_version", "data"}``
like Cassino's events, and no name is shared with them, so one log of
either game reads without knowing which game it is::

    >>> e = BetPlaced(seat=1, cards=(Card.parse("KS"), Card.parse("7H")))
    >>> to_json(e)
    {'type': 'BetPlaced', 'schema_version': 1, 'data': {'seat': 1, 'cards': ['KS', '7H']}}
    >>> from_json(to_json(e)) == e
    True

A change to an event bumps its version and registers an upcaster in
``UPCASTERS`` (old data in, current data out), applied by ``from_json``.
"""

from __future__ import annotations

import typing
from collections.abc import Callable
from dataclasses import dataclass, fields
from typing import Any, ClassVar

from ..cards import Card
from ..errors import NotationError
from .rules import Options


class Event:
    schema_version: ClassVar[int] = 1


@dataclass(frozen=True, slots=True)
class TableOpened(Event):
    """A game is created: its seats, first dealer and resolved options."""

    names: tuple[str, ...]
    first_dealer: int
    options: Options


@dataclass(frozen=True, slots=True)
class ShufflePromised(Event):
    """The commitment to the secret seed of shuffle number ``shuffle``.
    ``seed`` is the operator's until ``ShuffleRevealed``."""

    shuffle: int
    commitment: str
    seed: str  # hex


@dataclass(frozen=True, slots=True)
class MoneyDealt(Event):
    """The deal (shuffle 1): ``deck`` top card first, ``money`` what each seat
    got face up; the rest of the deck is the stock. A deck from a committed
    seed names its ``commitment``; an operator's deck is ``fixed``."""

    dealer: int
    deck: tuple[Card, ...]
    money: tuple[tuple[Card, ...], ...]
    fixed: bool
    commitment: str | None


@dataclass(frozen=True, slots=True)
class HandsDrawn(Event):
    """Each seat still in draws one hidden card from the stock, the round's
    leader first. ``hands`` has None for seats out of the game."""

    round: int
    leader: int
    hands: tuple[Card | None, ...]


@dataclass(frozen=True, slots=True)
class BetPlaced(Event):
    seat: int
    cards: tuple[Card, ...]


@dataclass(frozen=True, slots=True)
class StopCalled(Event):
    seat: int


@dataclass(frozen=True, slots=True)
class PotWon(Event):
    """The showdown: ``hands`` shown, the highest taken by ``winner``, who
    adds ``pot`` to their money. The shown hands are discarded; seats left
    without money are ``knocked_out``."""

    round: int
    hands: tuple[Card | None, ...]
    winner: int
    pot: tuple[Card, ...]
    knocked_out: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class PotTied(Event):
    """The showdown found the highest card ``tied`` between seats: the bets
    and hands are gathered to be shuffled into the stock."""

    round: int
    hands: tuple[Card | None, ...]
    tied: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class DeckReshuffled(Event):
    """After a tie: the stock with the gathered cards, shuffled (shuffle
    number ``shuffle``), top card first."""

    shuffle: int
    deck: tuple[Card, ...]
    fixed: bool
    commitment: str | None


@dataclass(frozen=True, slots=True)
class ShuffleRevealed(Event):
    """A committed seed, revealed once its deck is spent or was never used."""

    shuffle: int
    seed: str  # hex


@dataclass(frozen=True, slots=True)
class MoneyCounted(Event):
    """The end: each seat's money counted, and the highest total wins
    (``winners`` holds every seat tied on it)."""

    totals: tuple[int, ...]
    winners: tuple[int, ...]
    reason: str


@dataclass(frozen=True, slots=True)
class BetUndoAsked(Event):
    seat: int


@dataclass(frozen=True, slots=True)
class BetUndoAnswered(Event):
    seat: int
    accepted: bool


@dataclass(frozen=True, slots=True)
class BetTakenBack(Event):
    """The latest bet or stop is taken back; its own event stays in the log."""

    seat: int
    forced: bool = False  # by the operator, without asking


EVENT_TYPES: dict[str, type[Event]] = {
    cls.__name__: cls
    for cls in (TableOpened, ShufflePromised, MoneyDealt, HandsDrawn, BetPlaced, StopCalled, PotWon, PotTied,
                DeckReshuffled, ShuffleRevealed, MoneyCounted, BetUndoAsked, BetUndoAnswered, BetTakenBack)
}

# -- the JSON codec: one (encode, decode) pair per field type ---------------

_Codec = tuple[Callable[[Any], Any], Callable[[Any], Any]]


def _optional_card(text: str | None) -> Card | None:
    return None if text is None else Card.parse(text)


_CODECS: dict[Any, _Codec] = {
    tuple[Card, ...]: (lambda cs: [c.code for c in cs], lambda xs: tuple(map(Card.parse, xs))),
    tuple[tuple[Card, ...], ...]: (lambda hs: [[c.code for c in h] for h in hs],
                                   lambda xs: tuple(tuple(map(Card.parse, h)) for h in xs)),
    tuple[Card | None, ...]: (lambda cs: [c and c.code for c in cs], lambda xs: tuple(map(_optional_card, xs))),
    tuple[str, ...]: (list, tuple),
    tuple[int, ...]: (list, tuple),
    Options: (Options.to_dict, Options.from_dict),
}
_PLAIN: _Codec = (lambda x: x, lambda x: x)
_FIELDS: dict[type, list[tuple[str, _Codec]]] = {
    cls: [(f.name, _CODECS.get(typing.get_type_hints(cls)[f.name], _PLAIN)) for f in fields(cls)]
    for cls in EVENT_TYPES.values()
}

#: Upcasters: ``(type name, old version) -> fn(old data) -> next version's data``.
UPCASTERS: dict[tuple[str, int], Callable[[dict], dict]] = {}


def to_json(event: Event) -> dict[str, Any]:
    cls = type(event)
    data = {name: enc(getattr(event, name)) for name, (enc, _) in _FIELDS[cls]}
    return {"type": cls.__name__, "schema_version": cls.schema_version, "data": data}


def from_json(stored: dict[str, Any]) -> Event:
    """Read a stored event, upcasting an old version first."""
    cls = EVENT_TYPES.get(stored["type"])
    if cls is None:
        raise NotationError(f"Unknown event type {stored['type']!r}.")
    version, data = stored.get("schema_version", 1), stored["data"]
    if version > cls.schema_version:
        raise NotationError(f"{stored['type']} version {version} is newer than this code knows.")
    while version < cls.schema_version:
        step = UPCASTERS.get((stored["type"], version))
        if step is None:
            raise NotationError(f"No upcaster for {stored['type']} version {version}.")
        data, version = step(data), version + 1
    return cls(**{name: dec(data[name]) for name, (_, dec) in _FIELDS[cls] if name in data})

"""Events: the facts a game is made of, in the past tense.

Each event type is a frozen dataclass with a registered name and a
``schema_version``. Its JSON form is ``{"type", "schema_version", "data"}``::

    >>> e = CardTrailed(seat=0, card=Card.parse("5C"))
    >>> to_json(e)
    {'type': 'CardTrailed', 'schema_version': 1, 'data': {'seat': 0, 'card': '5C'}}
    >>> from_json(to_json(e)) == e
    True

When an event type changes, its ``schema_version`` goes up and an
*upcaster* is registered for the old version: a function that turns the old
data into the new shape. Upcasters run where events are read, so stored
events are never rewritten and old games always replay.
"""

from __future__ import annotations

import typing
from collections.abc import Callable
from dataclasses import dataclass, fields
from typing import Any, ClassVar

from ..cards import Card
from ..errors import NotationError
from .options import Options
from .scoring import Award
from .state import EndReason, Seat
from .table import Build


class Event:
    """Base class of all events."""

    schema_version: ClassVar[int] = 1


@dataclass(frozen=True, slots=True)
class GameCreated(Event):
    variant: str
    options: Options
    seats: tuple[Seat, ...]
    first_dealer: int


@dataclass(frozen=True, slots=True)
class ShuffleCommitted(Event):
    """The server's commitment to the secret seed of hand ``hand_number``'s
    deck. ``seed`` is the secret itself, kept from everyone but the operator
    until ``SeedRevealed``."""

    hand_number: int
    commitment: str
    seed: str  # hex


@dataclass(frozen=True, slots=True)
class ClientSeedSet(Event):
    seat: int
    seed: str


@dataclass(frozen=True, slots=True)
class HandDealt(Event):
    """A hand's first round. ``deck`` is the whole deck, top card first: it
    fixes every later round, so only the operator may see it while the hand
    is played. A deck derived from a committed seed names the
    ``commitment`` and the ``client_seeds`` mixed in; an operator's fixed
    deck is marked ``fixed``.

    Version 2 added ``commitment`` and ``client_seeds``.
    """

    schema_version: ClassVar[int] = 2

    hand_number: int
    dealer: int
    deck: tuple[Card, ...]
    hands: tuple[tuple[Card, ...], ...]
    table: tuple[Card, ...]
    fixed: bool = False
    commitment: str | None = None
    client_seeds: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class SeedRevealed(Event):
    """The hand is over: its secret seed, for anyone to check the deal."""

    hand_number: int
    seed: str  # hex


@dataclass(frozen=True, slots=True)
class RoundDealt(Event):
    """A later round of the hand, dealt when every hand is empty. ``table``
    holds the cards of a last round that do not go round evenly, laid face
    up on the table.

    Version 2 added ``table``.
    """

    schema_version: ClassVar[int] = 2

    round: int
    hands: tuple[tuple[Card, ...], ...]
    last: bool
    table: tuple[Card, ...] = ()


@dataclass(frozen=True, slots=True)
class InitialPairsTaken(Event):
    """``initial_pairs``: the pairs dealt to the table go to the first player."""

    seat: int
    cards: tuple[Card, ...]
    sweep: bool = False


@dataclass(frozen=True, slots=True)
class CardDrawn(Event):
    """Draw Cassino: after a play the player draws the top card of the stock."""

    seat: int
    card: Card


@dataclass(frozen=True, slots=True)
class CardPlucked(Event):
    """Pluck Cassino: a non-point card taken from the table into the pile."""

    seat: int
    card: Card


@dataclass(frozen=True, slots=True)
class PointsScored(Event):
    """``instant_scoring``: points scored the moment they are taken."""

    awards: tuple[Award, ...]
    scores: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class CardTrailed(Event):
    seat: int
    card: Card


@dataclass(frozen=True, slots=True)
class CardsCaptured(Event):
    """``cards`` is everything taken in, the played card last."""

    seat: int
    card: Card
    targets: tuple[str, ...]
    cards: tuple[Card, ...]
    sweep: bool = False


@dataclass(frozen=True, slots=True)
class BuildMade(Event):
    """A new build, a raise, or an addition: ``build`` is what now lies on
    the table in place of ``targets``."""

    seat: int
    card: Card
    targets: tuple[str, ...]
    build: Build


@dataclass(frozen=True, slots=True)
class BundleStolen(Event):
    """``steal_bundles``: ``seat`` played ``card`` on ``victim``'s pile and
    took it whole. ``cards`` is the stolen bundle, bottom first, then the
    played card, which now tops the thief's pile."""

    seat: int
    card: Card
    victim: int
    cards: tuple[Card, ...]


@dataclass(frozen=True, slots=True)
class HandEnded(Event):
    """The last card is played: the residue goes to the last capturer and the
    hand is scored. ``scores`` are the running totals per team."""

    hand_number: int
    last_capturer: int | None
    residue: tuple[Card, ...]
    points: tuple[Award, ...]
    scores: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class CountedOut(Event):
    """A claim to have reached the target; ``total`` is the score plus the
    points the claimant's side had secured in the hand."""

    seat: int
    team: int
    total: int
    success: bool


@dataclass(frozen=True, slots=True)
class GameFinished(Event):
    winner: int | None  # a team; None for a draw
    reason: EndReason
    scores: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class UndoRequested(Event):
    seat: int


@dataclass(frozen=True, slots=True)
class UndoAnswered(Event):
    seat: int
    accepted: bool


@dataclass(frozen=True, slots=True)
class PlayUndone(Event):
    """The last play is taken back: the game is as it was before it. The
    play's own event stays in the log."""

    seat: int  # whose play it was
    forced: bool = False  # by the operator, without asking


@dataclass(frozen=True, slots=True)
class HandVoided(Event):
    """The operator voided the hand: it scores nothing and the same dealer
    deals again."""

    hand_number: int
    reason: str


EVENT_TYPES: dict[str, type[Event]] = {
    cls.__name__: cls
    for cls in (GameCreated, ShuffleCommitted, ClientSeedSet, HandDealt, InitialPairsTaken, RoundDealt,
                CardTrailed, CardsCaptured, BundleStolen, BuildMade, CardDrawn, CardPlucked, PointsScored, HandEnded,
                SeedRevealed, CountedOut, GameFinished, UndoRequested, UndoAnswered, PlayUndone, HandVoided)
}


# -- the JSON codec ---------------------------------------------------------
#
# One encoder and one decoder per field *type*, read from the annotations once.

_Codec = tuple[Callable[[Any], Any], Callable[[Any], Any]]

_CODECS: dict[Any, _Codec] = {
    Card: (lambda c: c.code, Card.parse),
    tuple[Card, ...]: (lambda cs: [c.code for c in cs], lambda xs: tuple(Card.parse(x) for x in xs)),
    tuple[tuple[Card, ...], ...]: (
        lambda hs: [[c.code for c in h] for h in hs],
        lambda xs: tuple(tuple(Card.parse(x) for x in h) for h in xs),
    ),
    tuple[str, ...]: (list, tuple),
    tuple[int, ...]: (list, tuple),
    Options: (Options.to_dict, Options.from_dict),
    EndReason: (str, EndReason),
    Build: (Build.to_dict, Build.from_dict),
    tuple[Seat, ...]: (
        lambda ss: [{"name": s.name, "team": s.team} for s in ss],
        lambda xs: tuple(Seat(x["name"], x["team"]) for x in xs),
    ),
    tuple[Award, ...]: (
        lambda aws: [{"category": a.category, "team": a.team, "points": a.points} for a in aws],
        lambda xs: tuple(Award(x["category"], x["team"], x["points"]) for x in xs),
    ),
}
_PLAIN: _Codec = (lambda x: x, lambda x: x)
_FIELD_CODECS: dict[type, list[tuple[str, _Codec]]] = {}


def _codecs(cls: type[Event]) -> list[tuple[str, _Codec]]:
    found = _FIELD_CODECS.get(cls)
    if found is None:
        hints = typing.get_type_hints(cls)
        found = [(f.name, _CODECS.get(hints[f.name], _PLAIN)) for f in fields(cls)]  # type: ignore[arg-type]
        _FIELD_CODECS[cls] = found
    return found


def to_json(event: Event) -> dict[str, Any]:
    """The stored form of an event."""
    cls = type(event)
    data = {name: enc(getattr(event, name)) for name, (enc, _) in _codecs(cls)}
    return {"type": cls.__name__, "schema_version": cls.schema_version, "data": data}


_Data = dict[str, Any]
_Step = Callable[[_Data], _Data]


class Upcasters:
    """Functions that bring old event data up to the current schema, one per
    (type, old version) step."""

    def __init__(self) -> None:
        self._steps: dict[tuple[str, int], _Step] = {}

    def register(self, type_name: str, from_version: int) -> Callable[[_Step], _Step]:
        """Decorator: ``fn(data) -> data`` turns version ``from_version`` into the next."""
        def add(fn: _Step) -> _Step:
            self._steps[(type_name, from_version)] = fn
            return fn
        return add

    def upcast(self, type_name: str, version: int, data: _Data, current: int) -> _Data:
        while version < current:
            step = self._steps.get((type_name, version))
            if step is None:
                raise NotationError(f"No upcaster for {type_name} version {version}.")
            data = step(data)
            version += 1
        return data


#: The project's upcasters. Each change to an event type adds one here, with a
#: golden test on a stored payload of the old version.
UPCASTERS = Upcasters()


@UPCASTERS.register("HandDealt", 1)
def _hand_dealt_v1(data: _Data) -> _Data:
    """Version 1 had no fair-dealing fields: such a deck was given, not derived."""
    return {**data, "commitment": None, "client_seeds": []}


@UPCASTERS.register("RoundDealt", 1)
def _round_dealt_v1(data: _Data) -> _Data:
    """Version 1 dealt every card of a round to the hands."""
    return {**data, "table": []}


def from_json(stored: dict[str, Any], upcasters: Upcasters = UPCASTERS,
              types: dict[str, type[Event]] = EVENT_TYPES) -> Event:
    """Read a stored event, upcasting old versions first."""
    cls = types.get(stored["type"])
    if cls is None:
        raise NotationError(f"Unknown event type {stored['type']!r}.")
    version = stored.get("schema_version", 1)
    if version > cls.schema_version:
        raise NotationError(f"{stored['type']} version {version} is newer than this code knows.")
    data = upcasters.upcast(stored["type"], version, stored["data"], cls.schema_version)
    return cls(**{name: dec(data[name]) for name, (_, dec) in _codecs(cls) if name in data})

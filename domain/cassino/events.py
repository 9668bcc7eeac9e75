"""Events: the facts a game is made of, in the past tense.

Each event type is a frozen dataclass registered under a stored name
(declared in :data:`EVENT_TYPES`, not its class's name) with a
``schema_version``; the kernel's codec (:mod:`domain.codec`) writes it as
``{"type", "schema_version", "data"}``::

    >>> e = CardTrailed(seat=0, card=Card.parse("5C"))
    >>> to_json(e)
    {'type': 'CardTrailed', 'schema_version': 1, 'data': {'seat': 0, 'card': '5C'}}
    >>> from_json(to_json(e)) == e
    True

When an event type changes, its ``schema_version`` goes up and an
upcaster for the old version is registered in :data:`UPCASTERS`.

What every game records the same way (seats, resigning, aborting, clocks
and time-outs, ratings, rematches, undo) is the kernel's
(:mod:`domain.kernel_events`); this game's codec reads and writes those too.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from .. import codec
from .. import kernel_events as kernel
from ..cards import Card
from ..codec import Codec, EventCodec
from .options import Options
from .state import Award, EndReason, Seat
from .table import Build


#: Cassino's events and the kernel's share one base class: a game's handlers
#: return both.
Event = codec.Event


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
class HandVoided(Event):
    """The operator voided the hand: it scores nothing and the same dealer
    deals again."""

    hand_number: int
    reason: str


#: Cassino's own field types; cards, hands and numbers are the kernel's (:data:`~domain.codec.SHARED_CODECS`).
_CODECS: dict[Any, Codec] = {
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

#: The names Cassino stored the kernel's events under before the kernel had
#: them (:mod:`domain.kernel_events`): read as the kernel's, for good.
LEGACY_NAMES: dict[str, type[codec.Event]] = {
    "ClockSet": kernel.ClockSet, "RatedSet": kernel.RatedSet, "RatingsChanged": kernel.RatingsChanged,
    "RematchAnswered": kernel.RematchAnswered, "SeatJoined": kernel.SeatJoined, "SeatLeft": kernel.SeatLeft,
    "SeatResigned": kernel.SeatResigned, "GameAborted": kernel.GameAborted, "TimedOut": kernel.TimedOut,
    "UndoRequested": kernel.UndoRequested, "UndoAnswered": kernel.UndoAnswered, "PlayUndone": kernel.PlayUndone,
}

#: The project's upcasters (the kernel's among them). Each change to an event
#: type adds one here, with a golden test on a stored payload of the old version.
UPCASTERS = kernel.legacy_upcasters(LEGACY_NAMES)


@UPCASTERS.register("HandDealt", 1)
def _hand_dealt_v1(data: dict[str, Any]) -> dict[str, Any]:
    """Version 1 had no fair-dealing fields: such a deck was given, not derived."""
    return {**data, "commitment": None, "client_seeds": []}


@UPCASTERS.register("RoundDealt", 1)
def _round_dealt_v1(data: dict[str, Any]) -> dict[str, Any]:
    """Version 1 dealt every card of a round to the hands."""
    return {**data, "table": []}


#: Cassino's own events by stored name (the kernel's are :data:`domain.kernel_events.EVENT_TYPES`).
EVENT_TYPES: dict[str, type[Event]] = {
    "GameCreated": GameCreated, "ShuffleCommitted": ShuffleCommitted, "ClientSeedSet": ClientSeedSet,
    "HandDealt": HandDealt, "InitialPairsTaken": InitialPairsTaken, "RoundDealt": RoundDealt,
    "CardTrailed": CardTrailed, "CardsCaptured": CardsCaptured, "BundleStolen": BundleStolen,
    "BuildMade": BuildMade, "CardDrawn": CardDrawn, "CardPlucked": CardPlucked, "PointsScored": PointsScored,
    "HandEnded": HandEnded, "SeedRevealed": SeedRevealed, "CountedOut": CountedOut,
    "GameFinished": GameFinished, "HandVoided": HandVoided,
}
CODEC: EventCodec[Event] = kernel.codec(EVENT_TYPES, _CODECS, UPCASTERS)
to_json = CODEC.to_json
from_json = CODEC.from_json

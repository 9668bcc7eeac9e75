"""Events: the facts a game is made of, in the past tense.

Each event type is a frozen dataclass with a registered name and a
``schema_version``; the kernel's codec (:mod:`domain.codec`) writes it as
``{"type", "schema_version", "data"}``::

    >>> e = CardTrailed(seat=0, card=Card.parse("5C"))
    >>> to_json(e)
    {'type': 'CardTrailed', 'schema_version': 1, 'data': {'seat': 0, 'card': '5C'}}
    >>> from_json(to_json(e)) == e
    True

When an event type changes, its ``schema_version`` goes up and an
upcaster for the old version is registered in :data:`UPCASTERS`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from .. import codec
from ..cards import Card
from .. import clocks
from ..clocks import ClockRule
from ..rating import CHANGES_CODEC, RatingChange
from ..codec import Codec, EventCodec, Upcasters
from .options import Options
from .state import Award, EndReason, Seat
from .table import Build


class Event(codec.Event):
    """Base class of Cassino's events."""


@dataclass(frozen=True, slots=True)
class GameCreated(Event):
    variant: str
    options: Options
    seats: tuple[Seat, ...]
    first_dealer: int


@dataclass(frozen=True, slots=True)
class ClockSet(Event):
    """The game's clock, given at its creation (right after ``GameCreated``)."""

    clock: ClockRule


@dataclass(frozen=True, slots=True)
class RatedSet(Event):
    """The game is rated (given at its creation, after ``GameCreated`` and
    any ``ClockSet``): its seats are registered players', and its result
    moves their ratings."""


@dataclass(frozen=True, slots=True)
class RatingsChanged(Event):
    """The finished rated game moved each seat's player's rating (:mod:`domain.rating`)."""

    changes: tuple[RatingChange, ...]


@dataclass(frozen=True, slots=True)
class SeatJoined(Event):
    """``name`` took the open seat ``seat``; ``player`` is its player id, if any."""

    seat: int
    name: str
    player: str | None = None


@dataclass(frozen=True, slots=True)
class SeatLeft(Event):
    """The holder of ``seat`` got up before the first deal: the seat is open again."""

    seat: int


@dataclass(frozen=True, slots=True)
class SeatResigned(Event):
    """``seat`` gave the game up; ``GameFinished`` follows."""

    seat: int


@dataclass(frozen=True, slots=True)
class GameAborted(Event):
    """``seat`` called the game off before the first play; ``GameFinished`` (no winner) follows."""

    seat: int


@dataclass(frozen=True, slots=True)
class TimedOut(Event):
    """``seat``'s clock ran out. With ``computer`` the service moves for it
    (the move's events follow), else ``GameFinished`` follows: its side lost."""

    seat: int
    computer: bool = False


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
    """The last play is taken back: the game is as it was before it, its
    clock too (``restores_clock``: the time since is the mover's). The
    play's own event stays in the log.

    Version 2 added ``restores_clock``: a version 1 take-back left the clock
    as it stood."""

    schema_version: ClassVar[int] = 2

    seat: int  # whose play it was
    forced: bool = False  # by the operator, without asking
    restores_clock: bool = True


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
    tuple[RatingChange, ...]: CHANGES_CODEC,
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

#: The project's upcasters. Each change to an event type adds one here, with a
#: golden test on a stored payload of the old version.
UPCASTERS = Upcasters()


@UPCASTERS.register("HandDealt", 1)
def _hand_dealt_v1(data: dict[str, Any]) -> dict[str, Any]:
    """Version 1 had no fair-dealing fields: such a deck was given, not derived."""
    return {**data, "commitment": None, "client_seeds": []}


@UPCASTERS.register("RoundDealt", 1)
def _round_dealt_v1(data: dict[str, Any]) -> dict[str, Any]:
    """Version 1 dealt every card of a round to the hands."""
    return {**data, "table": []}


UPCASTERS.register("PlayUndone", 1)(clocks.kept_on_take_back)


CODEC: EventCodec[Event] = EventCodec(
    (GameCreated, ShuffleCommitted, ClientSeedSet, HandDealt, InitialPairsTaken, RoundDealt, CardTrailed,
     CardsCaptured, BundleStolen, BuildMade, CardDrawn, CardPlucked, PointsScored, HandEnded, SeedRevealed,
     CountedOut, GameFinished, UndoRequested, UndoAnswered, PlayUndone, HandVoided, ClockSet, SeatJoined,
     SeatLeft, SeatResigned, GameAborted, TimedOut, RatedSet, RatingsChanged),
    _CODECS, UPCASTERS)
#: Cassino's events by stored type name.
EVENT_TYPES = CODEC.types
to_json = CODEC.to_json
from_json = CODEC.from_json

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

The kernel's codec (:mod:`domain.codec`) writes and reads them. A change
to an event bumps its version and registers an upcaster in ``UPCASTERS``
(old data in, current data out), applied by ``from_json``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from .. import clocks, codec
from ..cards import Card
from ..clocks import ClockRule
from ..rating import CHANGES_CODEC, RatingChange
from ..codec import EventCodec, Upcasters
from .rules import Options


class Event(codec.Event):
    """Base class of Mass Cool Casino's events."""


@dataclass(frozen=True, slots=True)
class TableOpened(Event):
    """A game is created: its seats, first dealer and resolved options."""

    names: tuple[str | None, ...]  # None: an open seat
    first_dealer: int
    options: Options


@dataclass(frozen=True, slots=True)
class TimerSet(Event):
    """The game's clock, given at its creation (right after ``TableOpened``)."""

    clock: ClockRule


@dataclass(frozen=True, slots=True)
class TableRated(Event):
    """The game is rated (given at its creation, after ``TableOpened`` and
    any ``TimerSet``): its seats are registered players', and its result
    moves their ratings."""


@dataclass(frozen=True, slots=True)
class TableRatingsChanged(Event):
    """The finished rated game moved each seat's player's rating (:mod:`domain.rating`)."""

    changes: tuple[RatingChange, ...]


@dataclass(frozen=True, slots=True)
class PlayerSeated(Event):
    """``name`` took the open seat ``seat``; ``player`` is its player id, if any."""

    seat: int
    name: str
    player: str | None = None


@dataclass(frozen=True, slots=True)
class PlayerUnseated(Event):
    """The holder of ``seat`` got up before the deal: the seat is open again."""

    seat: int


@dataclass(frozen=True, slots=True)
class PlayerResigned(Event):
    """``seat`` gave the game up; ``MoneyCounted`` follows."""

    seat: int


@dataclass(frozen=True, slots=True)
class TableAborted(Event):
    """``seat`` called the game off before the first bet; ``MoneyCounted`` (no winner) follows."""

    seat: int


@dataclass(frozen=True, slots=True)
class TurnTimedOut(Event):
    """``seat``'s clock ran out. With ``computer`` the service moves for it
    (the move's events follow), else ``MoneyCounted`` follows without it."""

    seat: int
    computer: bool = False


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
    """The latest bet or stop is taken back, and the clock with it
    (``restores_clock``: the time since is the mover's); its own event
    stays in the log.

    Version 2 added ``restores_clock``: a version 1 take-back left the clock
    as it stood."""

    schema_version: ClassVar[int] = 2

    seat: int
    forced: bool = False  # by the operator, without asking
    restores_clock: bool = True


#: Upcasters: each change to an event type registers one here, with a golden
#: test on a stored payload of the old version.
UPCASTERS = Upcasters()
UPCASTERS.register("BetTakenBack", 1)(clocks.kept_on_take_back)

CODEC: EventCodec[Event] = EventCodec(
    (TableOpened, ShufflePromised, MoneyDealt, HandsDrawn, BetPlaced, StopCalled, PotWon, PotTied, DeckReshuffled,
     ShuffleRevealed, MoneyCounted, BetUndoAsked, BetUndoAnswered, BetTakenBack, TimerSet, PlayerSeated,
     PlayerUnseated, PlayerResigned, TableAborted, TurnTimedOut, TableRated, TableRatingsChanged),
    {Options: (Options.to_dict, Options.from_dict), tuple[RatingChange, ...]: CHANGES_CODEC}, UPCASTERS)
#: Mass Cool Casino's events by stored type name.
EVENT_TYPES = CODEC.types
to_json = CODEC.to_json
from_json = CODEC.from_json

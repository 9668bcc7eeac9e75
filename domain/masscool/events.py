"""The facts of a game of Mass Cool Casino, in the past tense.

Each event is a frozen dataclass registered under a stored name (declared
in :data:`EVENT_TYPES`, not its class's name) with a ``schema_version``; its
JSON form is ``{"type", "schema_version", "data"}`` like Cassino's events,
and no name of its own is shared with another game's, so a log's first
event names its game::

    >>> e = BetPlaced(seat=1, cards=(Card.parse("KS"), Card.parse("7H")))
    >>> to_json(e)
    {'type': 'BetPlaced', 'schema_version': 1, 'data': {'seat': 1, 'cards': ['KS', '7H']}}
    >>> from_json(to_json(e)) == e
    True

The kernel's codec (:mod:`domain.codec`) writes and reads them. A change
to an event bumps its version and registers an upcaster in ``UPCASTERS``
(old data in, current data out), applied by ``from_json``.

What every game records the same way (seats, resigning, aborting, clocks
and time-outs, ratings, rematches, undo) is the kernel's
(:mod:`domain.kernel_events`); this game's codec reads and writes those too.
"""

from __future__ import annotations

from dataclasses import dataclass

from .. import codec
from .. import kernel_events as kernel
from ..cards import Card
from ..codec import EventCodec
from .rules import Options


#: Mass Cool Casino's events and the kernel's share one base class: a game's
#: handlers return both.
Event = codec.Event


@dataclass(frozen=True, slots=True)
class TableOpened(Event):
    """A game is created: its seats, first dealer and resolved options."""

    names: tuple[str | None, ...]  # None: an open seat
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





#: The names Mass Cool Casino stored the kernel's events under before the
#: kernel had them (:mod:`domain.kernel_events`): read as the kernel's, for good.
LEGACY_NAMES: dict[str, type[codec.Event]] = {
    "TimerSet": kernel.ClockSet,
    "TableRated": kernel.RatedSet,
    "TableRatingsChanged": kernel.RatingsChanged,
    "TableRematchAnswered": kernel.RematchAnswered,
    "PlayerSeated": kernel.SeatJoined,
    "PlayerUnseated": kernel.SeatLeft,
    "PlayerResigned": kernel.SeatResigned,
    "TableAborted": kernel.GameAborted,
    "TurnTimedOut": kernel.TimedOut,
    "BetUndoAsked": kernel.UndoRequested,
    "BetUndoAnswered": kernel.UndoAnswered,
    "BetTakenBack": kernel.PlayUndone,
}

#: Upcasters (the kernel's among them): each change to an event type registers
#: one here, with a golden test on a stored payload of the old version.
UPCASTERS = kernel.legacy_upcasters(LEGACY_NAMES)

#: Mass Cool Casino's own events by stored name (the kernel's are
#: :data:`domain.kernel_events.EVENT_TYPES`).
EVENT_TYPES: dict[str, type[Event]] = {
    "TableOpened": TableOpened, "ShufflePromised": ShufflePromised, "MoneyDealt": MoneyDealt,
    "HandsDrawn": HandsDrawn, "BetPlaced": BetPlaced, "StopCalled": StopCalled, "PotWon": PotWon,
    "PotTied": PotTied, "DeckReshuffled": DeckReshuffled, "ShuffleRevealed": ShuffleRevealed,
    "MoneyCounted": MoneyCounted,
}
CODEC: EventCodec[Event] = kernel.codec(EVENT_TYPES, {Options: (Options.to_dict, Options.from_dict)}, UPCASTERS)
to_json = CODEC.to_json
from_json = CODEC.from_json

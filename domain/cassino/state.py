"""The state of a game: what a complete, all-seeing record of the table holds.

A :class:`GameState` is never stored. It is the fold of the game's events
(see :mod:`domain.evolve`), and it is immutable: every event gives a new one.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Any, NamedTuple

from .. import standing
from ..cards import Card
from ..clocks import Clock
from ..rating import RatingChange
from .options import Options
from .table import Build, TableItem, item_id

@dataclass(frozen=True, slots=True)
class Award:
    """Points a team scored in one category of a hand (:mod:`.scoring` counts them)."""

    category: str  # most_cards, most_spades, big_casino, little_casino, ace_S, ..., sweeps
    team: int
    points: int


class Status(StrEnum):
    """Where a game stands. A ``StrEnum``: it compares equal to, and is
    written in JSON as, its value; the first and the last are every game's
    (:mod:`domain.standing`)."""

    WAITING = standing.WAITING  # created, not dealt yet
    IN_PROGRESS = "in_progress"  # a hand is being played
    HAND_OVER = "hand_over"  # between hands: the next dealer deals
    FINISHED = standing.FINISHED


class EndReason(StrEnum):
    """Why a game ended (``GameFinished.reason``)."""

    TARGET = "target"  # a side reached the target score
    STRIKES = "strikes"  # instant scores against a side reached ``strikes_to_lose``
    COUNT_OUT = "count_out"  # a side claimed to have reached it, rightly or not
    SINGLE_HAND = "single_hand"  # a game of one hand (no target) was won
    LAST_DEAL = "last_deal"  # a game of a fixed number of deals was won
    ALL_ELEVEN = "all_eleven"  # a side took all eleven points (``all_eleven``)
    DRAW = "draw"  # nobody won
    RESIGNED = "resigned"  # a seat gave the game up: its side lost
    TIMED_OUT = "timed_out"  # a seat's clock ran out: its side lost
    ABORTED = "aborted"  # a seat called the game off before the first play: nobody won


WAITING, IN_PROGRESS, HAND_OVER, FINISHED = Status


@dataclass(frozen=True, slots=True)
class Seat:
    name: str | None  # None: an open seat, which nobody holds yet
    team: int


@dataclass(frozen=True, slots=True)
class Outcome:
    """How a game ended: the winning team (None for a draw) and why."""

    winner: int | None
    reason: EndReason


class GameState(NamedTuple):
    """Everything about a game at one moment (an immutable named tuple: folding
    makes a new one per event, and tuples are the cheapest to copy)."""

    variant: str
    options: Options
    seats: tuple[Seat, ...]
    status: Status = WAITING
    version: int = 0
    hand_number: int = 0
    dealer: int = 0
    turn: int | None = None
    round: int = 0
    last_round: bool = False
    stock: tuple[Card, ...] = ()
    hands: tuple[tuple[Card, ...], ...] = ()
    table: tuple[TableItem, ...] = ()
    captured: tuple[tuple[Card, ...], ...] = ()
    sweeps: tuple[int, ...] = ()
    last_capturer: int | None = None
    last_capture: tuple[Card, ...] = ()  # the cards of the latest capture, seen by all
    next_build: int = 1
    scores: tuple[int, ...] = ()
    outcome: Outcome | None = None
    # Fair dealing: the committed secret for the next deal, and the seats' own seeds.
    seed: str | None = None
    commitment: str | None = None
    client_seeds: tuple[str, ...] = ()
    # Undo: the state before the last play, whose play it was, a pending request.
    before_play: GameState | None = None
    last_player: int | None = None
    undo_request: int | None = None
    undo_accepted: tuple[int, ...] = ()
    redeal: bool = False  # the hand was voided: the same dealer deals again
    instant_awards: tuple[Award, ...] = ()  # points already scored in this hand (instant scoring)
    plucked: tuple[int, ...] = ()  # seats that have plucked since the last deal (Pluck)
    just_played: Card | None = None  # the card of the latest play, which may not be plucked
    # (seat, build id): the builds each seat's latest play made or changed (owner_duty: next_turn)
    fresh_builds: tuple[tuple[int, str], ...] = ()
    strikes: tuple[int, ...] = ()  # instant scores against each team so far (strikes_to_lose); () for none
    player_ids: tuple[str | None, ...] = ()  # the player holding each seat, when it joined as one
    played: bool = False  # a play stands (the game can no longer be aborted)
    stood_in: int | None = None  # the seat the service is about to move for, its time being out
    clock: Clock | None = None  # the kernel's (domain.folding): None for a game without one
    rated: bool = False  # its result moves its players' ratings (domain.rating)
    rating_changes: tuple[RatingChange, ...] = ()  # what it did to them, once finished and rated

    # -- seats and teams ----------------------------------------------------

    @property
    def players(self) -> int:
        return len(self.seats)

    @property
    def teams(self) -> int:
        return max(s.team for s in self.seats) + 1

    def team_of(self, seat: int) -> int:
        return self.seats[seat].team

    @property
    def names(self) -> tuple[str | None, ...]:
        """Each seat's name, None for an open seat."""
        return tuple(s.name for s in self.seats)

    def team_seats(self, team: int) -> tuple[int, ...]:
        return tuple(i for i, s in enumerate(self.seats) if s.team == team)

    def left_of(self, seat: int) -> int:
        """The next seat in turn order: the player to the left (clockwise),
        or to the right with ``counter_clockwise`` (African)."""
        return next_seat(seat, len(self.seats), self.options)

    @property
    def next_dealer(self) -> int:
        """Who deals the next hand: the first dealer, then the deal passes on
        in turn order (after a voided hand, the same dealer deals again)."""
        return self.dealer if self.hand_number == 0 or self.redeal else self.left_of(self.dealer)

    # -- the table ----------------------------------------------------------

    def item(self, ident: str) -> TableItem | None:
        for it in self.table:
            if item_id(it) == ident:
                return it
        return None

    def builds(self) -> tuple[Build, ...]:
        return tuple(it for it in self.table if isinstance(it, Build))

    def builds_of(self, seat: int) -> tuple[Build, ...]:
        """The builds ``seat`` owns (was last to make, raise or add to)."""
        return tuple(it for it in self.table if isinstance(it, Build) and it.owner == seat)

    def team_captures(self, team: int) -> tuple[Card, ...]:
        return tuple(c for s in self.team_seats(team) for c in self.captured[s])

    @property
    def is_over(self) -> bool:
        return self.status == FINISHED


def next_seat(seat: int, players: int, options: Options) -> int:
    """The seat after ``seat`` in turn order. Seats are numbered clockwise, so
    counter-clockwise play goes down the numbers."""
    return (seat - 1 if options.counter_clockwise else seat + 1) % players


_FIELD_INDEX = {name: i for i, name in enumerate(GameState._fields)}


def replace_state(state: GameState, **changes: Any) -> GameState:
    """``state._replace(**changes)``, faster: folding makes one state per
    event, so this sits on the hot path of every load."""
    values = list(state)
    for name, value in changes.items():
        values[_FIELD_INDEX[name]] = value
    return tuple.__new__(GameState, values)

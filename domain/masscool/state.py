"""The state of a game of Mass Cool Casino, as a complete record of the table.

Like Cassino's, it is never stored: it is the fold of the game's events, and
immutable. Each seat has its *money* (face up), its *bet* in the current
pot (face up) and its *hand* (one hidden card, or None). The rest of the
cards are in the *stock* (face down, top first), the *discards* (hands shown
at a won showdown) or *gathered* (a tied pot waiting to be reshuffled).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import NamedTuple

from .. import standing
from ..cards import Card
from ..clocks import Clock
from ..rating import RatingChange
from .rules import GAME_TYPE, Options

class Status(StrEnum):
    """Where a game stands (a ``StrEnum``, written as its value); the first
    and the last are every game's (:mod:`domain.standing`)."""

    WAITING = standing.WAITING  # created, not dealt yet
    BETTING = "betting"  # a round is being bet (or, between two events of a command, shown down)
    RESHUFFLE = "reshuffle"  # a tied pot waits for its reshuffle
    FINISHED = standing.FINISHED


WAITING, BETTING, RESHUFFLE, FINISHED = Status


@dataclass(frozen=True, slots=True)
class Outcome:
    """How the game ended. ``winners`` holds one seat, or every seat tied on
    the highest total (a shared win); ``totals`` are the money counts."""

    winners: tuple[int, ...]
    reason: str  # "deck_out", "last_player", "resigned", "timed_out" or "aborted"
    totals: tuple[int, ...]


class MassCoolState(NamedTuple):
    names: tuple[str | None, ...]  # None: an open seat, which nobody holds yet
    options: Options
    first_dealer: int
    status: Status = WAITING
    version: int = 0
    money: tuple[tuple[Card, ...], ...] = ()
    bets: tuple[tuple[Card, ...], ...] = ()
    hands: tuple[Card | None, ...] = ()
    out: tuple[bool, ...] = ()  # knocked out of the game
    stock: tuple[Card, ...] = ()
    discards: tuple[Card, ...] = ()
    gathered: tuple[Card, ...] = ()  # a tied pot and its hands, to be shuffled into the stock
    round: int = 0  # pots contested so far; a tied pot is played again under the same number
    leader: int = 0  # who begins the betting of this round
    turn: int | None = None
    stopped_by: int | None = None
    shown: tuple[Card | None, ...] = ()  # the hands of the latest showdown, seen by all
    pot_winner: int | None = None  # of the latest showdown (None: a tie, or none yet)
    # Fair dealing: shuffles used so far, the seed behind the deck in use (to
    # reveal once it is spent), and the committed seed of the next shuffle.
    shuffles: int = 0
    seed: str | None = None
    next_commitment: str | None = None
    next_seed: str | None = None
    # Undo: the state before the latest bet or stop, whose it was, a pending request.
    before_move: MassCoolState | None = None
    last_actor: int | None = None
    undo_request: int | None = None
    undo_accepted: tuple[int, ...] = ()
    outcome: Outcome | None = None
    player_ids: tuple[str | None, ...] = ()  # the player holding each seat, when it joined as one
    played: bool = False  # a bet or a stop stands (the game can no longer be aborted)
    stood_in: int | None = None  # the seat the service is about to move for, its time being out
    clock: Clock | None = None  # the kernel's (domain.folding): None for a game without one
    rated: bool = False  # its result moves its players' ratings (domain.rating)
    rating_changes: tuple[RatingChange, ...] = ()  # what it did to them, once finished and rated

    @property
    def players(self) -> int:
        return len(self.names)

    @property
    def variant(self) -> str:
        """The game's preset: it has one, named after the game."""
        return GAME_TYPE

    @property
    def in_game(self) -> tuple[int, ...]:
        """The seats not knocked out, in seat order."""
        return tuple(s for s in range(self.players) if not self.out[s])

    def left_of(self, seat: int) -> int:
        """The next seat clockwise that is still in the game."""
        n = self.players
        for step in range(1, n + 1):
            nxt = (seat + step) % n
            if not self.out[nxt]:
                return nxt
        return seat

    def clockwise_from(self, seat: int) -> tuple[int, ...]:
        """The seats in the game, clockwise, beginning with ``seat``."""
        n = self.players
        return tuple(s for s in ((seat + i) % n for i in range(n)) if not self.out[s])

    @property
    def highest_bet(self) -> int:
        return max(len(b) for b in self.bets)

    def owes(self, seat: int) -> int:
        """After a stop: the cards ``seat`` still bets to even out (fewer when
        its money runs short)."""
        return min(self.highest_bet - len(self.bets[seat]), len(self.money[seat]))

    @property
    def is_over(self) -> bool:
        return self.status == FINISHED

"""What a legal move does, and facts about the turn it is played in."""

from __future__ import annotations

from dataclasses import dataclass

from ...cards import Card
from ..moves import Move
from ..state import GameState
from ..table import Build, TableItem


@dataclass(frozen=True, slots=True)
class Play:
    """What a legal move does."""

    seat: int
    move: Move
    taken: tuple[TableItem, ...]  # the table items the move takes or builds on
    build: Build | None = None  # the build the move leaves on the table
    sweep: bool = False  # a capture that clears the table and scores as a sweep
    stolen: tuple[Card, ...] = ()  # the bundle a steal takes from an opponent's pile
    pips: int = 0  # with ``sweep_pips``, what the sweep scores: the total the table's cards make
    default: bool = False  # with ``duty_penalty``, the move breaks the owner's duty and costs points

    @property
    def captured(self) -> tuple[Card, ...]:
        """The cards a capture (or a steal) takes in, the played card last."""
        out: list[Card] = list(self.stolen)
        for it in self.taken:
            out.extend(it.cards if isinstance(it, Build) else (it,))
        return (*out, self.move.card)


def is_last_play(state: GameState, seat: int) -> bool:
    """True when this play is the last card of the hand."""
    return not state.stock and sum(len(h) for h in state.hands) == 1


def counts_as_sweep(state: GameState, seat: int, taken: int) -> bool:
    """Whether a play that takes ``taken`` table items scores as a sweep: it
    clears the table, sweeps are scored, and (``sweep_on_last_play``) it may
    be the hand's last card."""
    opts = state.options
    return (taken == len(state.table) and opts.sweeps > 0
            and (opts.sweep_on_last_play or not is_last_play(state, seat)))

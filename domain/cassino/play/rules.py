"""The rules of a turn a game's options make: which kinds of move it has.

:func:`rules_for` turns :class:`~..options.Options` into :class:`Rules`
once per game: a tuple of :class:`~.kind.MoveKind` per action (the first
that answers a move checks it), the passes listing walks, and the owner's
duty. This is the one place where an option that brings a kind of move is
plugged in; the kinds themselves read no option flags while they work.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field

from ...cards import Card
from ...errors import RuleViolation
from ..moves import Action, Move, pile_seat
from ..options import Options
from ..state import FINISHED, IN_PROGRESS, GameState
from ..table import TableItem
from .build import NumberBuild
from .capture import SumCapture
from .court import CourtBuild, CourtCapture, TableCapture
from .duty import DUTIES, OwnerDuty
from .kind import Absent, MoveKind, Phase
from .listing import Budget, Lister
from .piles import NoPiles, PileAugment
from .pluck import Pluck
from .steal import Steal
from .trail import FIVE_OF_SPADES, Trail
from .turn import Play
from .values import assignments, values_of

_NO_PLUCK = Absent(Action.PLUCK, "pluck_not_allowed", "This game has no plucking.", on_turn=False, on_table=False)
_NO_STEAL = Absent(Action.STEAL, "illegal_steal", "This game has no stealing of bundles.", on_table=False)
_RANK_ONLY = Absent(Action.BUILD, "illegal_build", "There are no builds in this game: cards pair by rank only.")
_NO_BUILDS = Absent(Action.BUILD, "illegal_build", "There are no builds in this game: trail or capture.")


def _builds(o: Options) -> tuple[MoveKind, ...]:
    """The kinds of build a game has, by the card played."""
    if o.capture_by == "rank":
        return (_RANK_ONLY,)
    if not o.builds:
        return (_NO_BUILDS,)
    return (*((CourtBuild(),) if o.court_builds else ()), NumberBuild(o))


def _kinds(o: Options) -> tuple[MoveKind, ...]:
    """Every kind of move of a game with options ``o``; within an action, the
    first that answers a move checks it."""
    builds = _builds(o)
    return (
        Trail(FIVE_OF_SPADES if o.spade_five_sweeps else None),
        *((TableCapture(),) if o.jack_takes_all else ()), CourtCapture(o), SumCapture(o),
        PileAugment(o, builds) if o.augment_from_piles else NoPiles(), *builds,
        Pluck(o) if o.pluck else _NO_PLUCK,
        Steal() if o.steal_bundles else _NO_STEAL,
    )


@dataclass(frozen=True)
class Rules:
    """The kinds of move of one game, and its owner's duty."""

    kinds: tuple[MoveKind, ...]
    duty: OwnerDuty
    by_action: dict[Action, tuple[MoveKind, ...]] = field(init=False)
    listing: dict[Phase, tuple[MoveKind, ...]] = field(init=False)  # the passes of listing, in order

    def __post_init__(self) -> None:
        object.__setattr__(self, "by_action", {a: tuple(k for k in self.kinds if k.action == a) for a in Action})
        passes = {p: tuple(k for k in self.kinds if p in k.phases) for p in Phase}
        object.__setattr__(self, "listing", {p: kinds for p, kinds in passes.items() if kinds})

    def kind_for(self, move: Move) -> MoveKind:
        kinds = self.by_action[move.action]
        if len(kinds) == 1:
            return kinds[0]
        return next(k for k in kinds if k.answers(move))

    def resolve(self, state: GameState, seat: int, move: Move) -> Play:
        """Check ``move`` by ``seat`` now; return what it does or raise RuleViolation."""
        _check_in_play(state, seat)
        kind = self.kind_for(move)
        if kind.on_turn:
            _check_turn(state, seat, move.card)
        items = _targets(state, move, kind.names_piles) if kind.on_table else ()
        play = kind.play(state, seat, move, items)
        return self.duty.check(state, seat, play) if kind.bound_by_duty else play

    def is_legal(self, state: GameState, seat: int, move: Move) -> bool:
        try:
            self.resolve(state, seat, move)
        except RuleViolation:
            return False
        return True

    def moves(self, state: GameState, seat: int, budget: Budget) -> Iterator[Move]:
        """Every legal move once. Cards with a choice of values (a Royal ace,
        say) are given each of their values in turn, one pass per choice."""
        loose = [it for it in state.table if isinstance(it, Card) and values_of(it, state.options)]
        seen: set[Move] = set()
        for values in assignments(loose, state.options):
            yield from Lister(self, state, seat, budget, seen, dict(zip(loose, values))).moves()


_MADE: dict[int, tuple[Options, Rules]] = {}  # by the id of the options, which the entry keeps alive


def rules_for(options: Options) -> Rules:
    """The rules ``options`` make, made once per options object."""
    found = _MADE.get(id(options))
    if found is not None and found[0] is options:
        return found[1]
    if len(_MADE) >= 256:
        _MADE.clear()
    rules = Rules(_kinds(options), DUTIES[options.owner_duty](options))
    _MADE[id(options)] = (options, rules)
    return rules


def _check_in_play(state: GameState, seat: int) -> None:
    if state.status == FINISHED:
        raise RuleViolation("game_over", "The game is over.")
    if state.status != IN_PROGRESS:
        raise RuleViolation("no_hand_in_progress", "No hand is being played: the dealer deals next.")
    if not 0 <= seat < state.players:
        raise RuleViolation("not_a_seat", f"There is no seat {seat}.")


def _check_turn(state: GameState, seat: int, card: Card) -> None:
    if state.turn != seat:
        raise RuleViolation("not_your_turn", f"It is seat {state.turn}'s turn, not yours.")
    if card not in state.hands[seat]:
        raise RuleViolation("card_not_in_hand", f"{card.code} is not in your hand.")


def _targets(state: GameState, move: Move, skip_piles: bool) -> tuple[TableItem, ...]:
    """The table items a move names (a seat's pile, where the kind takes
    one, is its kind's to read)."""
    on_table = {it.id: it for it in state.table}  # one pass, not one per target
    items = []
    seen = set()
    for ident in move.targets:
        if skip_piles and pile_seat(ident) is not None:
            continue
        if ident in seen:
            raise RuleViolation("duplicate_target", f"You named {ident} twice.")
        seen.add(ident)
        it = on_table.get(ident)
        if it is None:
            raise RuleViolation("target_not_on_table", f"{ident} is not on the table.")
        items.append(it)
    return tuple(items)

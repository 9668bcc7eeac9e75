"""The rules of a turn a game's options make: which kinds of move it has.

:func:`rules_for` turns :class:`~..options.Options` into :class:`Rules`
once per game: a tuple of :class:`~.kind.MoveKind` per action (the first
that answers a move checks it), the passes listing walks, and the owner's
duty. This is the one place where an option that brings a kind of move is
plugged in; the kinds themselves read no option flags while they work.

The generators are the rules: :meth:`Rules.resolve` accepts a move when a
generation targeted at it makes it, and answers the play that generation
made, so what is listed and what is accepted cannot differ. The kinds'
checks say why a move is refused (:meth:`Rules.check`); listing puts the
first move of a template to them only where the generator that made it
leaves a rule to them (the owner's duty, say).
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from itertools import chain, islice, product
from types import MappingProxyType
from typing import NoReturn

from ...cards import Card, full_deck
from ...errors import RuleViolation
from ...paging import Budget
from ..moves import Action, Move, pile_seat
from ..options import Options
from ..state import FINISHED, IN_PROGRESS, GameState
from ..table import TableItem
from .build import NumberBuild
from .capture import SumCapture
from .court import CourtBuild, CourtCapture, TableCapture
from .duty import DUTIES, OwnerDuty
from .kind import Absent, MoveKind, Phase
from .listing import ANY, Lister, Narrow, Target
from .piles import NoPiles, PileAugment
from .pluck import Pluck
from .steal import Steal
from .trail import FIVE_OF_SPADES, Trail
from .turn import Play
from .values import worth

Route = tuple[Phase, MoveKind]  # a pass, and the kind whose cards it walks

_EVERY_PASS = frozenset(Phase)
_FIRST_VALUES: tuple[Mapping[Card, int]] = (MappingProxyType({}),)  # one run, each card its first value
_PLUCKS = frozenset((Phase.PLUCK,))
_NO_PLUCK = Absent(Action.PLUCK, "pluck_not_allowed", "This game has no plucking.", on_turn=False, on_table=False)
_NO_STEAL = Absent(Action.STEAL, "illegal_steal", "This game has no stealing of bundles.", on_table=False)
_RANK_ONLY = Absent(Action.BUILD, "illegal_build", "There are no builds in this game: cards pair by rank only.")
_NO_BUILDS = Absent(Action.BUILD, "illegal_build", "There are no builds in this game: trail or capture.")
#: The rule that refuses a move no generator makes though no check refuses it: the generators are the rules.
_UNMADE = {Action.TRAIL: "illegal_trail", Action.CAPTURE: "illegal_capture", Action.BUILD: "illegal_build",
           Action.PLUCK: "illegal_pluck", Action.STEAL: "illegal_steal"}


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
    worth: dict[Card, tuple[int, ...]]  # what each card may count in sums (``values_of``), looked up once
    by_action: dict[Action, tuple[MoveKind, ...]] = field(init=False)
    listing: dict[Phase, tuple[MoveKind, ...]] = field(init=False)  # the passes of listing, in order
    routes: dict[MoveKind, dict[Card, tuple[Route, ...]]] = field(init=False)  # the passes a kind's moves come from
    choosing: bool = field(init=False)  # whether a card may count one of several values (a Royal ace, say)
    by_card: dict[Action, dict[Card, MoveKind]] = field(init=False)  # a card's kind, where targets do not tell

    def __post_init__(self) -> None:
        object.__setattr__(self, "by_action", {a: tuple(k for k in self.kinds if k.action == a) for a in Action})
        passes = {p: tuple(k for k in self.kinds if p in k.phases) for p in Phase}
        listing = {p: kinds for p, kinds in passes.items() if kinds}
        object.__setattr__(self, "listing", listing)
        object.__setattr__(self, "routes", _routes(self.kinds, listing))
        object.__setattr__(self, "choosing", any(len(values) > 1 for values in self.worth.values()))
        object.__setattr__(self, "by_card", {a: _by_card(kinds) for a, kinds in self.by_action.items()})

    def kind_for(self, move: Move) -> MoveKind:
        """The kind that checks ``move``: the first of its action's that answers it."""
        found = self.by_card[move.action].get(move.card)
        if found is not None:
            return found
        return next(k for k in self.by_action[move.action] if k.answers(move))

    def resolve(self, state: GameState, seat: int, move: Move) -> Play:
        """``move`` by ``seat`` now, if a generation targeted at it makes it:
        return what it does, or raise the RuleViolation that says why not.

        The generation reads what every move needs first (the game in play,
        the seat's turn, the card in hand, its targets on the table), and
        what a move of its kind must look like (:meth:`MoveKind.shape`, the
        first rules of its kind's check), and then looks for the move, making
        its play once found (:meth:`made`). A move it does not make is
        explained by its kind's check (:meth:`check`), which names the rule
        broken. The generators make moves without the words that only say
        how a move is made (a capture's value, groups):
        for a move with them the check reads them first, and the generation
        is asked about the move without them."""
        kind, items, target = self._generated(state, seat, move)
        if target is None:
            self._explain(state, seat, move, kind, items)
        assert target.play is not None
        return target.play

    def _generated(self, state: GameState, seat: int, move: Move, making: bool = True
                   ) -> tuple[MoveKind, tuple[TableItem, ...], Target | None]:
        """The move's kind, the items it names, and the target a generation
        aimed at it reached, its play made unless ``making`` is false (None
        where no generation makes the move; unexplained). Raises the
        RuleViolation of the rules read before the generation: what every
        move needs, the kind's shape, and a move's own words (its value and
        groups, read by the check)."""
        kind, items = self._read(state, seat, move)
        asked = _as_made(move)
        if asked is move:
            kind.shape(state, seat, move, items)
            target = Target(move, items, making=making)
            return kind, items, target if self._makes(state, seat, target, kind) else None
        target = Target(asked, items, self._checked(state, seat, move, kind, items))
        if not self._makes(state, seat, target, kind):
            raise _unmade(move)
        return kind, items, target

    def check(self, state: GameState, seat: int, move: Move) -> Play:
        """The check of ``move``'s kind, what every move needs first and the
        owner's duty after: what it does, or the RuleViolation naming the rule
        it breaks. It explains a refusal; the generators put the first move
        of each template they list to it."""
        kind, items = self._read(state, seat, move)
        return self._checked(state, seat, move, kind, items)

    def made(self, state: GameState, seat: int, target: Target) -> Play | None:
        """The play of the move a targeted generation has made: its kind
        makes it, and the owner's duty has the last word; None where the
        duty refuses it."""
        kind = self.kind_for(target.move)
        try:
            play = kind.made(state, seat, target.move, target.items)
            return self.duty.check(state, seat, play) if kind.bound_by_duty else play
        except RuleViolation:
            return None

    def _read(self, state: GameState, seat: int, move: Move) -> tuple[MoveKind, tuple[TableItem, ...]]:
        """What every move needs first: the game in play, the seat's turn and
        the card in its hand (for a kind played on one's turn), and the table
        items the move names. Returns the move's kind and those items."""
        _check_in_play(state, seat)
        kind = self.kind_for(move)
        if kind.on_turn:
            _check_turn(state, seat, move.card)
        return kind, _targets(state, move, kind.names_piles) if kind.on_table else ()

    def _checked(self, state: GameState, seat: int, move: Move, kind: MoveKind, items: tuple[TableItem, ...]) -> Play:
        """The kind's check of ``move``, and the owner's duty after."""
        play = kind.play(state, seat, move, items)
        return self.duty.check(state, seat, play) if kind.bound_by_duty else play

    def _explain(self, state: GameState, seat: int, move: Move, kind: MoveKind,
                 items: tuple[TableItem, ...]) -> NoReturn:
        """Why no generator makes ``move``: the rule its kind's check finds
        broken, or (where the check finds none) that it is not among the legal moves."""
        self._checked(state, seat, move, kind, items)
        raise _unmade(move)

    def accepts(self, state: GameState, seat: int, move: Move) -> bool:
        """Whether :meth:`check` accepts ``move``."""
        try:
            self.check(state, seat, move)
        except RuleViolation:
            return False
        return True

    def is_legal(self, state: GameState, seat: int, move: Move) -> bool:
        """Whether a generation targeted at ``move`` makes it: the question
        :meth:`resolve` asks, without the check that would explain a refusal,
        and without making the play where nothing but the making could still
        refuse it (:meth:`Lister.emit`'s ``proven``)."""
        try:
            return self._generated(state, seat, move, making=False)[2] is not None
        except RuleViolation:
            return False

    def moves(self, state: GameState, seat: int, budget: Budget, narrow: Narrow = ANY) -> Iterator[Move]:
        """Every legal move once (of those ``narrow`` lets through), pass by
        pass. Cards with a choice of values (a Royal ace, say) are given each
        of their values in turn, one run per choice."""
        now = _now(state, seat)
        passes = [(phase, kinds) for phase, kinds in self.listing.items() if phase in now
                  and (narrow.action is None or any(k.action is narrow.action for k in kinds))]
        if not passes:
            return
        seen: set[Move] = set()
        yield from self._exact(state, seat, narrow, seen)
        for chosen in self._choices(state):
            lister = Lister(self, state, seat, budget, seen, chosen, narrow=narrow)
            for phase, kinds in passes:
                yield from _pass(lister, phase, kinds)

    def _exact(self, state: GameState, seat: int, narrow: Narrow, seen: set[Move]) -> Iterator[Move]:
        """With a card and targets named, first the legal moves naming
        exactly those (a capture of them, a build of each value on them, a
        steal of them), each checked by a targeted generation: on a crowded
        table they may come late in listing's order, and they are what a
        player who has chosen those pieces means."""
        if narrow.card is None or not narrow.targets:
            return
        targets = tuple(narrow.targets)
        made = [Move(narrow.card, Action.CAPTURE, targets), Move(narrow.card, Action.STEAL, targets),
                *(Move(narrow.card, Action.BUILD, targets, v) for v in range(1, state.options.highest_value + 1))]
        for move in made:
            if narrow.action in (None, move.action) and self.is_legal(state, seat, move):
                seen.add(move)
                yield move

    def _makes(self, state: GameState, seat: int, target: Target, kind: MoveKind) -> bool:
        """Whether the kinds make ``target``'s move: a generation targeted at
        it, run by run as :meth:`moves` runs, and bound by no budget. It
        walks only the passes of the move's card whose kind for the card is
        ``kind``, the kind that answers for the move (:attr:`routes`: a build
        naming no pile is not looked for among those that use piles)."""
        card, now = target.move.card, _now(state, seat)
        routes = self.routes[kind].get(card, ())
        if now is not _EVERY_PASS:
            routes = tuple([r for r in routes if r[0] in now])
        for chosen in self._choices(state) if routes else ():
            lister = Lister(self, state, seat, Budget(None), set(), chosen, target)
            for phase, source in routes:
                if _made(lister, kind, card, phase, source):
                    return True
        return False

    def _choices(self, state: GameState) -> Iterable[Mapping[Card, int]]:
        """Each way to give the loose cards with a choice of values one of
        them: first every card its first value (no choice), then the others in turn."""
        if not self.choosing:
            return _FIRST_VALUES
        worth = self.worth
        several = [it for it in state.table if isinstance(it, Card) and len(worth[it]) > 1]
        others = islice(product(*[worth[c] for c in several]), 1, None)
        return chain(_FIRST_VALUES, (dict(zip(several, values)) for values in others))


def _made(lister: Lister, kind: MoveKind, card: Card, phase: Phase, source: MoveKind) -> bool:
    """Whether ``kind`` makes a move of ``card`` in ``phase``, whose cards
    are those ``source`` walks (a card of the hand is among them where the
    kind plays from the hand: the rules have seen to that)."""
    if not kind.on_turn and card not in source.cards(lister):
        return False
    return next(iter(kind.moves(lister, card, phase)), None) is not None


def _now(state: GameState, seat: int) -> Collection[Phase]:
    """The passes that make moves for ``seat`` now: every one on its turn,
    the plucks just after its play, none while no hand is played."""
    if state.status != IN_PROGRESS:
        return ()
    if state.turn == seat:
        return _EVERY_PASS
    return _PLUCKS if seat == state.last_player else ()


def _pass(lister: Lister, phase: Phase, kinds: Sequence[MoveKind]) -> Iterator[Move]:
    """The moves of one pass: each card the first of ``kinds`` walks, by the
    first of them that takes it."""
    action = lister.narrow.action
    for card in lister.narrow.card_of(kinds[0].cards(lister)):
        kind = next((k for k in kinds if k.takes(card)), None)
        if kind is not None and (action is None or kind.action is action):
            yield from kind.moves(lister, card, phase)


def _by_card(kinds: tuple[MoveKind, ...]) -> dict[Card, MoveKind]:
    """For each card, the first of ``kinds`` that answers its moves, where
    that is known from the card alone (no kind before it asks the targets,
    as one that plays from capture piles does); the rest are looked up move
    by move. An action of one kind has it answer every move."""
    if len(kinds) == 1:
        return dict.fromkeys(full_deck(), kinds[0])
    out: dict[Card, MoveKind] = {}
    for card in full_deck():
        for k in kinds:
            if type(k).answers is not MoveKind.answers:
                break
            if k.takes(card):
                out[card] = k
                break
    return out


def _routes(kinds: tuple[MoveKind, ...], listing: dict[Phase, tuple[MoveKind, ...]]
            ) -> dict[MoveKind, dict[Card, tuple[Route, ...]]]:
    """For each kind and card, the passes of listing whose kind for the card
    (the first that takes it) is that kind, each with the kind whose cards
    the pass walks: what a generation targeted at one move of the kind with
    the card walks, in listing's order."""
    out: dict[MoveKind, dict[Card, list[Route]]] = {kind: {} for kind in kinds}
    for card in full_deck():
        for phase, walked in listing.items():
            kind = next((k for k in walked if k.takes(card)), None)
            if kind is not None:
                out[kind].setdefault(card, []).append((phase, walked[0]))
    return {kind: {card: tuple(routes) for card, routes in by_card.items()} for kind, by_card in out.items()}


_MADE: dict[int, tuple[Options, Rules]] = {}  # by the id of the options, which the entry keeps alive


def rules_for(options: Options) -> Rules:
    """The rules ``options`` make, made once per options object."""
    found = _MADE.get(id(options))
    if found is not None and found[0] is options:
        return found[1]
    if len(_MADE) >= 256:
        _MADE.clear()
    rules = Rules(_kinds(options), DUTIES[options.owner_duty](options), worth(options))
    _MADE[id(options)] = (options, rules)
    return rules


def _unmade(move: Move) -> RuleViolation:
    return RuleViolation(_UNMADE[move.action], f"{move.text} is not among your legal moves.")


def _as_made(move: Move) -> Move:
    """``move`` as a generator makes it: without groups, and a capture without its value."""
    if move.groups is None and (move.value is None or move.action is not Action.CAPTURE):
        return move
    return Move(move.card, move.action, move.targets, None if move.action is Action.CAPTURE else move.value)


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
    one, is its kind's to read): each once, each on the table."""
    targets = tuple(t for t in move.targets if pile_seat(t) is None) if skip_piles else move.targets
    if not targets:
        return ()
    named = set(targets)
    on_table = {it.id: it for it in state.table if it.id in named}  # one pass, not one per target
    if len(on_table) != len(targets):
        _refuse_targets(targets, on_table)
    return tuple([on_table[t] for t in targets])


def _refuse_targets(targets: tuple[str, ...], on_table: dict[str, TableItem]) -> None:
    """Name the first target that is named twice or is not on the table."""
    seen = set()
    for ident in targets:
        if ident in seen:
            raise RuleViolation("duplicate_target", f"You named {ident} twice.")
        seen.add(ident)
        if ident not in on_table:
            raise RuleViolation("target_not_on_table", f"{ident} is not on the table.")

"""Checking one move against the rules, and working out what it does.

:func:`resolve_play` is the single place where the rules of a turn live: it
either returns a :class:`Play` (what leaves the hand, what leaves the table,
what build appears) or raises :class:`RuleViolation` naming the broken rule.
Both ``decide`` and ``legal_moves`` rely on it, so they cannot disagree.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from itertools import product

from .cards import Card
from .errors import RuleViolation
from .groups import can_split, counts_of, split, splits_with, _sub_multisets
from .moves import Move
from .options import Options
from .state import GameState
from .table import Build, TableItem, item_id


def values_of(card: Card, options: Options) -> tuple[int, ...]:
    """The values a card may take in sums and builds, at its holder's choice:
    none for a court without Royal values, 1 or 14 for a Royal ace, 10 or 11
    for Buckeye's ten of diamonds."""
    rank = card.rank
    if rank == 1:
        return (1, 14) if options.ace_high else (1,)
    if rank == 10 and options.big_ten_eleven and card.suit == "D":
        return (10, 11)
    if rank <= 10 or options.courts_have_values:
        return (rank,)
    return ()


def assignments(cards, options: Options) -> Iterator[tuple[int, ...]]:
    """Every way to give each card one of its values (one way for plain cards)."""
    return product(*[values_of(c, options) for c in cards])


def can_make(cards, total: int, options: Options) -> bool:
    """True when the cards, each given one of its values, add up to ``total``."""
    return any(sum(a) == total for a in assignments(cards, options))


def holds_value(hand: tuple[Card, ...], value: int, options: Options) -> bool:
    """Whether the hand holds a card that can take a build of ``value``."""
    return any(value in values_of(c, options) or (options.court_builds and c.rank == value > 10)
               for c in hand)


@dataclass(frozen=True, slots=True)
class Play:
    """What a legal move does."""

    seat: int
    move: Move
    taken: tuple[TableItem, ...]  # the table items the move takes or builds on
    build: Build | None = None  # the build the move leaves on the table
    sweep: bool = False  # a capture that clears the table and scores as a sweep

    @property
    def captured(self) -> tuple[Card, ...]:
        """The cards a capture takes in, the played card last."""
        out: list[Card] = []
        for it in self.taken:
            out.extend(it.cards if isinstance(it, Build) else (it,))
        return (*out, self.move.card)


def _targets(state: GameState, move: Move) -> tuple[TableItem, ...]:
    on_table = {it.id: it for it in state.table}  # one pass, not one per target
    items = []
    seen = set()
    for ident in move.targets:
        if ident in seen:
            raise RuleViolation("duplicate_target", f"You named {ident} twice.")
        seen.add(ident)
        it = on_table.get(ident)
        if it is None:
            raise RuleViolation("target_not_on_table", f"{ident} is not on the table.")
        items.append(it)
    return tuple(items)


def resolve_play(state: GameState, seat: int, move: Move) -> Play:
    """Check ``move`` by ``seat`` now; return what it does or raise RuleViolation."""
    if state.status == "finished":
        raise RuleViolation("game_over", "The game is over.")
    if state.status != "in_progress":
        raise RuleViolation("no_hand_in_progress", "No hand is being played: the dealer deals next.")
    if not 0 <= seat < state.players:
        raise RuleViolation("not_a_seat", f"There is no seat {seat}.")
    if move.action == "pluck":
        return _pluck(state, seat, move)
    if state.turn != seat:
        raise RuleViolation("not_your_turn", f"It is seat {state.turn}'s turn, not yours.")
    hand = state.hands[seat]
    if move.card not in hand:
        raise RuleViolation("card_not_in_hand", f"{move.card.code} is not in your hand.")
    items = _targets(state, move)
    if move.action == "trail":
        play = _trail(seat, move, items)
    elif move.action == "capture":
        play = _capture(state, seat, move, items)
    else:
        play = _build(state, seat, move, items)
    _owner_duty(state, seat, play)
    return play


# -- trail ------------------------------------------------------------------


def _trail(seat: int, move: Move, items) -> Play:
    if items or move.value is not None or move.groups is not None:
        raise RuleViolation("illegal_trail", "A trail only lays a card on the table; it names nothing else.")
    return Play(seat, move, ())


# -- capture ----------------------------------------------------------------


def _capture(state: GameState, seat: int, move: Move, items) -> Play:
    opts = state.options
    card = move.card
    if not items:
        raise RuleViolation("illegal_capture", "Say what your card takes: a capture names its targets.")
    choices = values_of(card, opts)
    if move.value is not None and move.value not in choices:
        shown = " or ".join(map(str, choices)) or "its rank only"
        raise RuleViolation("illegal_capture", f"{card.code} captures as {shown}.")
    if not choices:
        _court_capture(state, card, items)
    else:
        _sum_capture(state, move, [move.value] if move.value is not None else list(choices), items)
    remaining = len(state.table) - len(items)
    last_play = _is_last_play(state, seat)
    sweep = (remaining == 0 and opts.sweeps > 0 and (opts.sweep_on_last_play or not last_play))
    return Play(seat, move, items, sweep=sweep)


def _court_capture(state: GameState, card: Card, items) -> None:
    rank_word = card.name.split()[0]
    if any(not (isinstance(it, Card) and it.rank == card.rank or _is_court_build(it, card.rank, state.options))
           for it in items):
        raise RuleViolation("illegal_capture", f"A {rank_word} takes only {rank_word}s.")
    on_table = sum(1 for it in state.table if isinstance(it, Card) and it.rank == card.rank)
    rule = state.options.court_capture
    taken = len(items)
    if rule == "one" and taken != 1:
        raise RuleViolation("court_capture", f"A {rank_word} takes one {rank_word} at a time.")
    if rule == "one_or_three" and not (taken == 1 or (taken == 3 and on_table == 3)):
        raise RuleViolation("court_capture",
                            f"A {rank_word} takes one {rank_word}, or all three when three lie on the table.")


def _sum_capture(state: GameState, move: Move, choices: list[int], items) -> None:
    """A capture by a card with a number value: try each value it may take."""
    opts = state.options
    loose = [it for it in items if isinstance(it, Card)]
    for it in loose:
        if not values_of(it, opts):
            raise RuleViolation("illegal_capture", f"{it.code} is taken only by a card of its rank.")
    builds = [it for it in items if isinstance(it, Build)]
    refusal = None
    for v in choices:
        wrong = next((b for b in builds if b.value != v), None)
        if wrong is not None:
            refusal = RuleViolation("illegal_capture", f"Your {move.card.code} cannot take {wrong.id}: "
                                    f"a build of {wrong.value} is taken only by a {wrong.value}.")
            continue
        if move.groups is not None:
            refusal = _capture_groups_refusal(state, move, v)
        elif not any(can_split(a, v) for a in assignments(loose, opts)):
            refusal = RuleViolation("illegal_capture",
                                    f"{' '.join(move.targets)} cannot be split into groups that each make {v}.")
        else:
            refusal = None
        if refusal is None:
            if not opts.partial_capture:
                _check_maximal(state, v, items)
            return
    raise refusal


def _capture_groups_refusal(state: GameState, move: Move, v: int) -> RuleViolation | None:
    """What is wrong with a capture's stated groups for value ``v``, if anything."""
    named = [t for g in move.groups for t in g if t != move.card.code]
    if sorted(named) != sorted(move.targets):
        return RuleViolation("invalid_groups", "The groups must hold each target exactly once.")
    for group in move.groups:
        parts = [state.item(t) for t in group if t != move.card.code]
        if len(parts) > 1 and any(isinstance(p, Build) for p in parts):
            return RuleViolation("invalid_groups", "A build is taken as a group of its own.")
        builds = sum(p.value for p in parts if isinstance(p, Build))
        if not can_make([p for p in parts if isinstance(p, Card)], v - builds, state.options):
            return RuleViolation("illegal_capture", f"The group {' '.join(group)} does not make {v}.")
    return None


def _check_maximal(state: GameState, v: int, items) -> None:
    taken = {item_id(it) for it in items}
    rest = [it for it in state.table if item_id(it) not in taken]
    if any(isinstance(it, Build) and it.value == v for it in rest):
        raise RuleViolation("capture_not_maximal", "You must take every build and group your card can take.")
    loose = [c for c in rest if isinstance(c, Card) and values_of(c, state.options)]
    for values in assignments(loose, state.options):
        counts = counts_of([x for x in values if x <= v], v)
        if counts is not None and _sub_multisets(counts, v, v):
            raise RuleViolation("capture_not_maximal", "You must take every group your card can take.")


# -- build ------------------------------------------------------------------


def _is_court_build(item, rank: int, options: Options) -> bool:
    return options.court_builds and isinstance(item, Build) and item.value == rank


def _build(state: GameState, seat: int, move: Move, items) -> Play:
    opts = state.options
    card, target = move.card, move.value
    if target is None:
        raise RuleViolation("illegal_build", "Say what value you are building.")
    if opts.court_builds and card.is_court:
        return _court_build(state, seat, move, items)
    if not values_of(card, opts):
        raise RuleViolation("illegal_build", f"{card.code} has no number value and cannot be built with.")
    if not 2 <= target <= opts.highest_value:
        raise RuleViolation("illegal_build", f"A build is worth 2 to {opts.highest_value}, not {target}.")
    if not items:
        raise RuleViolation("illegal_build", "A build puts your card with cards or builds on the table.")
    hand_after = tuple(h for h in state.hands[seat] if h is not card)
    for it in items:
        if isinstance(it, Card) and not values_of(it, opts):
            raise RuleViolation("illegal_build", f"{it.code} has no number value and cannot be built on.")
    # The cards' sum first: a build that does not add up is refused for that,
    # whatever the hand holds.
    groups = _named_groups(state, move) if move.groups is not None else _find_groups(state, move, items)
    merged = _check_build_groups(state, seat, move, groups, hand_after)
    if not holds_value(hand_after, target, opts):
        raise RuleViolation("build_needs_card",
                            f"You can build {target} only while keeping a {target} in your hand to take it.")
    builds = [it for it in items if isinstance(it, Build)]
    raised = [b for b in builds if b.value != target]
    keep = (raised or [b for b in builds])
    build_id = keep[0].id if keep else f"B{state.next_build}"
    return Play(seat, move, items, build=Build(build_id, target, merged, seat))


def _named_groups(state: GameState, move: Move) -> list[list[TableItem]]:
    named = [t for g in move.groups for t in g]
    expected = sorted([move.card.code, *move.targets])
    if sorted(named) != expected:
        raise RuleViolation("invalid_groups", "The groups must hold your card and each target exactly once.")
    return [[move.card if t == move.card.code else state.item(t) for t in g] for g in move.groups]


def _find_groups(state: GameState, move: Move, items) -> list[list[TableItem]]:
    """Find a grouping of the card and targets into groups of the build's value,
    trying each value the cards may take."""
    opts, target, card = state.options, move.value, move.card
    builds = [it for it in items if isinstance(it, Build)]
    loose = [it for it in items if isinstance(it, Card)]
    whole = [[b] for b in builds if b.value == target]
    raised = [b for b in builds if b.value != target]
    if len(raised) > 1:
        raise RuleViolation("illegal_build", "Only one build can be raised at a time.")
    if raised:
        b = raised[0]
        for values in assignments([card, *loose], opts):
            need = target - b.value - values[0]
            pick = splits_with(values[1:], target, need)
            if pick is not None:
                rest = [x for i, x in enumerate(loose) if i not in pick]
                rest_values = [x for i, x in enumerate(values[1:]) if i not in pick]
                rest_groups = split(rest_values, target) or []
                return [[b, card, *(loose[i] for i in pick)], *whole, *([rest[i] for i in g] for g in rest_groups)]
        raise RuleViolation("illegal_build", f"Raising {b.id} with your {card.code} does not make {target}.")
    pool = [*loose, card]
    for values in assignments(pool, opts):
        found = split(values, target)
        if found is not None:
            return [*whole, *([pool[i] for i in g] for g in found)]
    raise RuleViolation("illegal_build", _why_no_build([card, *loose], target, opts))


def _why_no_build(cards: list[Card], target: int, options: Options) -> str:
    """Why ``cards`` make no build of ``target``: their sum, when they have
    one sum and it is not a multiple of ``target``."""
    named = [c.code for c in cards]
    listed = f"{', '.join(named[:-1])} and {named[-1]}"
    sums = {sum(values) for values in assignments(cards, options)}
    if len(sums) == 1 and (total := sums.pop()) % target:
        return f"{listed} make {total}, not {target}."
    return f"{listed} cannot be grouped to make {target}."


def _check_build_groups(state: GameState, seat: int, move: Move, groups, hand_after):
    """Check each group of a build; return the new build's groups of cards."""
    opts, target, card = state.options, move.value, move.card
    place = {it.id: i for i, it in enumerate(state.table)}  # a group's cards in table order
    out: list[tuple[Card, ...]] = []
    for group in groups:
        builds = [g for g in group if isinstance(g, Build)]
        if len(builds) > 1:
            raise RuleViolation("illegal_build", "Two builds cannot be added together into one group.")
        in_builds = sum(g.value for g in builds)
        if not can_make([g for g in group if isinstance(g, Card)], target - in_builds, opts):
            shown = " ".join(item_id(g) for g in group)
            raise RuleViolation("illegal_build", f"The group {shown} does not make {target}.")
        if builds and builds[0].value == target:
            if len(group) > 1:
                raise RuleViolation("illegal_build", f"{builds[0].id} already makes {target}; it is a group of its own.")
            out.extend(builds[0].groups)
            continue
        if builds:
            _check_raise(state, seat, move, builds[0], group, hand_after)
        laid = sorted((g for g in group if g is not card), key=lambda g: place.get(g.id, 0))
        cards = [c for g in laid for c in (g.cards if isinstance(g, Build) else (g,))]
        out.append((*cards, card) if card in group else tuple(cards))
    return tuple(out)


def _check_raise(state: GameState, seat: int, move: Move, build: Build, group, hand_after) -> None:
    opts = state.options
    if build.multiple:
        raise RuleViolation("multiple_build_fixed",
                            f"{build.id} is a multiple build of {build.value}s; its value cannot change.")
    if move.card not in group:
        raise RuleViolation("illegal_build", "A build is raised with a card from your hand.")
    if len(group) > 2 and not opts.raise_with_table_cards:
        raise RuleViolation("raise_with_table_cards",
                            "A build's value changes only by the card you play, not by cards from the table.")
    if build.owner == seat:
        if opts.raise_own_build == "forbidden":
            raise RuleViolation("raise_own_build", "You may not raise your own build.")
        if opts.raise_own_build == "needs_both" and not holds_value(hand_after, build.value, opts):
            raise RuleViolation("raise_own_build",
                                f"To raise your own build of {build.value} you must still hold a {build.value} as well.")


def _court_build(state: GameState, seat: int, move: Move, items) -> Play:
    """``court_builds`` (Trailing-royals): a court laid on courts of its rank
    (loose, or already built) makes a multiple build of that rank, to be taken
    by a further court of the rank, which the builder must hold."""
    card, rank_word = move.card, move.card.name.split()[0]
    if move.value != card.rank:
        raise RuleViolation("illegal_build", f"Courts are built only with their own rank: a {rank_word} builds {card.rank}.")
    if not items or any(not (isinstance(it, Card) and it.rank == card.rank or
                             _is_court_build(it, card.rank, state.options)) for it in items):
        raise RuleViolation("illegal_build", f"A {rank_word} is built only on {rank_word}s.")
    hand_after = tuple(h for h in state.hands[seat] if h is not card)
    if not holds_value(hand_after, card.rank, state.options):
        raise RuleViolation("build_needs_card", f"You can build {rank_word}s only while keeping a {rank_word} to take them.")
    groups = [g for it in items for g in (it.groups if isinstance(it, Build) else ((it,),))]
    keep = [it for it in items if isinstance(it, Build)]
    build_id = keep[0].id if keep else f"B{state.next_build}"
    return Play(seat, move, items, build=Build(build_id, card.rank, (*groups, (card,)), seat))


# -- pluck --------------------------------------------------------------------


def is_point_card(card: Card, options: Options) -> bool:
    """Cards that score by themselves: aces, the casinos, and spades when every spade scores."""
    return card.rank == 1 or card.code in ("10D", "2S") or (options.spade_points != "none" and card.suit == "S")


def _pluck(state: GameState, seat: int, move: Move) -> Play:
    """``pluck``: once a deal, a player takes a non-point card from the table
    into their pile, on their turn before their play or just after it."""
    opts, card = state.options, move.card
    if not opts.pluck:
        raise RuleViolation("pluck_not_allowed", "This game has no plucking.")
    if move.targets or move.value is not None or move.groups is not None:
        raise RuleViolation("illegal_pluck", "A pluck names only the table card it takes.")
    if seat != state.turn and seat != state.last_player:
        raise RuleViolation("not_your_turn", "You may pluck on your turn, before or just after your play.")
    if seat in state.plucked:
        raise RuleViolation("already_plucked", "You have already plucked since the last deal.")
    if card not in state.table:
        raise RuleViolation("target_not_on_table", f"{card.code} is not loose on the table.")
    if is_point_card(card, opts):
        raise RuleViolation("pluck_point_card", f"{card.code} scores points; it cannot be plucked.")
    if len(state.table) < 2:
        raise RuleViolation("pluck_last_card", "The last card on the table cannot be plucked.")
    if not state.stock:
        raise RuleViolation("pluck_after_stock", "Once the stock is dealt out no one may pluck.")
    if seat == state.last_player and card is state.just_played:
        raise RuleViolation("pluck_own_card", "You cannot pluck the card you have just played.")
    return Play(seat, move, (card,))


# -- the build owner's duty -------------------------------------------------


def _owner_duty(state: GameState, seat: int, play: Play) -> None:
    """Apply ``owner_duty``: what a player who owns a build may do."""
    opts = state.options
    duty = opts.owner_duty
    owned = state.builds_of(seat)
    if duty == "free" or not owned:
        return
    move = play.move
    touched = {item_id(it) for it in play.taken}
    acts_on_own = any(b.id in touched for b in owned)
    shown = ", ".join(f"{b.value}" for b in owned)
    plural = "s" if len(owned) > 1 else ""
    if move.action == "trail":
        raise RuleViolation("must_act_on_build",
                            f"You cannot trail while your build{plural} of {shown} {'are' if plural else 'is'} on the table.")
    if duty == "must_act" and not acts_on_own:
        raise RuleViolation("must_act_on_build", f"You must take or add to your build{plural} of {shown} this turn.")
    if duty == "strict" and move.action == "capture" and not acts_on_own:
        raise RuleViolation("must_act_on_build",
                            f"With your build{plural} of {shown} on the table you must take it, add to it, or build.")
    # Whatever else they do, an owner keeps a card to take each of their builds.
    hand_after = tuple(h for h in state.hands[seat] if h is not move.card)
    kept = [b for b in owned if b.id not in touched]
    for b in kept:
        if not holds_value(hand_after, b.value, opts):
            raise RuleViolation("must_act_on_build",
                                f"You cannot play away your last {b.value} while your build of {b.value} is on the table.")
        if duty == "strict" and play.build is not None and play.build.value == b.value:
            raise RuleViolation("one_build_per_value", f"You already have a build of {b.value}; add to it instead.")
    values = {b.value for b in kept} | ({play.build.value} if play.build is not None else set())
    if not covers(hand_after, values, opts):
        shown = " and ".join(map(str, sorted(values)))
        raise RuleViolation("must_act_on_build", f"You need a different card to take each of your builds "
                            f"({shown}), and your hand would not have them.")


def covers(hand, values, options: Options) -> bool:
    """Whether distinct cards of ``hand`` can take builds of each of ``values``.

    One card takes every build of its value at once, but a card with two
    values (a Royal ace, Buckeye's ten of diamonds) takes only one of them in
    a play, so each value needs a card of its own.
    """
    values = sorted(values)
    if not values:
        return True
    first, rest = values[0], values[1:]
    for i, card in enumerate(hand):
        if holds_value((card,), first, options) and covers(hand[:i] + hand[i + 1:], rest, options):
            return True
    return False


def _is_last_play(state: GameState, seat: int) -> bool:
    """True when this play is the last card of the hand."""
    return not state.stock and sum(len(h) for h in state.hands) == 1

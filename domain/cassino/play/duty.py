"""The build owner's duty (``owner_duty``): what a player who owns a build
may do. Each value of the option is a small class; ``duty_penalty``
(Michigan) turns a breach into a default that costs points, and
``max_own_builds`` (two-player African) limits how many builds one owns."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace

from ...cards import Card
from ...errors import RuleViolation
from ..moves import Action
from ..options import Options
from ..state import GameState
from ..table import Build, item_id
from .turn import Play
from .values import holds_value


class OwnerDuty:
    """``no_trail`` (the default): an owner may not trail, and keeps a card
    to take each of their builds."""

    one_per_value = False  # may an owner not own two builds of one value

    def __init__(self, options: Options):
        self.penalty = options.duty_penalty
        self.most = options.max_own_builds

    def bound(self, state: GameState, seat: int, owned: tuple[Build, ...]) -> tuple[Build, ...]:
        """Those of the builds ``seat`` owns whose owner's duty binds them now."""
        return owned

    def acting(self, play: Play, acts_on_own: bool, shown: str, plural: str) -> RuleViolation | None:
        """What the duty asks of the play beyond not trailing, if it breaks it."""
        return None

    def check(self, state: GameState, seat: int, play: Play) -> Play:
        """Apply the duty to ``play``: a move that breaks it is refused, or
        with ``duty_penalty`` let through as a default, which costs its
        player points."""
        owned = state.builds_of(seat)
        self._check_build_count(play, owned)
        if not owned:
            return play
        self._check_one_per_value(play, owned)
        breach = self._breach(state, seat, play, self.bound(state, seat, owned))
        if breach is None:
            return play
        if self.penalty:
            return replace(play, default=True)
        raise breach

    def to_touch(self, state: GameState, seat: int, card: Card) -> tuple[Build, ...]:
        """The seat's own builds that a move playing ``card`` must take or add to:
        of the builds that bind them, those the rest of the hand could no longer
        take (none where a default is allowed, at a price). Known from the card
        alone, so listing checks it before working out any grouping."""
        if self.penalty:
            return ()
        owned = state.builds_of(seat)
        return _unheld(state, seat, card, self.bound(state, seat, owned)) if owned else ()

    def _breach(self, state: GameState, seat: int, play: Play, owned: tuple[Build, ...]) -> RuleViolation | None:
        """How ``play`` breaks the duty to the builds that bind them (``owned``), if it does."""
        if not owned:
            return None
        touched = {item_id(it) for it in play.taken}
        shown = ", ".join(f"{b.value}" for b in owned)
        plural = "s" if len(owned) > 1 else ""
        if play.move.action == Action.TRAIL and not play.taken:
            return RuleViolation("must_act_on_build", f"You cannot trail while your build{plural} of {shown} "
                                 f"{'are' if plural else 'is'} on the table.")
        acting = self.acting(play, any(b.id in touched for b in owned), shown, plural)
        return acting or _unkept(state, seat, play, owned, touched)

    def _check_one_per_value(self, play: Play, owned: tuple[Build, ...]) -> None:
        """``strict``: an owner may not own two builds of one value. A limit, not
        a duty, so ``duty_penalty`` does not let it through."""
        if not self.one_per_value or play.build is None:
            return
        touched = {item_id(it) for it in play.taken}
        if any(b.value == play.build.value and b.id not in touched for b in owned):
            raise RuleViolation("one_build_per_value",
                                f"You already have a build of {play.build.value}; add to it instead.")

    def _check_build_count(self, play: Play, owned: tuple[Build, ...]) -> None:
        """``max_own_builds`` (two-player African): how many builds a player may own
        once the play is made; the play's own build is theirs whatever it was."""
        most = self.most
        if most is None or play.build is None:
            return
        touched = {item_id(it) for it in play.taken}
        after = sum(1 for b in owned if b.id not in touched) + 1
        if after > most:
            raise RuleViolation("too_many_builds", f"You may own at most {most} build{'s' if most > 1 else ''} at "
                                "the end of your turn; take or add to the one you have.")


class MustAct(OwnerDuty):
    """``must_act``: an owner takes or adds to their build on their turn."""

    def acting(self, play: Play, acts_on_own: bool, shown: str, plural: str) -> RuleViolation | None:
        if acts_on_own:
            return None
        return RuleViolation("must_act_on_build", f"You must take or add to your build{plural} of {shown} this turn.")


class Strict(OwnerDuty):
    """``strict``: an owner takes, adds to or builds, and owns one build of a value."""

    one_per_value = True

    def acting(self, play: Play, acts_on_own: bool, shown: str, plural: str) -> RuleViolation | None:
        if acts_on_own or play.move.action != Action.CAPTURE:
            return None
        return RuleViolation("must_act_on_build",
                             f"With your build{plural} of {shown} on the table you must take it, add to it, or build.")


class Free(OwnerDuty):
    """``free``: owning a build binds no one."""

    def bound(self, state: GameState, seat: int, owned: tuple[Build, ...]) -> tuple[Build, ...]:
        return ()


class NextTurn(OwnerDuty):
    """``next_turn`` (001): only the builds the owner's latest play made or changed bind them."""

    def bound(self, state: GameState, seat: int, owned: tuple[Build, ...]) -> tuple[Build, ...]:
        fresh = {ident for who, ident in state.fresh_builds if who == seat}
        return tuple(b for b in owned if b.id in fresh)


DUTIES: dict[str, type[OwnerDuty]] = {
    "no_trail": OwnerDuty, "must_act": MustAct, "strict": Strict, "free": Free, "next_turn": NextTurn,
}


def _unkept(state: GameState, seat: int, play: Play, owned: tuple[Build, ...], touched: set[str]
            ) -> RuleViolation | None:
    """Whatever else they do, an owner keeps a card to take each of their builds."""
    move = play.move
    stranded = next((b for b in _unheld(state, seat, move.card, owned) if b.id not in touched), None)
    if stranded is not None:
        return RuleViolation("must_act_on_build", f"You cannot play away your last {stranded.value} while "
                             f"your build of {stranded.value} is on the table.")
    hand_after = tuple(h for h in state.hands[seat] if h is not move.card)
    kept = [b for b in owned if b.id not in touched]
    values = {b.value for b in kept} | ({play.build.value} if play.build is not None else set())
    if not covers(hand_after, values, state.options):
        shown = " and ".join(map(str, sorted(values)))
        return RuleViolation("must_act_on_build", f"You need a different card to take each of your builds "
                             f"({shown}), and your hand would not have them.")
    return None


def _unheld(state: GameState, seat: int, card: Card, builds: tuple[Build, ...]) -> tuple[Build, ...]:
    """Those of ``builds`` that the hand, once ``card`` is played, holds no card to take."""
    hand_after = tuple(h for h in state.hands[seat] if h is not card)
    return tuple(b for b in builds if not holds_value(hand_after, b.value, state.options))


def covers(hand: tuple[Card, ...], values: Iterable[int], options: Options) -> bool:
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

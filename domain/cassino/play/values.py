"""What cards are worth in the sums of captures and builds, under the options."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from itertools import product

from ...cards import Card, full_deck
from ..options import Options


_WORTH: dict[int, tuple[Options, dict[Card, tuple[int, ...]]]] = {}  # by the id of the options, which it keeps
_LAST: tuple[Options | None, dict[Card, tuple[int, ...]]] = (None, {})  # the options last asked about, and their table


def worth(options: Options) -> dict[Card, tuple[int, ...]]:
    """:func:`values_of` every card, made once per options object (the
    checks and the generators look values up many times a move)."""
    found = _WORTH.get(id(options))
    if found is None or found[0] is not options:
        if len(_WORTH) >= 256:
            _WORTH.clear()
        found = _WORTH[id(options)] = (options, {c: _values(c, options) for c in full_deck()})
    return found[1]


def values_of(card: Card, options: Options) -> tuple[int, ...]:
    """The values a card may take in sums and builds, at its holder's choice:
    none for a court without Royal values (or Tablanette's jack), 1 or 14 for
    a Royal ace (1 or 11 with Tablanette's values), 10 or 11 for Buckeye's
    ten of diamonds. With ``capture_by: rank`` no card has a number value:
    each pairs with its own rank only, as courts do."""
    global _LAST
    last = _LAST  # one read: the pair is replaced whole, never changed
    if last[0] is not options:
        last = _LAST = (options, worth(options))
    return last[1][card]


def _values(card: Card, options: Options) -> tuple[int, ...]:
    if options.capture_by == "rank":
        return ()
    rank = card.rank
    if rank == 1:
        return (1, options.ace_high_value) if options.ace_high else (1,)
    if rank == 10 and options.big_ten_eleven and card.suit == "D":
        return (10, 11)
    if rank <= 10:
        return (rank,)
    number = options.court_number(rank)
    return (number,) if number is not None else ()


def assignments(cards: Iterable[Card], options: Options) -> Iterator[tuple[int, ...]]:
    """Every way to give each card one of its values (one way for plain cards)."""
    return product(*[values_of(c, options) for c in cards])


def can_make(cards: Iterable[Card], total: int, options: Options) -> bool:
    """True when the cards, each given one of its values, add up to ``total``."""
    return any(sum(a) == total for a in assignments(cards, options))


def holds_value(hand: Iterable[Card], value: int, options: Options) -> bool:
    """Whether the hand holds a card that can take a build of ``value``."""
    return any(value in values_of(c, options) or (options.court_builds and c.rank == value > 10)
               for c in hand)


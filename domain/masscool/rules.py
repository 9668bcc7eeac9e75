"""The fixed numbers of Mass Cool Casino and the options a game may change.

Everything here is a pure function of a card or a seat count; the choices
the seed leaves open are explained in ``docs/rules.md``.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import asdict, dataclass
from typing import Any

from .. import undoing
from ..cards import Card
from ..errors import OptionError, UnknownOption

GAME_TYPE = "mass-cool-casino"
DESCRIPTION = ("A betting game: money cards face up, one hidden card a round, bets until someone calls stop, "
               "the highest card takes the pot.")
MIN_PLAYERS, MAX_PLAYERS = 2, 8

#: Money cards per player by seat count. The seed gives 6 to four or more;
#: eight players get 5, because 6 each would leave 4 cards, too few for one
#: round of hands, and the game would be over before it began.
_MONEY = {2: 10, 3: 8, 4: 6, 5: 6, 6: 6, 7: 6, 8: 5}

#: What a card is worth in the final count: kings are worth 16, not 13.
_COUNT = {1: 1, 11: 11, 12: 12, 13: 16}


def count_value(card: Card) -> int:
    """The card's worth when money is counted at the end."""
    return _COUNT.get(card.rank, card.rank)


def money_value(cards: Iterable[Card]) -> int:
    """What ``cards`` are worth in the final count."""
    return sum(count_value(c) for c in cards)


def showdown_rank(card: Card, ace_high: bool) -> int:
    """How high a hand is at the showdown: 2 lowest, king, then ace on top
    (or the ace lowest with ``ace_high`` off). Suits never rank."""
    return 14 if ace_high and card.rank == 1 else card.rank


@dataclass(frozen=True, slots=True)
class Options:
    """A game's resolved options, stored in its first event."""

    money: int  # cards of money dealt to each player
    ace_high: bool = True
    undo: str = "consent"

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Options:
        return cls(**data)


def default_options(players: int) -> dict[str, Any]:
    return {"money": _MONEY[players], "ace_high": True, "undo": "consent"}


def resolve(variant: str, overrides: dict[str, Any] | None, players: int) -> Options:
    """The options of a new game of ``variant`` (the one preset,
    :data:`GAME_TYPE`): the defaults for its seat count, with the creator's
    overrides checked and applied."""
    if variant != GAME_TYPE:
        raise OptionError(f"Unknown variant {variant!r}; Mass Cool Casino has one, {GAME_TYPE!r}.")
    if not isinstance(overrides, dict | None):
        raise UnknownOption("Options must be an object of option names and values.")
    if not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise OptionError(f"Mass Cool Casino is for {MIN_PLAYERS} to {MAX_PLAYERS} players, not {players}.")
    values = default_options(players)
    for name, value in (overrides or {}).items():
        if name not in values:
            raise UnknownOption(f"Mass Cool Casino has no option {name!r}.", name)
        values[name] = value
    money = values["money"]
    if isinstance(money, bool) or not isinstance(money, int) or money < 1 or players * (money + 1) > 52:
        raise OptionError(f"'money' is a whole number of cards from 1 to {52 // players - 1} for {players} "
                          "players, so that the deck still holds a hand for everyone.", "money")
    if not isinstance(values["ace_high"], bool):
        raise UnknownOption("'ace_high' is true or false.", "ace_high")
    if values["undo"] not in undoing.POLICIES:
        raise UnknownOption(f"'undo' is one of {', '.join(undoing.POLICIES)}.", "undo")
    return Options(**values)

"""Options: every rule on which the sources disagree, as a named setting.

A game stores its fully resolved :class:`Options` in its first event, so it
replays the same way after a default changes. A *variant* is a preset: a
name, the seat counts it is played with, and the options it changes from the
defaults::

    >>> opts = resolve("cassino", {"target": 11}, players=2)
    >>> opts.target, opts.owner_duty
    (11, 'no_trail')

Unknown names and values are refused with :class:`OptionError`, which names
the option at fault.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, fields, replace
from typing import Any

from .errors import OptionError

#: The allowed values of each option, default first. ``int`` means "a whole
#: number in the range given in ``_INT_RANGES``".
CHOICES: dict[str, tuple] = {
    "court_capture": ("one_or_three", "one", "any", "valued"),
    "owner_duty": ("no_trail", "must_act", "strict", "free"),
    "raise_own_build": ("allowed", "needs_both", "forbidden"),
    "raise_with_table_cards": (False, True),
    "partial_capture": (True, False),
    "sweeps": (0, 1, 2),
    "sweeps_cancel": (False, True),
    "sweep_on_last_play": (True, False),
    "most_cards_tie": ("none", "spades_decide", "split"),
    "target": (21, 11, 31, 61, 251, None, int),
    "end_rule": ("scoring_order", "highest"),
    "count_out": (True, False),
    "undo": ("consent", "free", "off"),
    "public_log": (True, False),
    "ace_high": (False, True),
    "big_ten_eleven": (False, True),
    "teams": (False, True),
}
_INT_RANGES = {"target": (1, 10_000)}


@dataclass(frozen=True, slots=True)
class Options:
    """The resolved rules of one game. Every field has the default of ``cassino``.

    See ``docs/rules.md`` for what each option does and which source it follows.
    """

    court_capture: str = "one_or_three"
    owner_duty: str = "no_trail"
    raise_own_build: str = "allowed"
    raise_with_table_cards: bool = False
    partial_capture: bool = True
    sweeps: int = 0
    sweeps_cancel: bool = False
    sweep_on_last_play: bool = True
    most_cards_tie: str = "none"
    target: int | None = 21
    end_rule: str = "scoring_order"
    count_out: bool = True
    undo: str = "consent"
    public_log: bool = True  # once the game is over, its whole log is public
    ace_high: bool = False  # an ace may count 14 (Royal)
    big_ten_eleven: bool = False  # the ten of diamonds may count 11 (Buckeye)
    teams: bool = False

    @property
    def courts_have_values(self) -> bool:
        """True when jacks, queens and kings count 11, 12 and 13 (Royal values)."""
        return self.court_capture == "valued"

    @property
    def highest_value(self) -> int:
        """The largest value a card, build or capture can have."""
        return 14 if self.ace_high else 13 if self.courts_have_values else 11 if self.big_ten_eleven else 10

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Options:
        """Read options as stored or given; missing names take the defaults."""
        return validated(replace(cls(), **_checked(data)))


@dataclass(frozen=True, slots=True)
class Variant:
    """A preset: a name, its seat counts, and the options it changes."""

    name: str
    description: str
    players: tuple[int, ...]
    overrides: tuple[tuple[str, Any], ...] = ()

    @property
    def options(self) -> Options:
        return replace(Options(), **dict(self.overrides))


VARIANTS: dict[str, Variant] = {
    v.name: v
    for v in (
        Variant(
            "cassino",
            "The standard game: single and multiple builds, 11 points a hand, game to 21, count-out.",
            (2, 3, 4),
        ),
        Variant(
            "partnership",
            "Four players in two teams of partners sitting opposite; partners pool their captures.",
            (4,),
            (("teams", True),),
        ),
        Variant(
            "royal",
            "Courts count J 11, Q 12, K 13 and an ace 1 or 14: everything builds and sums.",
            (2, 3, 4),
            (("court_capture", "valued"), ("ace_high", True)),
        ),
        Variant(
            "buckeye",
            "Royal Cassino where the ten of diamonds counts 10 or 11.",
            (2, 3, 4),
            (("court_capture", "valued"), ("ace_high", True), ("big_ten_eleven", True)),
        ),
    )
}


def _checked(data: dict[str, Any]) -> dict[str, Any]:
    if not isinstance(data, dict):
        raise OptionError("Options must be an object of option names and values.")
    unknown = sorted(set(data) - set(CHOICES))
    if unknown:
        raise OptionError(
            f"Unknown option {unknown[0]!r}; the options are {', '.join(CHOICES)}.", unknown[0]
        )
    for name, value in data.items():
        if not _allowed(name, value):
            shown = ", ".join("null" if c is None else str(c).lower() if isinstance(c, bool) else
                              "a whole number" if c is int else str(c) for c in CHOICES[name])
            raise OptionError(f"Option {name!r} cannot be {value!r}; it takes {shown}.", name)
    return data


def _allowed(name: str, value: Any) -> bool:
    choices = CHOICES[name]
    if isinstance(value, bool) or value is None:
        return any(value is c for c in choices)
    if int in choices and isinstance(value, int):
        low, high = _INT_RANGES[name]
        return low <= value <= high
    return value in [c for c in choices if c is not int and not isinstance(c, bool)]


def validated(options: Options, players: int | None = None) -> Options:
    """Refuse options that do not fit together (or do not fit the seat count)."""
    if options.count_out and options.target is None:
        raise OptionError("A count-out needs a target score; set count_out to false "
                          "when one hand is the game (target null).", "count_out")
    if players is not None and options.teams and players != 4:
        raise OptionError("Partners play four to a table, in two teams.", "teams")
    return options


def resolve(variant: str, overrides: dict[str, Any] | None = None,
            players: int | None = None) -> Options:
    """The full options of a game of ``variant`` with ``overrides`` applied."""
    preset = VARIANTS.get(variant)
    if preset is None:
        raise OptionError(f"Unknown variant {variant!r}; the variants are {', '.join(VARIANTS)}.")
    if players is not None and players not in preset.players:
        counts = ", ".join(map(str, preset.players))
        raise OptionError(f"{variant} is played by {counts} players, not {players}.")
    return validated(replace(preset.options, **_checked(overrides or {})), players)

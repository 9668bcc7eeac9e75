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

from dataclasses import asdict, dataclass, replace
from typing import Any

from ..errors import OptionError

#: The allowed values of each option, default first. ``int`` means "a whole
#: number in the range given in ``_INT_RANGES``".
CHOICES: dict[str, tuple[Any, ...]] = {
    "court_capture": ("one_or_three", "one", "any", "valued"),
    "court_builds": (False, True),
    "ace_high": (False, True),
    "big_ten_eleven": (False, True),
    "owner_duty": ("no_trail", "must_act", "strict", "free"),
    "raise_own_build": ("allowed", "needs_both", "forbidden"),
    "raise_with_table_cards": (False, True),
    "partial_capture": (True, False),
    "pluck": (False, True),
    "sweeps": (0, 1, 2),
    "sweeps_cancel": (False, True),
    "sweep_on_last_play": (True, False),
    "most_cards_tie": ("none", "spades_decide", "split"),
    "spade_points": ("none", "each", "each_and_most"),
    "all_eleven": ("none", "bonus", "skunk", "win"),
    "instant_scoring": (False, True),
    "initial_pairs": (False, True),
    "target": (21, 11, 31, 61, 251, None, int),
    "deals_each": (None, int),
    "end_rule": ("scoring_order", "highest"),
    "count_out": (True, False),
    "deck": ("standard", "five_hand"),
    "deal_packet": (2, 1),
    "draw": (False, True),
    "teams": (False, True),
    "undo": ("consent", "free", "off"),
    "public_log": (True, False),
    # Stealing Bundles (003)
    "capture_by": ("value", "rank"),
    "steal_bundles": (False, True),
    "open_piles": (False, True),
    "refill_singly": (False, True),
    "score_by_cards": (False, True),
    # African Cassino (003)
    "african_points": (False, True),
    "counter_clockwise": (False, True),
    "african_deal": (False, True),
    "add_to_others": (True, False),
    "max_own_builds": (None, 1),
    "team_pile": (False, True),
    "augment_from_piles": (False, True),
}
_INT_RANGES = {"target": (1, 10_000), "deals_each": (1, 10)}


@dataclass(frozen=True, slots=True)
class Options:
    """The resolved rules of one game. Every field has the default of ``cassino``.

    See ``docs/rules.md`` for what each option does and which source it follows.
    """

    court_capture: str = "one_or_three"
    court_builds: bool = False  # courts may be built in multiples (Trailing-royals)
    ace_high: bool = False  # an ace may count 14 (Royal)
    big_ten_eleven: bool = False  # the ten of diamonds may count 11 (Buckeye)
    owner_duty: str = "no_trail"
    raise_own_build: str = "allowed"
    raise_with_table_cards: bool = False
    partial_capture: bool = True
    pluck: bool = False  # once a deal, take a non-point card from the table (Pluck)
    sweeps: int = 0
    sweeps_cancel: bool = False
    sweep_on_last_play: bool = True
    most_cards_tie: str = "none"
    spade_points: str = "none"  # every spade scores (Spade Cassino)
    all_eleven: str = "none"
    instant_scoring: bool = False  # sweeps and point cards score as taken (sudden death)
    initial_pairs: bool = False  # pairs dealt to the table go to the first player
    target: int | None = 21
    deals_each: int | None = None  # the game lasts this many deals per player (California)
    end_rule: str = "scoring_order"
    count_out: bool = True
    deck: str = "standard"
    deal_packet: int = 2
    draw: bool = False  # draw from the stock after each play instead of dealing rounds
    teams: bool = False
    undo: str = "consent"
    public_log: bool = True  # once the game is over, its whole log is public
    # Stealing Bundles (003)
    capture_by: str = "value"  # "rank": a card takes only loose cards of its rank; no sums, no builds
    steal_bundles: bool = False  # a card may take an opponent's whole pile whose top card is of its rank
    open_piles: bool = False  # capture piles lie face up: each pile's top card is public
    refill_singly: bool = False  # later rounds are drawn from the stock one card at a time, in turn
    score_by_cards: bool = False  # a hand scores a point per captured card, and nothing else
    # African Cassino (003)
    african_points: bool = False  # most cards 2, most spades 2 (ties 1 each), 2S 1, 10S 2, aces 1
    counter_clockwise: bool = False  # play, the deal and the deal's passing go to the right
    african_deal: bool = False  # the table's four from the deck's middle, then every card one at a time
    add_to_others: bool = True  # False: cards are added to a build of one's own side only (else taken with it)
    max_own_builds: int | None = None  # the most builds a player may own at the end of their turn
    team_pile: bool = False  # partners keep one capture pile, in front of the team's first seat
    augment_from_piles: bool = False  # an opponent's top captured cards may be added to one's build

    @property
    def courts_have_values(self) -> bool:
        """True when jacks, queens and kings count 11, 12 and 13 (Royal values)."""
        return self.court_capture == "valued"

    @property
    def highest_value(self) -> int:
        """The largest number value a card, build or capture can have.

        Courts built in multiples of their rank (``court_builds``) have no
        number value, so they do not raise it."""
        if self.ace_high:
            return 14
        if self.courts_have_values:
            return 13
        return 11 if self.big_ten_eleven else 10

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Options:
        """Read options as stored or given; missing names take the defaults."""
        return validated(replace(cls(), **_checked(data)))


@dataclass(frozen=True, slots=True)
class Variant:
    """A preset: a name, its seat counts, and the options it changes.

    ``teams_at`` lists the seat counts played in two teams of partners;
    ``fixed`` names the options that make the variant what it is, which a
    game of it cannot change; ``at_players`` adds options at one seat count
    (African's two-player and partnership rules).
    """

    name: str
    description: str
    players: tuple[int, ...]
    overrides: tuple[tuple[str, Any], ...] = ()
    teams_at: tuple[int, ...] = ()
    fixed: tuple[str, ...] = ()
    at_players: tuple[tuple[int, tuple[tuple[str, Any], ...]], ...] = ()  # more options at a seat count

    @property
    def options(self) -> Options:
        return replace(Options(), **dict(self.overrides))


_ROYAL = (("court_capture", "valued"), ("ace_high", True))

#: Stealing Bundles (003): pairs by rank, open piles that can be stolen, one hand is the game.
_STEALING_BUNDLES = Variant(
    "stealing-bundles", "Cards pair by rank only (no sums, no builds); a card may instead steal an "
    "opponent's whole face-up bundle whose top card matches it; one hand is the game and the most cards "
    "wins.", (2, 3, 4),
    (("capture_by", "rank"), ("court_capture", "any"), ("steal_bundles", True), ("open_piles", True),
     ("refill_singly", True), ("score_by_cards", True), ("target", None), ("count_out", False)),
    fixed=("capture_by", "steal_bundles", "score_by_cards"))

#: African Cassino (003): Royal values, counter-clockwise, its own deal, open piles whose top cards
#: may be added to one's builds, its own points to 11; two players own one build at most, and
#: partners keep one pile.
_AFRICAN = Variant(
    "african", "Swazi Cassino: Royal values, played to the right; the table's four from the middle of the "
    "deck; builds raised only when an opponent's and added to only when one's own, also with the top "
    "cards of opponents' face-up capture piles; most cards 2, most spades 2, 2S 1, 10S 2, aces 1; game "
    "to 11.", (3, 2, 4),
    (*_ROYAL, ("counter_clockwise", True), ("african_deal", True), ("raise_own_build", "forbidden"),
     ("add_to_others", False), ("open_piles", True), ("augment_from_piles", True), ("african_points", True),
     ("target", 11), ("count_out", False)),
    teams_at=(4,), at_players=((2, (("max_own_builds", 1),)), (4, (("team_pile", True),))),
    fixed=("court_capture", "ace_high", "counter_clockwise", "african_deal", "augment_from_piles",
           "african_points"))


VARIANTS: dict[str, Variant] = {
    v.name: v
    for v in (
        Variant("cassino", "The standard game: single and multiple builds, 11 points a hand, game to 21, "
                "count-out.", (2, 3, 4)),
        Variant("partnership", "Four players in two teams of partners sitting opposite; partners pool "
                "their captures.", (4,), (("teams", True),), teams_at=(4,), fixed=("teams",)),
        Variant("draw", "After the first deal each player draws a card from the stock after every play.",
                (2, 3, 4), (("draw", True),), fixed=("draw",)),
        Variant("royal", "Courts count J 11, Q 12, K 13 and an ace 1 or 14: everything builds and sums.",
                (2, 3, 4), _ROYAL, fixed=("court_capture", "ace_high")),
        Variant("buckeye", "Royal Cassino where the ten of diamonds counts 10 or 11.", (2, 3, 4),
                (*_ROYAL, ("big_ten_eleven", True)), fixed=("court_capture", "ace_high", "big_ten_eleven")),
        Variant("spade", "Every spade scores a point and the jack of spades one more, in place of most "
                "spades: 24 a hand; game to 61.", (2, 3, 4),
                (("spade_points", "each"), ("target", 61))),
        Variant("california", "Dealt one card at a time; courts take any number of their rank; no sweeps; "
                "each player deals twice and the highest total wins.", (2, 3, 4, 6),
                (("deal_packet", 1), ("court_capture", "any"), ("deals_each", 2), ("target", None),
                 ("count_out", False), ("end_rule", "highest")), fixed=("sweeps",)),
        Variant("portuguese", "Game to 31, a point a sweep, and a 26-26 tie for cards goes to most spades; "
                "two players or four in teams.", (2, 4),
                (("target", 31), ("sweeps", 1), ("most_cards_tie", "spades_decide")), teams_at=(4,)),
        Variant("pluck", "Once each deal a player may also pluck a non-point card from the table.",
                (2, 3, 4), (("pluck", True),), fixed=("pluck",)),
        Variant("trailing-royals", "Courts pair and build in multiples freely; an orphaned court stays to "
                "the end and goes to the last capturer.", (2, 3, 4),
                (("court_capture", "any"), ("court_builds", True)), fixed=("court_capture", "court_builds")),
        _STEALING_BUNDLES,
        _AFRICAN,
        Variant("five-hand", "Five players; the twos of hearts, diamonds and clubs are removed and the last "
                "deal gives each player a fifth card.", (5,), (("deck", "five_hand"),), fixed=("deck",)),
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
    o = options
    if o.count_out and o.target is None:
        raise OptionError("A count-out needs a target score; set count_out to false "
                          "when the game has no target.", "count_out")
    if o.deals_each is not None and o.target is not None:
        raise OptionError("A game of a fixed number of deals has no target: set target to null.", "deals_each")
    if o.instant_scoring and o.target is None:
        raise OptionError("Instant scoring plays to a target score; it needs one.", "instant_scoring")
    if o.instant_scoring and o.sweeps_cancel:
        raise OptionError("Sweeps scored the moment they happen cannot cancel later.", "sweeps_cancel")
    if o.all_eleven != "none" and o.spade_points != "none":
        raise OptionError("all_eleven is about the 11 points of the standard scoring, "
                          "which spade scoring replaces.", "all_eleven")
    if o.court_builds and o.courts_have_values:
        raise OptionError("With Royal values courts already build like numbers; court_builds is for "
                          "courts without values.", "court_builds")
    if o.draw and o.deal_packet != 2:
        raise OptionError("A draw game deals its first round in twos and then draws.", "deal_packet")
    _validated_bundles(o)
    if players is not None:
        if o.teams and players != 4:
            raise OptionError("Partners play four to a table, in two teams.", "teams")
        if (o.deck == "five_hand") != (players == 5):
            raise OptionError("Five players use the five-hand deck (three twos removed), and only they do.",
                              "deck")
    return options


def _validated_bundles(o: Options) -> None:
    """Stealing Bundles' options (003) that need one another."""
    if o.steal_bundles and not o.open_piles:
        raise OptionError("A bundle is stolen by matching its top card, so the piles must lie face up "
                          "(open_piles).", "steal_bundles")
    if o.capture_by == "rank" and o.court_capture != "any":
        raise OptionError("When cards pair by rank, every rank takes any number of its kind: set "
                          "court_capture to any.", "capture_by")
    if o.african_points and (o.spade_points != "none" or o.all_eleven != "none" or o.score_by_cards
                             or o.count_out or o.instant_scoring):
        raise OptionError("African points replace the standard table; spade points, all-eleven and scoring "
                          "by cards do not go with them, nor a count-out or instant scoring.", "african_points")
    if o.augment_from_piles and not o.open_piles:
        raise OptionError("Captured cards are played from face-up piles: augment_from_piles needs open_piles.",
                          "augment_from_piles")
    if o.team_pile and not o.teams:
        raise OptionError("One pile per side is for partners: team_pile needs teams.", "team_pile")
    if o.african_deal and (o.draw or o.deck != "standard" or o.initial_pairs):
        raise OptionError("The African deal shares out the whole standard deck at once; it does not go with "
                          "drawing, the five-hand deck or initial pairs.", "african_deal")
    if o.score_by_cards and (o.target is not None or o.sweeps or o.spade_points != "none"
                             or o.all_eleven != "none" or o.instant_scoring):
        raise OptionError("Scoring by cards counts only cards: one hand is the game (target null), "
                          "with no sweeps, spade points, all-eleven or instant scoring.", "score_by_cards")


def resolve(variant: str, overrides: dict[str, Any] | None = None,
            players: int | None = None) -> Options:
    """The full options of a game of ``variant`` with ``overrides`` applied."""
    preset = VARIANTS.get(variant)
    if preset is None:
        raise OptionError(f"Unknown variant {variant!r}; the variants are {', '.join(VARIANTS)}.")
    if players is not None and players not in preset.players:
        counts = ", ".join(map(str, preset.players))
        raise OptionError(f"{variant} is played by {counts} players, not {players}.")
    overrides = _checked(overrides or {})
    defining = preset.options
    for name in preset.fixed:
        if name in overrides and overrides[name] != getattr(defining, name):
            raise OptionError(f"{variant} cannot change {name!r}: it is what makes the variant.", name)
    base = defining
    if players in preset.teams_at:
        base = replace(base, teams=True)
    if players is not None:
        base = replace(base, **dict(dict(preset.at_players).get(players, ())))
    return validated(replace(base, **overrides), players)

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
from collections.abc import Callable
from typing import Any

from ..errors import OptionError, UnknownOption

#: The allowed values of each option, default first. ``int`` means "a whole
#: number in the range given in ``_INT_RANGES``".
CHOICES: dict[str, tuple[Any, ...]] = {
    "court_capture": ("one_or_three", "one", "any", "valued"),
    "court_values": ("royal", "tablanette"),
    "jack_takes_all": (False, True),
    "court_builds": (False, True),
    "ace_high": (False, True),
    "big_ten_eleven": (False, True),
    "owner_duty": ("no_trail", "must_act", "strict", "free", "next_turn"),
    "duty_penalty": (0, 2),
    "builds": (True, False),
    "builds_in_sums": (False, True),
    "raise_own_build": ("allowed", "needs_both", "forbidden"),
    "raise_with_table_cards": (False, True),
    "partial_capture": (True, False),
    "pluck": (False, True),
    "pluck_after_stock": (False, True),
    "sweeps": (0, 1, 2),
    "sweep_pips": (False, True),
    "spade_five_sweeps": (False, True),
    "sweeps_cancel": (False, True),
    "sweep_on_last_play": (True, False),
    "most_cards_tie": ("none", "spades_decide", "split"),
    "spade_points": ("none", "each", "each_and_most"),
    "all_eleven": ("none", "bonus", "skunk", "win"),
    "instant_scoring": (False, True),
    "instant_sweeps": (False, True),
    "instant_points": (False, True),
    "strikes_to_lose": (None, 3),
    "initial_pairs": (False, True),
    "target": (21, 11, 31, 61, 251, None, int),
    "deals_each": (None, int),
    "end_rule": ("scoring_order", "highest"),
    "count_out": (True, False),
    "deck": ("standard", "five_hand", "forty"),
    "hand_size": (4, 3, 6),
    "table_size": (4, 5),
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
    # Diamond and Tablanette (004)
    "diamond_points": (False, True),
    "tablanette_points": (False, True),
}
_INT_RANGES = {"target": (1, 10_000), "deals_each": (1, 10)}

#: The numbers of the court ranks (11 jack, 12 queen, 13 king) under ``court_values``; Tablanette's
#: jack has none (it takes the table instead).
COURT_NUMBERS = {"royal": {11: 11, 12: 12, 13: 13}, "tablanette": {12: 13, 13: 14}}
_HIGHEST_COURT = {name: max(numbers.values()) for name, numbers in COURT_NUMBERS.items()}


@dataclass(frozen=True, slots=True)
class Options:
    """The resolved rules of one game. Every field has the default of ``cassino``.

    See ``docs/rules.md`` for what each option does and which source it follows.
    """

    court_capture: str = "one_or_three"
    court_values: str = "royal"  # valued courts: "royal" J 11 Q 12 K 13, ace 1/14; "tablanette" Q 13 K 14, ace 1/11
    jack_takes_all: bool = False  # a jack has no number and takes every item on the table (Tablanette)
    court_builds: bool = False  # courts may be built in multiples (Trailing-royals)
    ace_high: bool = False  # an ace may count 14 (Royal)
    big_ten_eleven: bool = False  # the ten of diamonds may count 11 (Buckeye)
    owner_duty: str = "no_trail"
    duty_penalty: int = 0  # 2: a move against the owner's duty is allowed and costs 2 points at once (Michigan)
    builds: bool = True  # False: no builds at all, only trails and captures (Callabra, Tablanette)
    builds_in_sums: bool = False  # an opponent's single build may be taken in a sum, as a number (004)
    raise_own_build: str = "allowed"
    raise_with_table_cards: bool = False
    partial_capture: bool = True
    pluck: bool = False  # once a deal, take a non-point card from the table (Pluck)
    pluck_after_stock: bool = False  # plucks go on in the last round, but not on the hand's last play (004)
    sweeps: int = 0
    sweep_pips: bool = False  # a sweep scores the pips of the table it takes, at once (Tablanette)
    spade_five_sweeps: bool = False  # trailing the 5 of spades takes the whole table as a sweep (004)
    sweeps_cancel: bool = False
    sweep_on_last_play: bool = True
    most_cards_tie: str = "none"
    spade_points: str = "none"  # every spade scores (Spade Cassino)
    all_eleven: str = "none"
    instant_scoring: bool = False  # instant_sweeps and instant_points together (sudden death, as first stored)
    instant_sweeps: bool = False  # sweeps score as they happen; reaching the target then ends the game
    instant_points: bool = False  # point cards score as taken; reaching the target then ends the game
    strikes_to_lose: int | None = None  # instant scores against a side (sweeps, defaults) that lose it the game
    initial_pairs: bool = False  # pairs dealt to the table go to the first player
    target: int | None = 21
    deals_each: int | None = None  # the game lasts this many deals per player (California)
    end_rule: str = "scoring_order"
    count_out: bool = True
    deck: str = "standard"  # "five_hand": without 2H 2D 2C; "forty": without courts (Diamond)
    hand_size: int = 4  # cards to each hand in a round (Diamond and Callabra 3, Tablanette 6)
    table_size: int = 4  # cards to the table in the first round (Callabra 5)
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
    # Diamond and Tablanette (004)
    diamond_points: bool = False  # most cards 1, most diamonds 1, 7D 1, all four 7s, 6s or aces 2 each
    tablanette_points: bool = False  # most cards 3; A, 10, J, Q, K 1 each; 10D one more; 2C 1

    @property
    def courts_have_values(self) -> bool:
        """True when jacks, queens and kings count 11, 12 and 13 (Royal values)."""
        return self.court_capture == "valued"

    @property
    def ace_high_value(self) -> int:
        """What an ace counts when it counts high (``ace_high``): 14, or 11
        with Tablanette's values."""
        return 11 if self.court_values == "tablanette" else 14

    def court_number(self, rank: int) -> int | None:
        """The number of a court rank (11 jack, 12 queen, 13 king), if it has
        one: none without Royal values, nor for a jack that takes the whole
        table."""
        if not self.courts_have_values or (self.jack_takes_all and rank == 11):
            return None
        return COURT_NUMBERS[self.court_values].get(rank)

    @property
    def highest_value(self) -> int:
        """The largest number value a card, build or capture can have.

        Courts built in multiples of their rank (``court_builds``) have no
        number value, so they do not raise it."""
        top = _HIGHEST_COURT[self.court_values] if self.courts_have_values else 11 if self.big_ten_eleven else 10
        return max(top, self.ace_high_value) if self.ace_high else top

    @property
    def sweeps_at_once(self) -> bool:
        """Whether sweeps score the moment they are made (sudden death, or
        Tablanette's pips)."""
        return self.instant_scoring or self.instant_sweeps or self.sweep_pips

    @property
    def cards_at_once(self) -> bool:
        """Whether point cards score the moment they are taken (sudden death)."""
        return self.instant_scoring or self.instant_points

    @property
    def sudden_death(self) -> bool:
        """Whether reaching the target by a score made at once ends the game there."""
        return self.instant_scoring or self.instant_sweeps or self.instant_points

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

#: Diamond Cassino (004): forty cards, three each, points for cards, diamonds, the 7D and sets of four.
_DIAMOND = Variant(
    "diamond", "Forty cards (no courts), three each and four to the table; most cards 1, most diamonds 1, "
    "the 7 of diamonds 1, a sweep 1, and 2 for each of all four 7s, all four 6s and all four aces; game to 11.",
    (2, 3, 4),
    (("deck", "forty"), ("hand_size", 3), ("diamond_points", True), ("sweeps", 1), ("target", 11),
     ("count_out", False)),
    fixed=("deck", "hand_size", "diamond_points"))

#: Callabra (004): three each and five to the table, courts counted J 11, Q 12, K 13, no builds.
_CALLABRA = Variant(
    "callabra", "Three each and five to the table; jacks count 11, queens 12 and kings 13 and take sums like "
    "numbers; cards are trailed or taken, not built.", (2, 3, 4),
    (("hand_size", 3), ("table_size", 5), ("court_capture", "valued"), ("builds", False)),
    fixed=("hand_size", "table_size", "court_capture"))

#: Tablanette (004): six each, a jack takes the table, a cleared table scores its pips, game to 251.
_TABLANETTE = Variant(
    "tablanette", "Six each; queens count 13, kings 14, an ace 1 or 11; a jack takes the whole table; clearing "
    "the table otherwise scores the pips taken; most cards 3, each ace, ten and court 1, the 10 of diamonds 1 "
    "more, the 2 of clubs 1; no builds; game to 251.", (2, 3, 4),
    (("hand_size", 6), ("court_capture", "valued"), ("court_values", "tablanette"), ("ace_high", True),
     ("jack_takes_all", True), ("builds", False), ("sweeps", 1), ("sweep_pips", True), ("tablanette_points", True),
     ("target", 251), ("end_rule", "highest"), ("count_out", False)),
    fixed=("hand_size", "court_capture", "court_values", "jack_takes_all", "sweep_pips", "tablanette_points"))


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
        _DIAMOND,
        _CALLABRA,
        _TABLANETTE,
        Variant("five-hand", "Five players; the twos of hearts, diamonds and clubs are removed and the last "
                "deal gives each player a fifth card.", (5,), (("deck", "five_hand"),), fixed=("deck",)),
    )
}


def _checked(data: dict[str, Any]) -> dict[str, Any]:
    if not isinstance(data, dict):
        raise UnknownOption("Options must be an object of option names and values.")
    unknown = sorted(set(data) - set(CHOICES))
    if unknown:
        raise UnknownOption(
            f"Unknown option {unknown[0]!r}; the options are {', '.join(CHOICES)}.", unknown[0]
        )
    for name, value in data.items():
        if not _allowed(name, value):
            shown = ", ".join("null" if c is None else str(c).lower() if isinstance(c, bool) else
                              "a whole number" if c is int else str(c) for c in CHOICES[name])
            raise UnknownOption(f"Option {name!r} cannot be {value!r}; it takes {shown}.", name)
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
    if o.all_eleven != "none" and o.spade_points != "none":
        raise OptionError("all_eleven is about the 11 points of the standard scoring, "
                          "which spade scoring replaces.", "all_eleven")
    if o.court_builds and o.courts_have_values:
        raise OptionError("With Royal values courts already build like numbers; court_builds is for "
                          "courts without values.", "court_builds")
    if o.draw and o.deal_packet != 2:
        raise OptionError("A draw game deals its first round in twos and then draws.", "deal_packet")
    _validated_bundles(o)
    _validated_at_once(o)
    _validated_tables(o)
    _validated_plays(o)
    if players is not None:
        if o.teams and players != 4:
            raise OptionError("Partners play four to a table, in two teams.", "teams")
        if (o.deck == "five_hand") != (players == 5):
            raise OptionError("Five players use the five-hand deck (three twos removed), and only they do.",
                              "deck")
    return options


#: Options that do not go together: (when, the option at fault, why), checked in order.
Conflict = tuple[Callable[[Options], bool], str, str]

#: Stealing Bundles' and African options (003) that need one another.
_BUNDLES: tuple[Conflict, ...] = (
    (lambda o: o.steal_bundles and not o.open_piles, "steal_bundles",
     "A bundle is stolen by matching its top card, so the piles must lie face up (open_piles)."),
    (lambda o: o.capture_by == "rank" and o.court_capture != "any", "capture_by",
     "When cards pair by rank, every rank takes any number of its kind: set court_capture to any."),
    (lambda o: o.african_points and (o.instant_scoring or o.instant_sweeps or o.instant_points), "african_points",
     "African points are counted at the end of the hand, not as cards are taken."),
    (lambda o: o.augment_from_piles and not o.open_piles, "augment_from_piles",
     "Captured cards are played from face-up piles: augment_from_piles needs open_piles."),
    (lambda o: o.team_pile and not o.teams, "team_pile", "One pile per side is for partners: team_pile needs teams."),
    (lambda o: o.african_deal and (o.draw or o.deck != "standard" or o.initial_pairs or o.hand_size != 4
                                   or o.table_size != 4), "african_deal",
     "The African deal shares out the whole standard deck at once; it does not go with drawing, another deck, "
     "other hand or table sizes, or initial pairs."),
    (lambda o: o.score_by_cards and (o.target is not None or bool(o.sweeps) or o.spade_points != "none"
                                     or o.all_eleven != "none" or o.cards_at_once), "score_by_cards",
     "Scoring by cards counts only cards: one hand is the game (target null), with no sweeps, spade points, "
     "all-eleven or instant scoring."),
    (lambda o: o.steal_bundles and o.cards_at_once, "steal_bundles",
     "A stolen bundle's point cards were scored by their first taker: stealing does not go with scoring cards "
     "as they are taken."),
)

#: Scores made during a hand (Tablanette's pips, Michigan's defaults and strikes), after sudden death's target.
_AT_ONCE: tuple[Conflict, ...] = (
    (lambda o: o.sweeps_at_once and o.sweeps_cancel, "sweeps_cancel",
     "Sweeps scored the moment they happen cannot cancel later."),
    (lambda o: o.sweep_pips and (not o.sweeps or o.initial_pairs or o.spade_five_sweeps or o.capture_by == "rank"
                                 or not (o.courts_have_values or o.deck == "forty")), "sweep_pips",
     "A sweep scores its pips only where sweeps score and every card has a number (valued courts or the "
     "forty-card deck), and not with initial pairs or the 5S sweep."),
    (lambda o: o.spade_five_sweeps and not o.sweeps, "spade_five_sweeps",
     "Trailing the 5S makes a sweep, which scores only where sweeps do: set sweeps."),
    (lambda o: bool(o.duty_penalty) and (o.owner_duty == "free" or not o.builds), "duty_penalty",
     "A penalty for failing the owner's duty needs a duty (and builds)."),
    (lambda o: o.strikes_to_lose is not None and not (o.duty_penalty or o.instant_sweeps or o.instant_scoring),
     "strikes_to_lose",
     "Strikes are instant scores against a side: they need sweeps scored as they happen or a penalty for defaults."),
)


def _refuse(conflicts: tuple[Conflict, ...], o: Options) -> None:
    """Refuse the first of ``conflicts`` that ``o`` has."""
    for when, name, why in conflicts:
        if when(o):
            raise OptionError(why, name)


def _validated_bundles(o: Options) -> None:
    """Stealing Bundles' options (003) that need one another."""
    _refuse(_BUNDLES, o)


def _validated_at_once(o: Options) -> None:
    """Scores made during a hand (sudden death, Tablanette's pips, Michigan's
    defaults and strikes)."""
    if o.sudden_death and o.target is None:
        name = next(n for n in ("instant_scoring", "instant_sweeps", "instant_points") if getattr(o, n))
        raise OptionError("Instant scoring plays to a target score; it needs one.", name)
    _refuse(_AT_ONCE, o)


def _validated_tables(o: Options) -> None:
    """The scoring tables other than the standard one replace it whole."""
    chosen = [n for n in ("african_points", "diamond_points", "tablanette_points") if getattr(o, n)]
    if len(chosen) > 1:
        raise OptionError("A hand is counted by one scoring table.", chosen[1])
    if chosen and (o.spade_points != "none" or o.all_eleven != "none" or o.score_by_cards or o.count_out):
        raise OptionError(f"{chosen[0]} replaces the standard table; spade points, all-eleven and scoring by "
                          "cards do not go with it, nor a count-out.", chosen[0])


def _validated_plays(o: Options) -> None:
    """Card values, builds and plucks."""
    if o.court_values != "royal" and not o.courts_have_values:
        raise OptionError("Court values are for courts that have numbers: set court_capture to valued.",
                          "court_values")
    if o.jack_takes_all and (o.capture_by == "rank" or o.court_builds):
        raise OptionError("A jack that takes the table does not pair by rank or build.", "jack_takes_all")
    if not o.builds and (o.court_builds or o.augment_from_piles or o.max_own_builds is not None
                         or o.builds_in_sums):
        raise OptionError("Without builds there are no court builds, augmenting, limits on builds or builds "
                          "taken in sums.", "builds")
    if o.builds_in_sums and o.capture_by == "rank":
        raise OptionError("Builds are taken in sums only where cards add up.", "builds_in_sums")
    if o.pluck_after_stock and not o.pluck:
        raise OptionError("pluck_after_stock says when plucks stop; it needs pluck.", "pluck_after_stock")


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

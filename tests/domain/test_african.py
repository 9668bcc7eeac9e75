"""African Cassino (seed 003): each option the `african` preset is made of,
and the preset, each test citing the sentence of 003 it checks
(docs/rules.md, "African")."""

import pytest

from domain import OptionError, full_deck
from domain.cassino import Build, CreateGame, Deal, Move, Play, decide, fold, legal_moves, resolve
from domain.cassino.events import HandEnded

from .positions import after, position, refusal

AFRICAN = {"african_points": True, "count_out": False, "target": 11}
SPADES = "2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS AS"


def hand_end(piles, **options):
    """The last card of a hand is trailed by seat 0, the last capturer."""
    hands = ["KC"] + [""] * (len(piles) - 1)
    state = position(table="", hands=hands, stock="", captured=piles, last_capturer=0,
                     options={**AFRICAN, **options})
    return next(e for e in decide(state, Play(0, Move.parse("KC trail"))) if isinstance(e, HandEnded))


class TestAfricanPoints:
    def test_the_table_of_points(self):
        """003: most cards 2, most spades 2, "Capturing the Two of Spades (called Spy Two)1",
        "Capturing the Ten of Spades (called Big Ten)2", "Each Ace Captured1 Point Each"."""
        ended = hand_end(["2S 10S AS AH 3S 4S 5C", "AD 9C 9D"])
        points = [(a.category, a.team, a.points) for a in ended.points]
        assert points == [("most_cards", 0, 2), ("most_spades", 0, 2), ("spy_two", 0, 1), ("big_ten", 0, 2),
                          ("ace_S", 0, 1), ("ace_H", 0, 1), ("ace_D", 1, 1)]

    def test_ties_for_cards_or_spades_give_one_point_to_each(self):
        """003: "If there is a tie ... for most cards or most Spades captured, the tying players would each
        score 1 point for the category"."""
        ended = hand_end(["3S 4D 5D", "6S 7D", "8H 9H 10H"])  # KC joins seat 0: 4, 2, 3 cards
        assert [(a.category, a.team, a.points) for a in ended.points][:1] == [("most_cards", 0, 2)]
        ended = hand_end(["3S 4D", "6S 7D 8D"])  # 3 cards each once KC joins seat 0
        assert [(a.category, a.team, a.points) for a in ended.points] == [
            ("most_cards", 0, 1), ("most_cards", 1, 1), ("most_spades", 0, 1), ("most_spades", 1, 1)]

    def test_the_strict_order_decides_who_reaches_11_first(self):
        """003: "If two or more players reach or exceed 11 points in the same hand, the scores are
        calculated in the following strict order (first to last): Most Cards, Most Spades, Spy Two, Big
        Ten, Spade Ace, Club Ace, Ace of Hearts then Ace of Diamonds"."""
        state = position(table="", hands=["KC", ""], stock="", last_capturer=0, scores=[8, 9],
                         captured=["AS AC AH AD 5D 6D 7D", "3S 4S 5S"], options=AFRICAN)
        finished = decide(state, Play(0, Move.parse("KC trail")))[-1]
        # seat 1 reaches 11 on most spades before seat 0's four aces come up, though seat 0 ends higher
        assert finished.winner == 1 and finished.scores == (8 + 2 + 4, 9 + 2)

    def test_it_replaces_the_standard_table_and_has_no_count_out(self):
        with pytest.raises(OptionError) as refused:
            resolve("cassino", {"african_points": True}, 3)
        assert refused.value.name == "african_points"
        with pytest.raises(OptionError):
            resolve("spade", {"african_points": True, "count_out": False}, 2)


def dealt(players, dealer, **options):
    names = tuple(f"P{i}" for i in range(players))
    state = fold(decide(None, CreateGame("cassino", names, dealer, {**AFRICAN, **options})))
    events = decide(state, Deal(full_deck()))
    return events, fold(events, state)


class TestTheDealAndTheTurn:
    def test_four_table_cards_from_the_middle_then_every_card_one_at_a_time(self):
        """003: "draws four unseen cards from the middle of the deck. These cards are placed individually
        and face up in the center of the table", then "deals out the remainder of the cards to the
        players in rotation, one card at a time"; the middle is positions 24-27 (docs/rules.md)."""
        deck = [c.code for c in full_deck()]
        _, state = dealt(3, 0, african_deal=True, counter_clockwise=True)
        assert [c.code for c in state.table] == deck[24:28]
        rest = deck[:24] + deck[28:]
        # the dealer is seat 0, so to the right: seat 2 first, then 1, then the dealer
        assert [c.code for c in state.hands[2]] == rest[0::3]
        assert [c.code for c in state.hands[1]] == rest[1::3]
        assert [c.code for c in state.hands[0]] == rest[2::3]
        assert state.stock == () and state.turn == 2

    def test_four_players_get_twelve_each_and_two_players_twelve_per_batch(self):
        """003: "with two players each player receives only 12 cards. When those 12 cards have been
        played, the next batch of 12 cards is dealt"."""
        _, four = dealt(4, 3, african_deal=True, counter_clockwise=True, teams=True)
        assert [len(h) for h in four.hands] == [12] * 4 and four.stock == ()
        _, two = dealt(2, 1, african_deal=True, counter_clockwise=True)
        assert [len(h) for h in two.hands] == [12, 12] and len(two.stock) == 24
        for _ in range(24):
            new = decide(two, Play(two.turn, Move.trail(two.hands[two.turn][0])))
            two = fold(new, two)
        assert [len(h) for h in two.hands] == [12, 12] and two.stock == () and two.round == 2

    def test_play_and_the_deal_go_counter_clockwise(self):
        """003: "The dealing rotation, play and dealing privilege all rotate in a counter-clockwise
        rotation", and "The player to the dealers right makes the first play"."""
        _, state = dealt(3, 1, african_deal=True, counter_clockwise=True)
        assert state.turn == 0
        after_one = fold(decide(state, Play(0, Move.trail(state.hands[0][0]))), state)
        assert after_one.turn == 2
        assert state._replace(hand_number=1).next_dealer == 0


class TestBuilding:
    def test_a_build_is_raised_only_when_an_opponent_made_it(self):
        """003: increasing "can only be done on a build that was first created by an opponent" (the
        existing option raise_own_build: forbidden)."""
        mine = position(table="B1=7:4S+3D@0", hands=["2H 9C", "5D"], options={"raise_own_build": "forbidden"})
        assert refusal(mine, 0, "2H build 9 B1") == "raise_own_build"
        theirs = position(table="B1=7:4S+3D@1", hands=["2H 9C", "5D"], options={"raise_own_build": "forbidden"})
        assert after(theirs, 0, "2H build 9 B1").item("B1").value == 9

    def test_an_opponents_build_is_added_to_only_by_taking_it(self):
        """003: "You may normally only augment builds that are currently owned by you or your partner ...
        however if you capture the build in the same turn, you may augment an opponents build"."""
        theirs = position(table="B1=9:5S+4D@1 6C", hands=["3H 9C", "5D"], options={"add_to_others": False})
        assert refusal(theirs, 0, "3H build 9 6C B1") == "add_to_others"
        assert after(theirs, 0, "9C capture B1").captured[0]  # taking it is always allowed
        mine = theirs._replace(table=(Build("B1", 9, theirs.table[0].groups, 0), theirs.table[1]))
        assert after(mine, 0, "3H build 9 6C B1").item("B1").multiple
        partners = position(table="B1=9:5S+4D@2 6C", hands=["3H 9C", "5D", "", ""],
                            options={"add_to_others": False, "teams": True})
        assert after(partners, 0, "3H build 9 6C B1").item("B1").owner == 0
        assert not [m for m in legal_moves(theirs, 0) if m.action == "build" and "B1" in m.targets]

    def test_two_players_own_at_most_one_build_and_cannot_discard_while_owning_one(self):
        """003 (two players): "A player may never discard to the center of the table while they have any
        uncaptured builds on the table. At the end of a players turn, that player may never have more than
        one uncaptured build on the table"."""
        state = position(table="B1=9:5S+4D@0 6C", hands=["3H 9C 2C 8H", "5D"], options={"max_own_builds": 1})
        assert refusal(state, 0, "2C build 8 6C") == "too_many_builds"
        assert refusal(state, 0, "3H build 9 6C") == "too_many_builds"  # a second build, of the same value
        assert after(state, 0, "3H build 9 6C B1").builds_of(0) != ()  # adding to the one it owns
        assert refusal(state, 0, "8H trail") == "must_act_on_build"  # owner_duty: no_trail, the default
        free = position(table="6C", hands=["2C 8H", "5D"], options={"max_own_builds": 1})
        assert after(free, 0, "2C build 8 6C").builds_of(0)


class TestPartnersPile:
    def test_partners_keep_one_pile_with_the_last_capturing_card_on_top(self):
        """003: "each partnership contains just one pile for the partnership", and "the actual card used
        to make the last capture must always be the top, faced card of the pile"."""
        opts = {"teams": True, "team_pile": True}
        state = position(table="5S 7D", hands=["", "", "5H 2D", "7H 3C"], turn=3, options=opts,
                         captured=["9S 9C", "", "", ""])
        taken = after(state, 3, "7H capture 7D")
        assert [c.code for c in taken.captured[1]] == ["7D", "7H"] and taken.captured[3] == ()
        taken = after(state._replace(turn=2), 2, "5H capture 5S")
        assert [c.code for c in taken.captured[0]] == ["9S", "9C", "5S", "5H"] and taken.captured[2] == ()
        with pytest.raises(OptionError) as refused:
            resolve("cassino", {"team_pile": True}, 2)
        assert refused.value.name == "team_pile"


PILES = {"augment_from_piles": True, "open_piles": True}


class TestAugmentingFromPiles:
    def test_the_top_card_of_an_opponents_pile_joins_ones_build(self):
        """003: "when augmenting a build, the top card of an opponents capture pile may be used to assist
        in this endeavor"."""
        state = position(table="B1=9:5S+4D@0", hands=["2H 9C", "5D"], captured=["", "KD 7S"], options=PILES)
        built = after(state, 0, "2H build 9 B1 seat:1")
        assert [[c.code for c in g] for g in built.item("B1").groups] == [["5S", "4D"], ["7S", "2H"]]
        assert [c.code for c in built.captured[1]] == ["KD"]  # the next card now shows
        assert "2H build 9 B1 seat:1" in {m.text for m in legal_moves(state, 0)}

    def test_the_next_card_may_be_used_too_when_it_also_joins_the_build(self):
        """003: "if the next exposed card in the pile could be used with another card (from the hand or
        the table) to further augment the build, that is permissible"."""
        state = position(table="B1=9:5S+4D@0 5C", hands=["2H 9C", "5D"], captured=["", "3C 4H 7S"],
                         options=PILES)
        built = after(state, 0, "2H build 9 5C B1 seat:1 seat:1")
        assert len(built.item("B1").groups) == 3 and [c.code for c in built.captured[1]] == ["3C"]
        assert refusal(state, 0, "2H build 9 B1 seat:1 seat:1") == "illegal_build"  # 4H joins no group
        assert "2H build 9 5C B1 seat:1 seat:1" in {m.text for m in legal_moves(state, 0)}

    def test_only_an_opponents_pile_only_to_add_to_ones_own_build(self):
        """003: "Only the topmost card of an opponents capture pile is allowed to be accessed"; and it is
        used in augmenting, so never to make, raise or take a build."""
        state = position(table="B1=9:5S+4D@0 3D", hands=["2H 9C 7C", "5D"], captured=["7D", "7S"], options=PILES)
        assert refusal(state, 0, "2H build 9 B1 seat:0") == "illegal_build"  # one's own pile
        assert refusal(state, 0, "2H build 9 seat:1") == "illegal_build"  # a new build
        assert refusal(state, 0, "7C capture seat:1") == "target_not_on_table"
        theirs = position(table="B1=9:5S+4D@1", hands=["2H 9C", "5D"], captured=["", "7S"], options=PILES)
        assert refusal(theirs, 0, "2H build 9 B1 seat:1") == "illegal_build"
        plain = position(table="B1=9:5S+4D@0", hands=["2H 9C", "5D"], captured=["", "7S"],
                         options={"open_piles": True})
        assert refusal(plain, 0, "2H build 9 B1 seat:1") == "target_not_on_table"


class TestThePreset:
    def test_each_seat_count(self):
        """003: "The version described first is for 3 players"; "Two Player African Cassino"; "When played
        by four, the game is played in two partnerships"."""
        three, two, four = (resolve("african", {}, n) for n in (3, 2, 4))
        assert three.counter_clockwise and three.augment_from_piles and three.target == 11
        assert (three.max_own_builds, three.teams, three.team_pile) == (None, False, False)
        assert two.max_own_builds == 1 and not two.teams
        assert four.teams and four.team_pile and four.max_own_builds is None
        with pytest.raises(OptionError):
            resolve("african", {}, 5)

    def test_a_fixed_deck_deals_the_same_every_time(self):
        deck = full_deck()
        first = [decide(fold(decide(None, CreateGame("african", ("A", "B", "C"), 0))), Deal(deck))
                 for _ in range(2)]
        assert first[0] == first[1]
        assert [c.code for c in first[0][0].table] == [c.code for c in deck[24:28]]

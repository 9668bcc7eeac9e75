"""The Cassino family: each variant's distinctive rules, played from positions
and fixed decks. Sources: 003 (Royal, Draw, Spade, California), 004 (Buckeye,
Spade's 25, California, Portuguese, Pluck, Trailing-royals, five players,
sudden death, initial pairs, all eleven points)."""

import pytest

from domain import OptionError, RuleViolation, full_deck
from domain.cassino import CreateGame, Deal, Move, Play, decide, fold, legal_moves, resolve
from domain.cassino.dealing import deck_for
from domain.cassino.events import CardDrawn, GameFinished, HandEnded, InitialPairsTaken, PointsScored, RoundDealt

from .positions import after, position, refusal

DECK = full_deck()


def game(variant, players=2, first_dealer=None, deck=None, **options):
    names = tuple(f"P{i}" for i in range(players))
    dealer = players - 1 if first_dealer is None else first_dealer
    events = decide(None, CreateGame(variant, names, dealer, options))
    state = fold(events)
    events += decide(state, Deal(deck or deck_for(state.options)))
    return events


class TestRoyal:
    def test_an_ace_counts_14_to_take_a_king_and_an_ace(self):
        state = position(table="KH AD 9C 5S", hands=["AS 3C", "2H"], variant="royal")
        assert len(after(state, 0, "AS capture KH AD").captured[0]) == 3
        assert len(after(state, 0, "AS capture 9C 5S").captured[0]) == 3  # 9 + 5 = 14

    def test_the_move_may_say_which_value_the_ace_takes(self):
        state = position(table="AD 9C 5S", hands=["AS 3C", "2H"], variant="royal")
        as_14 = Move.from_dict({"card": "AS", "action": "capture", "targets": ["9C", "5S"], "value": 14})
        assert fold(decide(state, Play(0, as_14)), state).table == (state.table[0],)
        as_1 = Move.from_dict({"card": "AS", "action": "capture", "targets": ["9C", "5S"], "value": 1})
        with pytest.raises(RuleViolation):
            decide(state, Play(0, as_1))
        as_7 = Move.from_dict({"card": "AS", "action": "capture", "targets": ["AD"], "value": 7})
        with pytest.raises(RuleViolation, match="1 or 14"):
            decide(state, Play(0, as_7))

    def test_courts_build_and_sum(self):
        state = position(table="9C 5S", hands=["3C QD", "2H"], variant="royal")
        assert after(state, 0, "3C build 12 9C").item("B1").value == 12
        state = position(table="JC 2S", hands=["KD 4C", "2H"], variant="royal")
        assert after(state, 0, "KD capture JC 2S").table == ()

    def test_a_build_of_14_is_taken_by_an_ace(self):
        state = position(table="KH", hands=["AS AC", "2H"], variant="royal")
        built = after(state, 0, "AS build 14 KH")
        assert built.item("B1").value == 14
        assert refusal(position(table="B1=14:KH+AS@1", hands=["KC 2C", "AD"], variant="royal"),
                       0, "KC capture B1") == "illegal_capture"

    def test_royal_is_always_valued(self):
        with pytest.raises(OptionError) as refused:
            resolve("royal", {"court_capture": "one"}, 2)
        assert refused.value.name == "court_capture"


class TestBuckeye:
    def test_the_ten_of_diamonds_counts_10_or_11(self):
        state = position(table="5S 6H 4C", hands=["10D 2C", "3H"], variant="buckeye")
        assert after(state, 0, "10D capture 5S 6H").table  # as 11
        state = position(table="6H 4C", hands=["10D 2C", "3H"], variant="buckeye")
        assert after(state, 0, "10D capture 6H 4C").table == ()  # as 10

    def test_on_the_table_it_can_be_taken_as_11_by_a_jack(self):
        state = position(table="10D", hands=["JS 2C", "3H"], variant="buckeye")
        assert after(state, 0, "JS capture 10D").table == ()
        assert refusal(position(table="10H", hands=["JS 2C", "3H"], variant="buckeye"),
                       0, "JS capture 10H") == "illegal_capture"


def end_of_hand(variant, piles, **options):
    state = position(table="", hands=["KC", ""], stock="", captured=piles, last_capturer=0,
                     variant=variant, options=options)
    events = decide(state, Play(0, Move.parse("KC trail")))
    return next(e for e in events if isinstance(e, HandEnded))


SPADES = [c.code for c in DECK if c.suit == "S"]
OTHERS = [c.code for c in DECK if c.suit != "S" and c.code != "KC"]


class TestSpade:
    def piles(self):
        return " ".join(SPADES[:8] + OTHERS[:22]), " ".join(SPADES[8:] + OTHERS[22:])

    def test_every_spade_scores_and_the_jack_one_more_for_24_a_hand(self):
        ended = end_of_hand("spade", self.piles())
        assert sum(a.points for a in ended.points) == 24
        assert "most_spades" not in {a.category for a in ended.points}
        by_team = {a.team: a.points for a in ended.points if a.category == "spades"}
        assert by_team == {0: 8, 1: 5 + 1}  # JS is seat 1's

    def test_the_option_keeps_most_spades_for_25(self):
        ended = end_of_hand("spade", self.piles(), spade_points="each_and_most")
        assert sum(a.points for a in ended.points) == 25

    def test_spade_plays_to_61(self):
        assert resolve("spade", {}, 2).target == 61


class TestDraw:
    def test_each_play_is_followed_by_a_draw_and_no_rounds_are_dealt(self):
        events = game("draw")
        state = fold(events)
        new = decide(state, Play(0, Move.trail(state.hands[0][0])))
        assert isinstance(new[-1], CardDrawn) and new[-1].card is state.stock[0]
        after_draw = fold(new, state)
        assert len(after_draw.hands[0]) == 4 and len(after_draw.stock) == len(state.stock) - 1

    def test_a_whole_hand_has_no_later_rounds(self):
        events = game("draw")
        state = fold(events)
        while state.status == "in_progress":
            move = legal_moves(state, state.turn).first().moves[0]
            new = decide(state, Play(state.turn, move))
            events += new
            state = fold(new, state)
        assert not any(isinstance(e, RoundDealt) for e in events)
        assert sum(isinstance(e, CardDrawn) for e in events) == 52 - 12


class TestCalifornia:
    def test_dealt_one_card_at_a_time(self):
        [dealt] = game("california", first_dealer=1)[1:]
        assert " ".join(c.code for c in dealt.hands[0]) == "AS 4S 7S 10S"
        assert " ".join(c.code for c in dealt.table) == "2S 5S 8S JS"
        assert " ".join(c.code for c in dealt.hands[1]) == "3S 6S 9S QS"

    def test_no_sweeps_ever_and_courts_take_any_number(self):
        with pytest.raises(OptionError) as refused:
            resolve("california", {"sweeps": 1}, 2)
        assert refused.value.name == "sweeps"
        state = position(table="QS QH", hands=["QD 2C", "3H"], variant="california")
        assert after(state, 0, "QD capture QS QH").table == ()

    def test_each_player_deals_twice_then_the_highest_total_wins(self):
        state = position(table="", hands=["KC", ""], stock="", variant="california", captured=[
            " ".join(SPADES + OTHERS[:20]), " ".join(OTHERS[20:])], scores=[5, 30], last_capturer=0)
        early = decide(state, Play(0, Move.parse("KC trail")))
        assert not any(isinstance(e, GameFinished) for e in early)
        last = decide(state._replace(hand_number=4), Play(0, Move.parse("KC trail")))
        assert last[-1].reason == "last_deal" and last[-1].winner == 1

    def test_six_players(self):
        state = fold(game("california", players=6))
        assert [len(h) for h in state.hands] == [4] * 6 and len(state.stock) == 24


class TestPortuguese:
    def test_presets(self):
        opts = resolve("portuguese", {}, 2)
        assert (opts.target, opts.sweeps, opts.most_cards_tie, opts.teams) == (31, 1, "spades_decide", False)
        assert resolve("portuguese", {}, 4).teams is True
        with pytest.raises(OptionError):
            resolve("portuguese", {}, 3)

    def test_a_26_26_tie_goes_to_most_spades(self):
        piles = (" ".join(SPADES[:6] + OTHERS[:19]), " ".join(SPADES[6:] + OTHERS[19:]))
        ended = end_of_hand("portuguese", piles)  # 25 + KC: 26 each; seat 1 has 7 spades
        assert {a.category: a.team for a in ended.points}["most_cards"] == 1


class TestPluck:
    TABLE = dict(table="7H 9C", hands=["5D 8S", "3H 4C"], variant="pluck")

    def test_a_player_plucks_a_non_point_card_and_still_plays(self):
        state = after(position(**self.TABLE), 0, "7H pluck")
        assert [c.code for c in state.captured[0]] == ["7H"] and state.turn == 0
        assert after(state, 0, "5D trail").turn == 1

    def test_once_per_deal(self):
        state = after(position(**self.TABLE), 0, "7H pluck")
        assert refusal(state, 0, "9C pluck") == "already_plucked"

    def test_after_ones_play_but_not_the_card_just_played(self):
        state = after(position(**self.TABLE), 0, "5D trail")
        assert refusal(state, 0, "5D pluck") == "pluck_own_card"
        assert after(state, 0, "9C pluck").captured[0]

    def test_point_cards_the_last_card_and_the_last_round_are_off_limits(self):
        point = position(table="AH 10D 9C", hands=["5D", "3H"], variant="pluck")
        assert refusal(point, 0, "AH pluck") == "pluck_point_card"
        assert refusal(point, 0, "10D pluck") == "pluck_point_card"
        assert refusal(position(table="9C", hands=["5D", "3H"], variant="pluck"), 0, "9C pluck") == "pluck_last_card"
        assert refusal(position(**self.TABLE, stock=""), 0, "7H pluck") == "pluck_after_stock"

    def test_after_the_stock_plucks_go_on_but_not_for_the_last_trick(self):
        """``pluck_after_stock``. 004: "Plucking cannot be used to get the last trick of the round (after
        the deal pile is exhausted)": plucks go on in the last round, but not on the hand's last play."""
        late = {"pluck_after_stock": True}
        last_round = position(**self.TABLE, stock="", options=late)
        assert after(last_round, 0, "7H pluck").captured[0]
        last_play = position(table="7H 9C", hands=["5D", ""], variant="pluck", stock="", options=late)
        assert refusal(last_play, 0, "7H pluck") == "pluck_last_trick"
        assert not [m for m in legal_moves(last_play, 0) if m.action == "pluck"]
        with pytest.raises(OptionError) as refused:
            resolve("cassino", late, 2)
        assert refused.value.name == "pluck_after_stock"

    def test_others_cannot_pluck_out_of_turn_and_other_games_cannot_pluck(self):
        assert refusal(position(**self.TABLE), 1, "7H pluck") == "not_your_turn"
        assert refusal(position(table="7H 9C", hands=["5D", "3H"]), 0, "7H pluck") == "pluck_not_allowed"

    def test_plucks_are_listed_as_moves(self):
        moves = legal_moves(position(**self.TABLE), 0).first().moves
        assert {m.text for m in moves if m.action == "pluck"} == {"7H pluck", "9C pluck"}


class TestTrailingRoyals:
    def test_courts_are_built_in_multiples_and_taken_by_the_fourth(self):
        state = position(table="QS QH", hands=["QD QC 2C", "3H"], variant="trailing-royals")
        built = after(state, 0, "QD build 12 QS QH")
        assert built.item("B1").multiple and len(built.item("B1").cards) == 3
        taken = after(built._replace(turn=0), 0, "QC capture B1")
        assert len(taken.captured[0]) == 4

    def test_number_builds_stop_at_ten_though_courts_build(self):
        """004: courts keep no number value in Trailing-royals, so no number
        build is worth 11-13 and a king cannot take one."""
        state = position(table="2S 9C", hands=["2D KD", "3H"], variant="trailing-royals")
        assert refusal(state, 0, "2D build 13 2S 9C") == "illegal_build"
        assert not any(m.action == "build" and m.value > 10 and not m.card.is_court
                       for m in legal_moves(state, 0))

    def test_a_court_build_needs_a_court_to_take_it(self):
        state = position(table="QS", hands=["QD 2C", "3H"], variant="trailing-royals")
        assert refusal(state, 0, "QD build 12 QS") == "build_needs_card"

    def test_three_of_a_court_are_taken_at_once_and_an_orphan_stays_to_the_end(self):
        state = position(table="KS KH KC", hands=["KD 2C", "3H"], variant="trailing-royals")
        assert after(state, 0, "KD capture KS KH KC").table == ()
        assert after(position(table="KS KH", hands=["KD 2C", "3H"], variant="trailing-royals"),
                     0, "KD capture KS KH").table == ()


class TestFiveHand:
    def test_three_twos_are_removed_and_the_last_deal_gives_five_each(self):
        events = game("five-hand", players=5)
        state = fold(events)
        assert len(deck_for(state.options)) == 49 and len(state.stock) == 25
        while state.status == "in_progress" and state.round == 1:
            new = decide(state, Play(state.turn, Move.trail(state.hands[state.turn][0])))
            events += new
            state = fold(new, state)
        assert [len(h) for h in state.hands] == [5] * 5 and not state.stock
        assert isinstance(events[-1], RoundDealt) and events[-1].last

    def test_only_for_five(self):
        with pytest.raises(OptionError):
            resolve("five-hand", {}, 4)
        with pytest.raises(OptionError):
            resolve("cassino", {"deck": "five_hand"}, 4)


class TestOptions:
    def test_instant_scoring_counts_point_cards_as_taken_and_ends_at_the_target(self):
        state = position(table="10D 2S", hands=["10H 2C", "3H"], scores=[20, 0],
                         options={"instant_scoring": True})
        events = decide(state, Play(0, Move.parse("10H capture 10D")))
        scored = next(e for e in events if isinstance(e, PointsScored))
        assert scored.scores == (22, 0)
        assert isinstance(events[-1], GameFinished) and events[-1].winner == 0

    def test_instant_points_are_not_counted_again_at_the_end(self):
        state = position(table="10D", hands=["10H", ""], stock="", options={"instant_scoring": True})
        events = decide(state, Play(0, Move.parse("10H capture 10D")))
        ended = next(e for e in events if isinstance(e, HandEnded))
        assert "big_casino" not in {a.category for a in ended.points}
        assert fold(events, state).scores[0] == 2 + sum(a.points for a in ended.points if a.team == 0)

    def test_initial_pairs_go_to_the_first_player(self):
        deck = [c for c in DECK]
        # table (positions 2, 3, 8, 9): 3S 4S 9S 10S; swap 4S for 3H to make a pair of threes
        i, j = deck.index(DECK[3]), deck.index(full_deck()[15])
        deck[i], deck[j] = deck[j], deck[i]
        events = game("cassino", deck=tuple(deck), initial_pairs=True)
        taken = next(e for e in events if isinstance(e, InitialPairsTaken))
        assert taken.seat == 0 and sorted(c.code for c in taken.cards) == ["3H", "3S"]
        assert len(fold(events).table) == 2

    # Seat 0 takes every spade, both casinos, every ace and most cards: all eleven points.
    PLAIN = [c for c in OTHERS if c not in ("10D", "AH", "AD", "AC")]
    ALL_ELEVEN = (" ".join(SPADES + ["10D", "AH", "AD", "AC"] + PLAIN[:10]), " ".join(PLAIN[10:]))

    @pytest.mark.parametrize("rule,finished", [("bonus", False), ("win", True), ("skunk", True)])
    def test_all_eleven(self, rule, finished):
        piles = self.ALL_ELEVEN
        state = position(table="", hands=["KC", ""], stock="", captured=piles, last_capturer=0,
                         options={"all_eleven": rule})
        events = decide(state, Play(0, Move.parse("KC trail")))
        ended = next(e for e in events if isinstance(e, HandEnded))
        assert (("all_eleven", 0, 1) in [(a.category, a.team, a.points) for a in ended.points]) == (rule == "bonus")
        assert isinstance(events[-1], GameFinished) == finished

    # The cards tie 26-26 and seat 0 takes every other point: ten of the eleven, not all eleven.
    TIED = (" ".join(SPADES + ["10D", "AH", "AD", "AC"] + PLAIN[:8]), " ".join(PLAIN[8:]))

    @pytest.mark.parametrize("rule", ["bonus", "win", "skunk"])
    def test_a_split_tie_for_cards_is_not_all_eleven(self, rule):
        state = position(table="", hands=["KC", ""], stock="", captured=self.TIED, last_capturer=0,
                         options={"all_eleven": rule, "most_cards_tie": "split"})
        events = decide(state, Play(0, Move.parse("KC trail")))
        ended = next(e for e in events if isinstance(e, HandEnded))
        assert ("most_cards", 1, 1) in [(a.category, a.team, a.points) for a in ended.points]
        assert "all_eleven" not in {a.category for a in ended.points}
        assert not isinstance(events[-1], GameFinished)

    def test_skunk_only_in_the_first_hand(self):
        piles = self.ALL_ELEVEN
        state = position(table="", hands=["KC", ""], stock="", captured=piles, last_capturer=0,
                         options={"all_eleven": "skunk"})._replace(hand_number=2)
        assert not isinstance(decide(state, Play(0, Move.parse("KC trail")))[-1], GameFinished)

    @pytest.mark.parametrize("variant,options,name", [
        ("spade", {"all_eleven": "bonus"}, "all_eleven"),
        ("cassino", {"deals_each": 2}, "deals_each"),
        ("royal", {"court_builds": True}, "court_builds"),
        ("cassino", {"instant_scoring": True, "sweeps_cancel": True}, "sweeps_cancel"),
        ("draw", {"deal_packet": 1}, "deal_packet"),
        ("pluck", {"pluck": False}, "pluck"),
    ])
    def test_options_that_do_not_fit_are_refused_naming_them(self, variant, options, name):
        with pytest.raises(OptionError) as refused:
            resolve(variant, options, 2)
        assert refused.value.name == name

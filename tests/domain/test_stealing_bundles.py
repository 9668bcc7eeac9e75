"""Stealing Bundles (seed 003), on the one engine: each test cites the
sentence of 003 it checks. The seed's list of plays is cut off after "He can
do several things:"; docs/rules.md says how it was settled: pair by rank
(one or more loose cards of the played card's rank), steal one opponent's
bundle whose top card matches, or trail."""

import pytest

from domain import OptionError, RuleViolation, full_deck
from domain.cassino import CreateGame, Deal, Move, Play, Undo, decide, fold, legal_moves, resolve
from domain.cassino.events import BundleStolen, GameFinished, RoundDealt, from_json, to_json

from .positions import after, position, refusal

VARIANT = "stealing-bundles"


def bundles(table, hands, captured, **kw):
    return position(table=table, hands=hands, captured=captured, variant=VARIANT, **kw)


class TestDeal:
    def test_two_at_a_time_with_the_table_between_then_drawn_one_at_a_time(self):
        """003: "deals two cards face down to each player, clockwise ... he deals two cards face up to
        the center of the table. He then deals two cards face down to himself", and later "each drawing a
        card one at a time starting with the player to dealers immediate left ... until each player again
        has four cards"."""
        deck = full_deck()
        state = fold(decide(None, CreateGame(VARIANT, ("P0", "P1"), 1)))
        events = decide(state, Deal(deck))
        state = fold(events, state)
        assert [c.code for c in state.hands[0]] == ["AS", "2S", "7S", "8S"]
        assert [c.code for c in state.table] == ["3S", "4S", "9S", "10S"]
        assert [c.code for c in state.hands[1]] == ["5S", "6S", "JS", "QS"]
        events = []
        for _ in range(4):
            for seat in (0, 1):
                new = decide(state, Play(seat, Move.trail(state.hands[seat][0])))
                events += new
                state = fold(new, state)
        [dealt] = [e for e in events if isinstance(e, RoundDealt)]
        assert [c.code for c in dealt.hands[0]] == ["KS", "2H", "4H", "6H"]
        assert [c.code for c in dealt.hands[1]] == ["AH", "3H", "5H", "7H"]

    def test_every_seat_count_deals_the_whole_deck_in_full_rounds(self):
        """003: "Stealing bundles can be played by from two to four players"."""
        for players in (2, 3, 4):
            state = fold(decide(None, CreateGame(VARIANT, tuple(f"P{i}" for i in range(players)), 0)))
            state = fold(decide(state, Deal(full_deck())), state)
            assert [len(h) for h in state.hands] == [4] * players and len(state.table) == 4
            assert len(state.stock) % (4 * players) == 0


class TestPlays:
    def test_a_card_takes_loose_cards_of_its_rank_and_no_sums(self):
        """003: "a predecessor to learning to play Cassino": a card is matched by rank, so 3 + 4 is no 7."""
        state = bundles("7S 7C 3D 4H", ["7H 2C", "5D"], None)
        assert [c.code for c in after(state, 0, "7H capture 7S").captured[0]] == ["7S", "7H"]
        assert after(state, 0, "7H capture 7S 7C").table == state.table[2:]
        assert refusal(state, 0, "7H capture 3D 4H") == "illegal_capture"
        assert refusal(state, 0, "7H capture 7S 3D 4H") == "illegal_capture"

    def test_there_are_no_builds(self):
        """003: the game comes before Cassino; its plays (settled in docs/rules.md) have no building."""
        state = bundles("3D", ["4H 7C", "5D"], None)
        assert refusal(state, 0, "4H build 7 3D") == "illegal_build"
        assert not [m for m in legal_moves(state, 0) if m.action == "build"]

    def test_a_card_steals_an_opponents_bundle_whose_top_card_matches(self):
        """003: "each players individual face up bundle"; a card matching an opponent's top card takes
        the whole bundle (the game's name), the played card on top."""
        state = bundles("2D", ["9H 4C", "5D"], ["3S 3C", "KD KH 9S"])
        stolen = after(state, 0, "9H steal seat:1")
        assert [c.code for c in stolen.captured[0]] == ["3S", "3C", "KD", "KH", "9S", "9H"]
        assert stolen.captured[1] == ()
        assert stolen.last_capturer == 0 and stolen.table == state.table

    def test_a_steal_needs_a_matching_top_card_of_an_opponent(self):
        state = bundles("2D", ["9H 3H", "5D"], ["3S 3C", "9S KH"])
        assert refusal(state, 0, "9H steal seat:1") == "illegal_steal"  # KH is on top
        assert refusal(state, 0, "3H steal seat:0") == "illegal_steal"  # one's own bundle
        assert refusal(bundles("2D", ["9H", "5D"], ["3S 3C", ""]), 0, "9H steal seat:1") == "illegal_steal"
        assert refusal(state, 0, "9H steal seat:7") == "illegal_steal"
        assert refusal(state, 0, "9H steal 2D") == "illegal_steal"

    def test_a_refused_steal_names_both_cards_the_same_way(self):
        state = bundles("2D", ["9H 3H", "5D"], ["3S 3C", "9S KH"])
        with pytest.raises(RuleViolation) as refused:
            decide(state, Play(0, Move.parse("9H steal seat:1")))
        assert refused.value.message == "Seat 1's bundle shows KH; your 9H does not match it."

    def test_steals_are_listed_once_per_matching_bundle(self):
        state = bundles("2D", ["9H 4C", "5D", "6C"], ["", "KH 9S", "4S 9C"])
        steals = sorted(m.text for m in legal_moves(state, 0) if m.action == "steal")
        assert steals == ["9H steal seat:1", "9H steal seat:2"]

    def test_the_steal_is_a_fact_that_replays(self):
        state = bundles("2D", ["9H 4C", "5D"], ["", "9S"])
        [event] = decide(state, Play(0, Move.parse("9H steal seat:1")))
        assert isinstance(event, BundleStolen) and event.victim == 1
        assert from_json(to_json(event)) == event
        assert Move.parse(Move.parse("9h steal SEAT:1").text) == Move.parse("9H steal seat:1")
        assert Move.from_dict({"card": "9H", "action": "steal", "targets": ["seat:1"]}).text == "9H steal seat:1"

    def test_a_stolen_bundle_can_be_taken_back(self):
        state = bundles("2D", ["9H 4C", "5D"], ["", "9S"])
        stolen = after(state, 0, "9H steal seat:1")
        undone = fold(decide(stolen, Undo(None)), stolen)
        assert undone.captured == state.captured and undone.hands == state.hands


class TestEnd:
    def test_each_hand_is_a_game_and_the_most_cards_win(self):
        """003: "The player who has the most cards in their bundle is declared the winner of the game",
        and "Each hand is a complete game"."""
        state = bundles("", ["KC", ""], ["3S 3C", "9S 9C 4D 4H"], stock="", last_capturer=0)
        events = decide(state, Play(0, Move.parse("KC trail")))
        assert isinstance(events[-1], GameFinished) and events[-1].winner == 1
        assert events[-1].scores == (3, 4)  # a point a card: 3S 3C and the KC that took the table
        assert fold(events, state).captured[0][-1].code == "KC"  # the table went to the last capturer

    def test_a_tie_for_most_cards_is_a_draw(self):
        state = bundles("", ["KC", ""], ["3S 3C 5D", "9S 9C 4D 4H"], stock="", last_capturer=0)
        finished = decide(state, Play(0, Move.parse("KC trail")))[-1]
        assert finished.winner is None and finished.reason == "draw"

    def test_stealing_needs_open_piles(self):
        with pytest.raises(OptionError) as refused:
            resolve("cassino", {"steal_bundles": True}, 2)
        assert refused.value.name == "steal_bundles"
        with pytest.raises(OptionError):
            resolve(VARIANT, {"capture_by": "value"}, 2)

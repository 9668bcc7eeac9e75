"""Diamond Cassino (seed 004, settled in shared/RULES.md): each test cites
the sentence of 004 it checks (docs/rules.md, "Diamond")."""

import pytest

from domain import OptionError, RuleViolation
from domain.cassino import CreateGame, Deal, Move, Play, decide, fold, resolve
from domain.cassino.dealing import deck_for
from domain.cassino.events import GameFinished, HandEnded

from .positions import after, position

VARIANT = "diamond"
FORTY = deck_for(resolve(VARIANT, {}, 2))  # new-deck order without courts: AS..10S AH..10H AD..10D AC..10C


def game(players=2, dealer=None):
    names = tuple(f"P{i}" for i in range(players))
    return fold(decide(None, CreateGame(VARIANT, names, players - 1 if dealer is None else dealer)))


def hand_end(piles, scores=None):
    """The last card of a hand (9C) is trailed by seat 0, the last capturer."""
    state = position(table="", hands=["9C"] + [""] * (len(piles) - 1), stock="", captured=piles,
                     last_capturer=0, variant=VARIANT, scores=scores)
    return decide(state, Play(0, Move.parse("9C trail")))


def points(events):
    ended = next(e for e in events if isinstance(e, HandEnded))
    return [(a.category, a.team, a.points) for a in ended.points]


class TestTheDeal:
    def test_forty_cards_three_each_and_four_to_the_table(self):
        """004: "it is not played with the picture cards. It is, therefore, played with a forty-card
        pack. Players are dealt three cards each, and four cards are dealt to the table"."""
        assert len(FORTY) == 40 and not any(c.is_court for c in FORTY)
        state = game()
        state = fold(decide(state, Deal(FORTY)), state)
        # two to seat 0, two to the table, two to the dealer, then one, two and one
        assert [c.code for c in state.hands[0]] == ["AS", "2S", "7S"]
        assert [c.code for c in state.table] == ["3S", "4S", "8S", "9S"]
        assert [c.code for c in state.hands[1]] == ["5S", "6S", "10S"]
        assert len(state.stock) == 30

    def test_every_seat_count_plays_out_the_deck_three_at_a_time(self):
        """004: Cassino "for two, three, four"; Diamond deals "three cards each" every round."""
        for players in (2, 3, 4):
            state = game(players)
            state = fold(decide(state, Deal(FORTY)), state)
            rounds = 1
            while state.status == "in_progress":
                before = state.round
                state = fold(decide(state, Play(state.turn, Move.trail(state.hands[state.turn][0]))), state)
                if state.status == "in_progress" and state.round != before:
                    rounds += 1
                    assert [len(h) for h in state.hands] == [3] * players
            assert rounds * 3 * players + 4 == 40

    def test_a_full_deck_is_not_the_games_deck(self):
        with pytest.raises(RuleViolation) as refused:
            decide(game(), Deal(tuple(FORTY) + tuple(c for c in deck_for(resolve("cassino", {}, 2)) if c.is_court)))
        assert refused.value.rule == "invalid_deck"


class TestScoring:
    def test_most_cards_most_diamonds_and_the_seven_of_diamonds(self):
        """004: "extra points if they capture the seven of diamonds"; shared/RULES.md: "most cards, most
        diamonds, 7♦, sweeps 1"."""
        assert points(hand_end(["7D 2D 3D 4S", "5D 6H"])) == [
            ("most_cards", 0, 1), ("most_diamonds", 0, 1), ("seven_of_diamonds", 0, 1)]
        # a tie for cards (3 each once 9C joins seat 0) or for diamonds scores nothing
        assert points(hand_end(["2D 3H", "4D 5H 6S"])) == []

    def test_all_four_aces_sevens_or_sixes_score_two_each(self):
        """004: "players get points if they capture all aces"; shared/RULES.md: "all four 7s, 6s or
        aces 2"."""
        assert ("four_aces", 1, 2) in points(hand_end(["2S", "AS AH AD AC"]))
        both = points(hand_end(["7S 7H 7D 7C 6S 6H 6D 6C", "2D"]))
        assert ("four_sevens", 0, 2) in both and ("four_sixes", 0, 2) in both
        assert not {"four_aces", "four_sevens"} & {c for c, _, _ in points(hand_end(["AS AH AD 7S", "AC"]))}

    def test_a_sweep_scores_one(self):
        """shared/RULES.md: "sweeps 1"."""
        state = position(table="3S 4H", hands=["7C 2H", "5D"], variant=VARIANT)
        assert after(state, 0, "7C capture 3S 4H").sweeps == (1, 0)

    def test_game_is_eleven_counted_in_order_and_there_is_no_count_out(self):
        """shared/RULES.md: "game 11"; most cards is counted first, so seat 1 gets there before seat 0's
        diamonds and 7D, though both end on 11."""
        events = hand_end(["7D 2D", "5S 6H 4C 3C"], scores=[9, 10])
        assert isinstance(events[-1], GameFinished) and events[-1].winner == 1
        assert events[-1].scores == (11, 11)
        opts = resolve(VARIANT, {}, 3)
        assert (opts.target, opts.count_out, opts.sweeps) == (11, False, 1)
        with pytest.raises(OptionError) as refused:
            resolve(VARIANT, {"count_out": True}, 2)
        assert refused.value.name == "diamond_points"
        with pytest.raises(OptionError):
            resolve(VARIANT, {"deck": "standard"}, 2)

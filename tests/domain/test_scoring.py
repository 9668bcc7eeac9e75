"""Scoring a hand, and winning the game.

Sources: 002-004 (most cards 3, most spades 1, big casino 2, little casino 1,
aces 1 each: 11 a hand; no points for a tie), 004 (sweeps 1; Michigan 2;
Portuguese: a cards tie goes to spades), 003 (African: tied players score 1
each; the scoring order; sweeps score last), 002 (one hand as the game, or
match play where the higher total wins when both pass the target).
"""

import pytest

from domain import full_deck
from domain.cassino import Move, Play, decide, fold
from domain.cassino.events import GameFinished, HandEnded

from .positions import position

DECK = full_deck()
SPADES = [c.code for c in DECK if c.suit == "S"]
OTHERS = [c.code for c in DECK if c.suit != "S"]


def end_hand(piles, last="KC", last_capturer=0, table="", **kw):
    """Play the last card of a hand (a trail by seat 0) with these piles."""
    players = len(piles)
    state = position(table=table, hands=[last] + [""] * (players - 1), stock="",
                     captured=piles, last_capturer=last_capturer, **kw)
    events = decide(state, Play(0, Move.parse(f"{last} trail")))
    ended = next(e for e in events if isinstance(e, HandEnded))
    finished = next((e for e in events if isinstance(e, GameFinished)), None)
    return ended, finished, fold(events, state)


def points(ended, team):
    return {p.category: p.points for p in ended.points if p.team == team}


def split_deck(n0, spades0):
    """Two piles: seat 0 gets ``n0`` cards of which ``spades0`` spades (KC kept back)."""
    others = [c for c in OTHERS if c != "KC"]
    take = SPADES[:spades0] + others[: n0 - spades0]
    rest = [c for c in SPADES + others if c not in take]
    return " ".join(take), " ".join(rest)


def test_a_hand_scores_eleven_points_when_nothing_ties():
    ended, _, _ = end_hand(split_deck(30, 8))
    assert sum(p.points for p in ended.points) == 11
    assert points(ended, 0)["most_cards"] == 3 and points(ended, 0)["most_spades"] == 1


def test_each_point_card_scores_for_whoever_took_it():
    pile0, pile1 = split_deck(20, 0)  # seat 0: no spades, so AS and 2S are seat 1's
    ended, _, _ = end_hand((pile0, pile1))
    mine = points(ended, 0)
    theirs = points(ended, 1)
    assert theirs["little_casino"] == 1 and theirs["ace_S"] == 1
    assert mine.get("big_casino", 0) + theirs.get("big_casino", 0) == 2
    assert sum(v for k, v in {**mine}.items() if k.startswith("ace")) + \
        sum(v for k, v in theirs.items() if k.startswith("ace")) == 4


def test_points_are_listed_in_the_scoring_order():
    ended, _, _ = end_hand(split_deck(30, 8))
    order = ["most_cards", "most_spades", "big_casino", "little_casino", "ace_S", "ace_C", "ace_H", "ace_D"]
    assert [p.category for p in ended.points] == [c for c in order if c in {p.category for p in ended.points}]


class TestMostCardsTie:
    def piles(self):
        return split_deck(25, 6)  # with the residue KC seat 0 reaches 26 of 52

    def test_none_leaves_eight_points(self):
        ended, _, _ = end_hand(self.piles())
        assert "most_cards" not in {p.category for p in ended.points}
        assert sum(p.points for p in ended.points) == 8

    def test_spades_decide_gives_the_three_to_most_spades(self):
        ended, _, _ = end_hand(self.piles(), options={"most_cards_tie": "spades_decide"})
        assert points(ended, 1)["most_cards"] == 3  # seat 1 holds 7 spades to 6

    def test_split_gives_one_each(self):
        ended, _, _ = end_hand(self.piles(), options={"most_cards_tie": "split"})
        assert points(ended, 0)["most_cards"] == 1 and points(ended, 1)["most_cards"] == 1


def test_with_three_players_a_tie_for_most_spades_scores_nothing():
    s = SPADES
    o = [c for c in OTHERS if c != "KC"]
    piles = (" ".join(s[:5] + o[:15]), " ".join(s[5:10] + o[15:25]), " ".join(s[10:] + o[25:]))
    ended, _, _ = end_hand(piles)
    assert "most_spades" not in {p.category for p in ended.points}
    assert sum(p.points for p in ended.points) == 10


class TestSweeps:
    """``sweeps`` 0 (002), 1 (003, 004), 2 (004 Michigan); ``sweeps_cancel``; ``sweep_on_last_play``."""

    def sweep(self, **options):
        state = position(table="5C 3D", hands=["8H 2C", "4S"], options=options)
        return fold(decide(state, Play(0, Move.parse("8H capture 5C 3D"))), state)

    def test_no_sweeps_by_default(self):
        assert self.sweep().sweeps == (0, 0)

    @pytest.mark.parametrize("value", [1, 2])
    def test_clearing_the_table_is_a_sweep_worth_the_option(self, value):
        assert self.sweep(sweeps=value).sweeps == (1, 0)
        pile0, pile1 = split_deck(30, 8)
        ended, _, _ = end_hand((pile0, pile1), sweeps=[2, 1], options={"sweeps": value})
        assert points(ended, 0)["sweeps"] == 2 * value and points(ended, 1)["sweeps"] == value

    def test_sweeps_cancel_leaves_only_the_difference(self):
        ended, _, _ = end_hand(split_deck(30, 8), sweeps=[2, 1], options={"sweeps": 1, "sweeps_cancel": True})
        assert points(ended, 0)["sweeps"] == 1 and "sweeps" not in points(ended, 1)

    @pytest.mark.parametrize("counts", [True, False])
    def test_a_sweep_with_the_last_card_of_the_hand_counts_as_the_option_says(self, counts):
        state = position(table="5C 3D", hands=["8H", ""], stock="",
                         options={"sweeps": 1, "sweep_on_last_play": counts})
        captured = decide(state, Play(0, Move.parse("8H capture 5C 3D")))[0]
        assert captured.sweep is counts


class TestWinning:
    # Seat 1 takes most cards (3, counted first); seat 0 every other point (8).
    PLAIN = [c for c in OTHERS if c not in ("KC", "10D", "AH", "AD", "AC")]
    CROSSING = (" ".join(SPADES + ["10D", "AH", "AD", "AC"] + PLAIN[27:]), " ".join(PLAIN[:27]))

    def test_scoring_order_the_first_to_reach_the_target_wins(self):
        """003: counted in order, most cards first: seat 1 reaches 21 first."""
        _, finished, state = end_hand(self.CROSSING, scores=[18, 20])
        assert state.scores == (26, 23)
        assert finished.winner == 1 and finished.reason == "target"

    def test_highest_the_higher_total_wins_when_both_pass(self):
        """002, 004: when both pass the target, the higher total wins."""
        _, finished, state = end_hand(self.CROSSING, scores=[18, 20], options={"end_rule": "highest"})
        assert state.scores == (26, 23) and finished.winner == 0

    def test_highest_plays_on_when_the_totals_tie(self):
        _, finished, state = end_hand(self.CROSSING, scores=[15, 20], options={"end_rule": "highest"})
        assert state.scores == (23, 23)
        assert finished is None and state.status == "hand_over"

    def test_below_the_target_the_game_goes_on(self):
        _, finished, state = end_hand(split_deck(30, 8))
        assert finished is None and state.status == "hand_over"

    def test_a_single_hand_game_goes_to_the_higher_score(self):
        _, finished, state = end_hand(split_deck(30, 8), options={"target": None, "count_out": False})
        assert finished.winner == 0 and finished.reason == "single_hand" and state.status == "finished"

    def test_a_single_hand_can_be_drawn(self):
        """Cards tie at 26; seat 0 has big casino and two aces (4), seat 1 the
        spades, little casino and two aces (4)."""
        plain = [c for c in OTHERS if c not in ("KC", "10D", "AH", "AD", "AC")]
        piles = (" ".join(["10D", "AH", "AD"] + plain[:22]), " ".join(SPADES + ["AC"] + plain[22:]))
        _, finished, state = end_hand(piles, options={"target": None, "count_out": False})
        assert state.scores == (4, 4)
        assert finished.winner is None and finished.reason == "draw"

    def test_partners_pool_their_captures(self):
        a, b = split_deck(30, 8)
        half_a, half_b = a.split(), b.split()
        piles = (" ".join(half_a[:15]), " ".join(half_b[:11]), " ".join(half_a[15:]), " ".join(half_b[11:]))
        ended, _, _ = end_hand(piles, variant="partnership")
        assert points(ended, 0)["most_cards"] == 3 and {p.team for p in ended.points} <= {0, 1}

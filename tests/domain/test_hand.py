"""A hand from the deal to the score, and the game from hand to hand.

Sources: 002 and 003 (the deal in twos, "last", the non-dealer leads, the
residue to the last capturer, the deal passing on), 003 (three and four
players, dealing round the table), API.md (seat numbering and deck order).
"""

import pytest

from domain import RuleViolation, full_deck
from domain.cassino import CountOut, CreateGame, Deal, Move, Play, decide, fold, game_view, legal_moves
from domain.cassino.events import HandDealt, HandEnded, RoundDealt

DECK = full_deck()  # AS 2S ... KS AH ... KC: top card first


def new_game(players=2, variant="cassino", first_dealer=None, **options):
    names = tuple(f"P{i}" for i in range(players))
    dealer = players - 1 if first_dealer is None else first_dealer
    return fold(decide(None, CreateGame(variant, names, dealer, options)))


def codes(cs):
    return " ".join(c.code for c in cs)


class TestTheDeal:
    def test_two_players_two_to_the_opponent_two_to_the_table_two_to_the_dealer_twice(self):
        [dealt] = decide(new_game(first_dealer=1), Deal(DECK))
        assert isinstance(dealt, HandDealt)
        assert codes(dealt.hands[0]) == "AS 2S 7S 8S"
        assert codes(dealt.table) == "3S 4S 9S 10S"
        assert codes(dealt.hands[1]) == "5S 6S JS QS"

    def test_three_players_round_the_table_from_the_dealers_left(self):
        [dealt] = decide(new_game(players=3, first_dealer=0), Deal(DECK))
        assert codes(dealt.hands[1]) == "AS 2S 9S 10S"
        assert codes(dealt.hands[2]) == "3S 4S JS QS"
        assert codes(dealt.table) == "5S 6S KS AH"
        assert codes(dealt.hands[0]) == "7S 8S 2H 3H"

    def test_four_players_deal_sixteen_to_hands_and_four_to_the_table(self):
        state = fold(decide(new_game(players=4), Deal(DECK)), new_game(players=4))
        assert [len(h) for h in state.hands] == [4, 4, 4, 4]
        assert len(state.table) == 4 and len(state.stock) == 32

    def test_the_player_left_of_the_dealer_plays_first(self):
        state = fold(decide(new_game(players=3, first_dealer=1), Deal(DECK)), new_game(players=3, first_dealer=1))
        assert state.turn == 2

    def test_only_the_dealer_deals(self):
        with pytest.raises(RuleViolation) as refused:
            decide(new_game(first_dealer=1), Deal(DECK, seat=0))
        assert refused.value.rule == "not_dealer"

    def test_the_deck_must_be_the_52_cards_once_each(self):
        for bad in (DECK[:-1], DECK[:-1] + DECK[:1]):
            with pytest.raises(RuleViolation) as refused:
                decide(new_game(), Deal(bad))
            assert refused.value.rule == "invalid_deck"

    def test_no_deal_while_a_hand_is_played(self):
        game = new_game()
        state = fold(decide(game, Deal(DECK)), game)
        with pytest.raises(RuleViolation) as refused:
            decide(state, Deal(DECK))
        assert refused.value.rule == "hand_in_progress"

    def test_no_play_before_the_deal(self):
        with pytest.raises(RuleViolation) as refused:
            decide(new_game(), Play(0, Move.parse("AS trail")))
        assert refused.value.rule == "no_hand_in_progress"


def play_out(state, events, choose=lambda moves: moves[0]):
    """Play the current hand to its end with the first legal move each turn."""
    while state.status == "in_progress":
        move = choose(legal_moves(state, state.turn).first().moves)
        new = decide(state, Play(state.turn, move))
        events += new
        state = fold(new, state)
    return state


class TestRounds:
    @pytest.mark.parametrize("players,rounds", [(2, 6), (3, 4), (4, 3)])
    def test_later_rounds_are_dealt_when_every_hand_is_empty_and_the_last_is_marked(self, players, rounds):
        game = new_game(players=players)
        events = decide(game, Deal(DECK))
        state = play_out(fold(events, game), events)
        dealt = [e for e in events if isinstance(e, RoundDealt)]
        assert [e.round for e in dealt] == list(range(2, rounds + 1))
        assert [e.last for e in dealt] == [False] * (rounds - 2) + [True]
        assert all(len(h) == 4 for e in dealt for h in e.hands)
        assert state.status in ("hand_over", "finished")

    def test_a_later_round_gives_no_cards_to_the_table_and_the_first_player_leads(self):
        game = new_game(first_dealer=1)
        events = decide(game, Deal(DECK))
        state = fold(events, game)
        for _ in range(8):
            new = decide(state, Play(state.turn, Move.trail(state.hands[state.turn][0])))
            events += new
            state = fold(new, state)
        assert isinstance(events[-1], RoundDealt)
        assert codes(events[-1].hands[0]) == "KS AH 4H 5H" and codes(events[-1].hands[1]) == "2H 3H 6H 7H"
        assert state.turn == 0 and len(state.table) == 12


class TestEndOfHand:
    def test_the_residue_goes_to_the_last_capturer_and_is_no_sweep(self):
        from .positions import position
        state = position(table="5C 9H", hands=["2D", ""], stock="", last_capturer=1,
                         captured=["", "AS AH"], options={"sweeps": 1})
        events = decide(state, Play(0, Move.parse("2D trail")))
        ended = events[-1] if isinstance(events[-1], HandEnded) else events[-2]
        assert codes(ended.residue) == "5C 9H 2D"
        after = fold(events, state)
        assert len(after.captured[1]) == 5
        assert not any(p.category == "sweeps" for p in ended.points)

    def test_the_deal_passes_to_the_left(self):
        game = new_game(players=3, first_dealer=2)
        events = decide(game, Deal(DECK))
        state = play_out(fold(events, game), events)
        assert state.status == "hand_over"  # one hand scores 11 at most: the game goes on
        assert state.next_dealer == 0
        [dealt] = decide(state, Deal(DECK, seat=0))
        assert dealt.dealer == 0 and dealt.hand_number == 2


class TestCountOut:
    """``count_out`` (003, 004): a claim to have reached the target now."""

    def claim(self, scores, pile, **options):
        from .positions import position
        state = position(table="5C", hands=["2D 3D", "4D"], captured=[pile, "2C"],
                         scores=scores, options=options)
        return decide(state, CountOut(0))

    def test_a_good_claim_wins_on_the_spot(self):
        counted, finished = self.claim([18, 20], "10D AS")  # 18 + 2 + 1 = 21
        assert counted.success and counted.total == 21
        assert finished.winner == 0 and finished.reason == "count_out"

    def test_a_short_claim_loses_the_game(self):
        counted, finished = self.claim([18, 5], "10D")  # 20 of 21
        assert not counted.success and finished.winner == 1

    def test_most_cards_counts_only_once_no_one_can_catch_up(self):
        hearts = " ".join(c.code for c in full_deck() if c.suit == "H")
        clubs = " ".join(c.code for c in full_deck() if c.suit == "C" and c.code not in ("2C", "5C"))
        many = f"{hearts} {clubs} 10D 6D 7D"  # 27 cards: more than half the deck
        counted, _ = self.claim([15, 0], many)
        assert counted.total == 15 + 3 + 2 + 2  # most cards, two aces, big casino
        counted, _ = self.claim([15, 0], f"{hearts} 10D")  # 14 cards: most cards not yet sure
        assert counted.total == 15 + 1 + 2

    def test_the_option_can_turn_it_off(self):
        with pytest.raises(RuleViolation) as refused:
            self.claim([18, 20], "10D AS", count_out=False)
        assert refused.value.rule == "count_out_not_allowed"

    @pytest.mark.parametrize(("scores", "pile"), [([18, 20], "10D AS"), ([18, 5], "10D")])
    def test_a_seats_view_says_what_its_sides_claim_would_count(self, scores, pile):
        """The view counts as the claim does (a seat may count its side's
        captures at the table); the other side's view shows that side's
        own, the operator's every side's, the public's none."""
        from .positions import position
        state = position(table="5C", hands=["2D 3D", "4D"], captured=[pile, "2C"], scores=scores)
        counted, _ = decide(state, CountOut(0))
        mine = game_view(state, seat=0)["count_out"]
        assert mine == {"secured": counted.total - scores[0], "total": counted.total, "succeeds": counted.success}
        theirs = game_view(state, seat=1)
        assert theirs["count_out"] == {"secured": 0, "total": scores[1], "succeeds": scores[1] >= 21}
        assert "count_outs" not in theirs and "count_out" not in game_view(state)
        assert game_view(state, operator=True)["count_outs"] == [mine, theirs["count_out"]]

    def test_the_view_has_no_claim_where_the_game_takes_none(self):
        from .positions import position
        state = position(table="5C", hands=["2D", "4D"], captured=["10D AS", ""], options={"count_out": False})
        assert game_view(state, seat=0)["count_out"] is None
        assert game_view(state, operator=True)["count_outs"] is None
        over = position(hands=["2D", "4D"], captured=["10D AS", ""])._replace(status="hand_over")
        assert game_view(over, seat=0)["count_out"] is None

"""Tablanette (seed 004, settled in shared/RULES.md): each test cites the
sentence it checks (docs/rules.md, "Tablanette")."""

import pytest

from domain import OptionError, full_deck
from domain.cassino import CreateGame, Deal, Move, Play, decide, fold, legal_moves, resolve
from domain.cassino.events import CardsCaptured, GameFinished, HandEnded, PointsScored

from .positions import after, position, refusal

VARIANT = "tablanette"


def codes(cards):
    return [c.code for c in cards]


def at(table, hands, **kw):
    """A two-player table; seat 1 holds the 5D unless ``hands`` says otherwise."""
    return position(table=table, hands=[*hands, "5D"][:max(2, len(hands))], variant=VARIANT, **kw)


class TestTheDeal:
    def test_six_each_and_four_to_the_table(self):
        """004: "each player has six cards"."""
        state = fold(decide(None, CreateGame(VARIANT, ("P0", "P1"), 1)))
        state = fold(decide(state, Deal(full_deck())), state)
        assert codes(state.hands[0]) == ["AS", "2S", "7S", "8S", "KS", "AH"]
        assert codes(state.table) == ["3S", "4S", "9S", "10S"]
        assert codes(state.hands[1]) == ["5S", "6S", "JS", "QS", "2H", "3H"]
        assert len(state.stock) == 36  # three more rounds of six each

    def test_three_players_get_the_rest_in_one_more_round(self):
        """shared/RULES.md: Tablanette for "2 (3, 4)"; after six each, 30 cards are left, fewer than two
        rounds, so the second round shares them all out (docs/rules.md)."""
        state = fold(decide(None, CreateGame(VARIANT, ("P0", "P1", "P2"), 2)))
        state = fold(decide(state, Deal(full_deck())), state)
        while state.round == 1:
            state = fold(decide(state, Play(state.turn, Move.trail(state.hands[state.turn][0]))), state)
        assert [len(h) for h in state.hands] == [10, 10, 10] and state.stock == ()


class TestTheJack:
    def test_a_jack_takes_the_whole_table(self):
        """004: "a player with a jack may use it to clear the whole table"."""
        state = at("3S 9D KC QH", ["JD 4C"])
        taken = after(state, 0, "JD capture 3S 9D KC QH")
        assert taken.table == () and len(taken.captured[0]) == 5
        assert refusal(state, 0, "JD capture 3S 9D") == "illegal_capture"
        assert [m.text for m in legal_moves(state, 0) if m.card.code == "JD"] == [
            "JD trail", "JD capture 3S QH 9D KC"]

    def test_the_jacks_clear_is_not_a_tablanette_and_scores_nothing_by_itself(self):
        """shared/RULES.md: "a jack takes the whole table; clearing the table scores its cards' pips": the
        jack's own clear is its right, not a clearing that scores."""
        events = decide(at("3S 9D", ["JD 4C"]), Play(0, Move.parse("JD capture 3S 9D")))
        assert [type(e) for e in events] == [CardsCaptured] and not events[0].sweep

    def test_a_jack_on_an_empty_table_is_trailed_and_only_a_jack_takes_it(self):
        state = at("", ["JD 4C"])
        assert after(state, 0, "JD trail").table == (state.hands[0][0],)
        jack = at("JD 4S", ["JC 4C"])
        assert refusal(jack, 0, "4C capture JD 4S") == "illegal_capture"
        assert after(jack, 0, "JC capture JD 4S").table == ()


class TestClearingTheTable:
    @pytest.mark.parametrize("table,move,pips", [
        ("3S 5H", "8C capture 3S 5H", 8),
        ("9S 4D 5H", "9C capture 9S 4D 5H", 18),
        ("AS 2D", "QH capture AS 2D", 13),  # the ace counts 11 for the queen's 13
        ("KS", "KH capture KS", 14),
    ])
    def test_it_scores_the_pips_it_takes_at_once(self, table, move, pips):
        """shared/RULES.md: "clearing the table scores its cards' pips"."""
        events = decide(at(table, [move.split()[0] + " 4C"]), Play(0, Move.parse(move)))
        scored = next(e for e in events if isinstance(e, PointsScored))
        assert [(a.category, a.points) for a in scored.awards] == [("sweeps", pips)] and scored.scores[0] == pips

    def test_an_ace_counts_what_scores_most_whatever_value_is_stated(self):
        """An ace taking the last ace clears a table worth 1 or 11: it scores 11, stated or not."""
        for move in ("AD capture AC", "AD capture 1 AC", "AD capture 11 AC"):
            events = decide(at("AC", ["AD 4C"]), Play(0, Move.parse(move)))
            assert next(e for e in events if isinstance(e, PointsScored)).scores[0] == 11

    def test_not_clearing_it_scores_nothing_at_once(self):
        events = decide(at("3S 5H 2C", ["8C 4C"]), Play(0, Move.parse("8C capture 3S 5H")))
        assert not any(isinstance(e, PointsScored) for e in events)


class TestValuesAndPlays:
    def test_queens_count_13_kings_14_and_an_ace_1_or_11(self):
        """Tablanette's values (docs/rules.md: the rule books' count, where 004 gives none)."""
        state = at("10S 3D 4H AC 2C", ["QH KD AS 4C"])
        assert after(state, 0, "QH capture 10S 3D").table
        assert after(state, 0, "KD capture 10S 4H").table
        assert after(state, 0, "AS capture 11 10S AC").table  # the ace in hand as 11, the one taken as 1
        assert refusal(state, 0, "AS capture 14 10S 4H") == "illegal_capture"

    def test_there_are_no_builds(self):
        state = at("3S", ["4C 7H"])
        assert refusal(state, 0, "4C build 7 3S") == "illegal_build"


class TestScoring:
    def test_most_cards_and_the_point_cards(self):
        """004: "players score points for holding the most cards, and extra points if they are holding
        picturecards"; shared/RULES.md's Tablanette table: each ace, ten and court 1, the 10 of diamonds one
        more, the 2 of clubs 1, most cards 3."""
        state = at("", ["9C", ""], stock="", last_capturer=0, captured=["AS 10D KH 2C 3H", "QS 2D"])
        ended = next(e for e in decide(state, Play(0, Move.parse("9C trail"))) if isinstance(e, HandEnded))
        assert [(a.category, a.team, a.points) for a in ended.points] == [
            ("most_cards", 0, 3), ("point_cards", 0, 3), ("point_cards", 1, 1), ("ten_of_diamonds", 0, 1),
            ("two_of_clubs", 0, 1)]

    def test_game_is_251_and_the_highest_wins(self):
        """shared/RULES.md: "game 251"."""
        state = at("", ["9C", ""], stock="", last_capturer=0, captured=["AS", "QS 2D"], scores=[250, 252])
        finished = decide(state, Play(0, Move.parse("9C trail")))[-1]
        assert isinstance(finished, GameFinished) and finished.winner == 1 and finished.scores == (251, 253)

    def test_the_preset_and_its_fixed_options(self):
        opts = resolve(VARIANT, {}, 2)
        assert (opts.hand_size, opts.court_values, opts.jack_takes_all, opts.sweep_pips, opts.target) == (
            6, "tablanette", True, True, 251)
        for fixed in ({"jack_takes_all": False}, {"sweep_pips": False}, {"court_values": "royal"}):
            with pytest.raises(OptionError):
                resolve(VARIANT, fixed, 2)
        with pytest.raises(OptionError) as refused:
            resolve("cassino", {"court_values": "tablanette"}, 2)
        assert refused.value.name == "court_values"
        with pytest.raises(OptionError) as refused:
            resolve("cassino", {"sweep_pips": True, "sweeps": 1}, 2)  # courts without numbers have no pips
        assert refused.value.name == "sweep_pips"

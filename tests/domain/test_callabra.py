"""Callabra (seed 004): each test cites the sentence of 004 it checks
(docs/rules.md, "Callabra")."""

import pytest

from domain import OptionError, full_deck
from domain.cassino import CreateGame, Deal, Move, Play, decide, fold, legal_moves, resolve
from domain.cassino.events import HandEnded, RoundDealt

from .positions import after, position, refusal

VARIANT = "callabra"


def game(players=2):
    return fold(decide(None, CreateGame(VARIANT, tuple(f"P{i}" for i in range(players)), players - 1)))


def codes(cards):
    return [c.code for c in cards]


class TestTheDeal:
    def test_three_each_and_five_to_the_table(self):
        """004: "each player is dealt three cards, and five are dealt to the table"."""
        state = game()
        state = fold(decide(state, Deal(full_deck())), state)
        # in twos from the dealer's left: two to seat 0, two to the table, two to the dealer, then one,
        # two and one, and the table's fifth card last
        assert codes(state.hands[0]) == ["AS", "2S", "7S"]
        assert codes(state.table) == ["3S", "4S", "8S", "9S", "JS"]
        assert codes(state.hands[1]) == ["5S", "6S", "10S"]

    @pytest.mark.parametrize("players,each,over", [(2, 5, 1), (3, 3, 2), (4, 5, 3)])
    def test_the_cards_that_do_not_go_round_evenly_are_laid_on_the_table(self, players, each, over):
        """004: "each player is dealt three cards, and five are dealt to the table": 47 cards are left for
        the hands, which no seat count divides; the last round shares them out and lays the rest on the
        table (docs/rules.md)."""
        state = game(players)
        events = decide(state, Deal(full_deck()))
        state = fold(events, state)
        while state.status == "in_progress":
            new = decide(state, Play(state.turn, Move.trail(state.hands[state.turn][0])))
            events += new
            state = fold(new, state)
        last = [e for e in events if isinstance(e, RoundDealt)][-1]
        assert last.last and [len(h) for h in last.hands] == [each] * players and len(last.table) == over
        ended = next(e for e in events if isinstance(e, HandEnded))
        assert len(ended.residue) == 52  # nobody captured: every card was trailed or laid on the table


class TestPlay:
    def test_courts_count_eleven_twelve_and_thirteen_and_take_sums(self):
        """004: "Jacks are worth eleven points, Queens are worth twelve points and Kings are worth thirteen
        points"."""
        state = position(table="6S 7D JC AH 5C", hands=["KH QS JD", "2C"], variant=VARIANT)
        assert codes(after(state, 0, "KH capture 6S 7D").captured[0]) == ["6S", "7D", "KH"]
        assert codes(after(state, 0, "QS capture JC AH").captured[0]) == ["AH", "JC", "QS"]
        assert after(state, 0, "JD capture JC 6S 5C").table == (state.table[1], state.table[3])
        assert refusal(position(table="KC", hands=["AS 9H", "2C"], variant=VARIANT), 0,
                       "AS capture 14 KC") == "illegal_capture"  # an ace is 1 only

    def test_cards_are_trailed_or_taken_never_built(self):
        """004: "Players may trail or take cards from the table"."""
        state = position(table="3S 4H 2H", hands=["2C 9H", "5D"], variant=VARIANT)
        assert refusal(state, 0, "2C build 9 3S 4H") == "illegal_build"
        assert {m.action for m in legal_moves(state, 0)} == {"trail", "capture"}
        assert resolve(VARIANT, {"builds": True}, 2).builds  # the rule books that build may have it back

    def test_the_last_capturer_clears_the_table_at_the_end(self):
        """004: "Game ends when a player finally clears all the cards from the table" (read as the end of
        the hand: the last to capture takes what is left)."""
        state = position(table="5C 8D", hands=["2H", ""], stock="", last_capturer=1, variant=VARIANT)
        events = decide(state, Play(0, Move.parse("2H trail")))
        ended = next(e for e in events if isinstance(e, HandEnded))
        assert ended.last_capturer == 1 and codes(ended.residue) == ["5C", "8D", "2H"]

    def test_the_preset(self):
        opts = resolve(VARIANT, {}, 4)
        assert (opts.hand_size, opts.table_size, opts.court_capture, opts.ace_high, opts.builds) == (
            3, 5, "valued", False, False)
        with pytest.raises(OptionError):
            resolve(VARIANT, {"table_size": 4}, 2)

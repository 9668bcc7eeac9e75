"""Taking a bet or a stop back, under the game's ``undo`` policy."""

import pytest

from domain.masscool import AnswerUndo, Undo
from domain.kernel_events import PlayUndone, UndoAnswered, UndoRequested

from .table import Table, stacked_deck

DECK = stacked_deck(3, 0, 8, {0: "2S 3S", 1: "2H 3H", 2: "2C 3C"}, stock="KD 2D 3D  4D 5D 6D")


def test_with_consent_every_other_player_accepts_and_the_bet_is_taken_back():
    t = Table(3, deck=DECK)
    before = t.state
    t.bet(0, "2S 3S")
    assert t.refused(Undo(1)) == "not_your_play"
    assert t.do(Undo(0)) == [UndoRequested(0)]
    assert t.refused(Undo(0)) == "undo_pending"
    assert t.refused(AnswerUndo(0, True)) == "own_undo_request"
    assert t.do(AnswerUndo(1, True)) == [UndoAnswered(1, True)]
    assert t.refused(AnswerUndo(1, True)) == "already_answered"
    assert t.refused(AnswerUndo(3, True)) == "not_a_seat"
    assert t.do(AnswerUndo(2, True)) == [UndoAnswered(2, True), PlayUndone(0)]
    assert t.state._replace(version=0) == before._replace(version=0)


def test_one_refusal_drops_the_request_and_the_next_move_lets_it_lapse():
    t = Table(3, deck=DECK)
    t.bet(0, "2S")
    t.do(Undo(0))
    t.do(AnswerUndo(1, False))
    assert t.state.undo_request is None and t.refused(AnswerUndo(2, True)) == "no_undo_request"
    t.do(Undo(0))
    t.bet(1, "2H")
    assert t.state.undo_request is None and t.refused(Undo(0)) == "not_your_play"


def test_a_stop_can_be_taken_back_but_nothing_across_a_showdown():
    t = Table(3, deck=DECK, options={"undo": "free"})
    for seat in (0, 1, 2):
        t.bet(seat, t.state.money[seat][0].code)
    t.bet(0, t.state.money[0][0].code)
    t.stop(1)
    assert t.do(Undo(1)) == [PlayUndone(1)]
    assert t.state.stopped_by is None and t.state.turn == 1
    t.stop(1)
    t.bet(2, t.state.money[2][0].code)
    t.bet(1, t.state.money[1][0].code)  # the bets are even: the showdown follows
    assert t.state.round == 2
    assert t.refused(Undo(1)) == "nothing_to_undo"


@pytest.mark.parametrize("policy, rule", [("off", "undo_not_allowed"), ("consent", None)])
def test_the_operator_takes_the_latest_move_back_without_asking_unless_undo_is_off(policy, rule):
    t = Table(3, deck=DECK, options={"undo": policy})
    t.bet(0, "2S")
    if rule:
        assert t.refused(Undo(None)) == rule
    else:
        assert t.do(Undo(None)) == [PlayUndone(0, forced=True)]

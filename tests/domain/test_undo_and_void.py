"""Undo (``undo``: consent, free, off) and the operator's void of a hand.

An undo is a new event; the game then folds as if the play had not
happened, and the play stays in the log. Never across a deal, a new round,
the end of a hand, or another seat's play.
"""

import pytest

from domain import RuleViolation, full_deck
from domain.cassino import AnswerUndo, CreateGame, Deal, Move, Play, Undo, VoidHand, decide, fold
from domain.kernel_events import PlayUndone, UndoAnswered, UndoRequested

DECK = full_deck()  # seat 0 (first to play): AS 2S 7S 8S; table 3S 4S 9S 10S; seat 1: 5S 6S JS QS


def dealt(players=2, **options):
    names = tuple(f"P{i}" for i in range(players))
    events = decide(None, CreateGame("cassino", names, players - 1, options))
    events += decide(fold(events), Deal(DECK))
    return events


def run(events, *commands):
    for command in commands:
        events = events + decide(fold(events), command)
    return events


def refused(events, command) -> str:
    with pytest.raises(RuleViolation) as broken:
        decide(fold(events), command)
    return broken.value.rule


CAPTURE = Play(0, Move.parse("7S capture 3S 4S"))


def test_free_undo_restores_the_state_before_the_play_and_keeps_the_play_in_the_log():
    before = dealt(undo="free")
    after = run(before, CAPTURE, Undo(0))
    assert isinstance(after[-1], PlayUndone) and after[-2].card.code == "7S"
    assert fold(after)._replace(version=0) == fold(before)._replace(version=0)
    assert fold(after).version == len(after)


def test_consent_asks_the_others_and_undoes_when_all_accept():
    events = run(dealt(players=3), Play(0, Move.parse("AS trail")), Undo(0))
    assert isinstance(events[-1], UndoRequested)
    events = run(events, AnswerUndo(1, True))
    assert isinstance(events[-1], UndoAnswered) and fold(events).table[-1].code == "AS"
    events = run(events, AnswerUndo(2, True))
    assert isinstance(events[-1], PlayUndone)
    assert "AS" in [c.code for c in fold(events).hands[0]]


def test_consent_one_refusal_drops_the_request():
    events = run(dealt(), CAPTURE, Undo(0), AnswerUndo(1, False))
    state = fold(events)
    assert state.undo_request is None and state.captured[0]
    assert refused(events, AnswerUndo(1, True)) == "no_undo_request"


def test_the_asker_cannot_answer_and_cannot_ask_twice():
    events = run(dealt(), CAPTURE, Undo(0))
    assert refused(events, AnswerUndo(0, True)) == "own_undo_request"
    assert refused(events, Undo(0)) == "undo_pending"


def test_only_the_latest_play_and_only_by_its_player():
    events = run(dealt(undo="free"), CAPTURE)
    assert refused(events, Undo(1)) == "not_your_play"
    events = run(events, Play(1, Move.parse("5S trail")))
    assert refused(events, Undo(0)) == "not_your_play"
    assert isinstance(run(events, Undo(1))[-1], PlayUndone)


def test_an_undo_never_crosses_a_deal_or_a_new_round():
    assert refused(dealt(undo="free"), Undo(1)) == "nothing_to_undo"
    events = dealt(undo="free")
    for _ in range(8):
        state = fold(events)
        events = run(events, Play(state.turn, Move.trail(state.hands[state.turn][0])))
    assert type(events[-1]).__name__ == "RoundDealt"
    assert refused(events, Undo(1)) == "nothing_to_undo"


def test_undo_off_refuses_and_the_operator_forces_an_undo_otherwise():
    assert refused(run(dealt(undo="off"), CAPTURE), Undo(0)) == "undo_not_allowed"
    events = run(dealt(), CAPTURE, Undo(None))
    assert events[-1] == PlayUndone(0, forced=True)


def test_a_play_after_a_request_lets_the_request_lapse():
    events = run(dealt(), CAPTURE, Undo(0), Play(1, Move.parse("5S trail")))
    assert fold(events).undo_request is None


def test_the_operator_voids_a_hand_and_the_same_dealer_deals_again():
    events = run(dealt(), CAPTURE, VoidHand("a card was exposed"))
    state = fold(events)
    assert state.status == "hand_over" and state.captured == ((), ()) and state.scores == (0, 0)
    assert state.next_dealer == state.dealer == 1
    assert fold(run(events, Deal(DECK, seat=1))).hand_number == 2
    assert refused(events, VoidHand("again")) == "no_hand_in_progress"


def drawing(**options):
    """Draw Cassino after its deal, where each play is followed by a draw."""
    events = decide(None, CreateGame("draw", ("P0", "P1"), 1, options))
    return events + decide(fold(events), Deal(DECK))


@pytest.mark.parametrize("undo", ["free", "consent"])
def test_a_play_followed_by_a_draw_cannot_be_undone_the_drawn_card_was_seen(undo):
    events = run(drawing(undo=undo), Play(0, Move.parse("AS trail")))
    assert type(events[-1]).__name__ == "CardDrawn"
    assert refused(events, Undo(0)) == "nothing_to_undo"


def test_the_operator_cannot_undo_across_a_draw_either():
    events = run(drawing(undo="free"), Play(0, Move.parse("AS trail")))
    assert refused(events, Undo(None)) == "nothing_to_undo"


def test_a_play_with_no_card_left_to_draw_can_still_be_undone():
    state = fold(drawing(undo="free"))
    emptied = state._replace(stock=(), before_play=None)  # the stock ran out earlier in the hand
    played = fold(decide(emptied, Play(0, Move.parse("AS trail"))), emptied)
    assert isinstance(decide(played, Undo(0))[-1], PlayUndone)


def test_a_log_with_an_undo_across_a_draw_written_before_the_rule_still_folds():
    events = run(drawing(undo="free"), Play(0, Move.parse("AS trail")))
    old = events + [PlayUndone(0)]
    assert "AS" in [c.code for c in fold(old).hands[0]]

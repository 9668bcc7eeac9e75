"""The legal moves of a seat: bounded, and exactly what ``decide`` accepts."""

from math import comb

from domain.masscool import Move, legal_moves

from .table import Table, stacked_deck


def test_a_leader_may_bet_any_non_empty_set_of_money_cards_and_not_yet_stop():
    t = Table(2, deck=stacked_deck(2, 0, 10, stock="KD 2D"))
    moves = legal_moves(t.state, 0)
    assert moves.count() == 2 ** 10 - 1
    listed = moves.first(200)
    assert listed.truncated and len(listed.moves) == 200
    assert Move.stop() not in moves and listed.moves[0].action == "bet" and len(listed.moves[0].cards) == 1
    assert listed.moves[0].cards[0] == min(t.state.money[0], key=lambda c: (c.rank, c.index))  # cheapest first
    assert not legal_moves(t.state, 1) and legal_moves(t.state, 1).count() == 0
    assert legal_moves(t.state, 1).first() .moves == () and not legal_moves(t.state, 7)


def test_the_stop_comes_first_once_allowed_and_after_it_only_the_owed_count():
    t = Table(2, deck=stacked_deck(2, 0, 10, stock="KD 2D"))
    t.bet(0, t.state.money[0][0].code)
    t.bet(1, " ".join(c.code for c in t.state.money[1][:3]))
    listed = legal_moves(t.state, 0).first()
    assert listed.moves[0] == Move.stop()
    t.stop(0)
    owed = legal_moves(t.state, 0)
    assert owed.count() == comb(9, 2) and not owed.first().truncated
    assert {len(m.cards) for m in owed} == {2} and Move.stop() not in owed


def test_a_small_list_is_complete_and_counted_exactly():
    t = Table(2, deck=stacked_deck(2, 0, 3, stock="KD 2D"), options={"money": 3})
    moves = legal_moves(t.state, 0)
    listed = moves.first()
    assert not listed.truncated and len(listed.moves) == moves.count() == 7 == len(set(moves))

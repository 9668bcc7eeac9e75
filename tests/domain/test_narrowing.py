"""Narrowed and paged listings: one card's moves (of one action, naming
some targets) are exactly the full generation's moves of that card, and
following the pages from the first lists every legal move once, on the
most crowded tables the bench knows (``tests/crowded.py``) and in Mass
Cool Casino's bets."""

from __future__ import annotations

from collections.abc import Iterable

import pytest

from domain import NotationError
from domain.cassino import GameState, Move, is_legal, legal_moves
from domain.masscool import Move as Bet
from domain.masscool import legal_moves as bets
from domain.paging import MoveList
from tests.crowded import crowded, crowded_tables
from tests.domain.masscool.table import Table, stacked_deck

TABLES = crowded_tables(most=7000)


def every_page(first: MoveList, more) -> list:
    """The moves of ``first`` and of each page after it."""
    out, page = list(first.moves), first
    while page.next is not None:
        page = more(page.next)
        out += page.moves
    return out


def test_the_tables_are_crowded():
    assert max(len(t.table) for t in TABLES) == 40 and max(legal_moves(t, 0).count() for t in TABLES) > 4000


@pytest.mark.parametrize("state", TABLES, ids=lambda s: f"{len(s.table)}-items")
def test_one_cards_moves_are_its_moves_in_the_whole_generation(state: GameState):
    everything = list(legal_moves(state, 0))
    for card in dict.fromkeys(state.hands[0]):
        narrowed = legal_moves(state, 0).narrowed(card.code)
        assert list(narrowed) == [m for m in everything if m.card is card]
        for action in ("trail", "capture", "build"):
            assert list(legal_moves(state, 0).narrowed(card.code, action)) == [
                m for m in everything if m.card is card and m.action == action]


@pytest.mark.parametrize("state", TABLES[::3], ids=lambda s: f"{len(s.table)}-items")
def test_moves_naming_targets_are_those_of_the_whole_generation(state: GameState):
    everything = list(legal_moves(state, 0))
    for card in dict.fromkeys(state.hands[0]):
        mine = [m for m in everything if m.card is card]
        for named in _target_choices(mine):
            narrowed = legal_moves(state, 0).narrowed(card.code, targets=named)
            assert set(narrowed) == {m for m in mine if set(named) <= set(m.targets)}, named


def _target_choices(moves: list[Move]) -> Iterable[tuple[str, ...]]:
    """One target and two targets of some of ``moves``, and a pair no move names."""
    for move in moves[:: max(1, len(moves) // 6)]:
        yield move.targets[:1]
        yield move.targets[-2:]
    yield ("B9", "AS")


@pytest.mark.parametrize("state", TABLES[::2], ids=lambda s: f"{len(s.table)}-items")
def test_the_pages_list_every_legal_move_once(state: GameState):
    moves = legal_moves(state, 0)
    everything = list(moves)
    limit, work = max(37, len(everything) // 5), max(150, len(everything) // 20)  # a few pages, some cut by work
    paged = every_page(moves.page(limit, work=work), lambda after: moves.page(limit, after, work=work))
    assert paged == everything and len(set(paged)) == len(paged)


def test_a_page_cut_by_work_alone_moves_on():
    state = crowded(30, 2, False)  # tens of thousands of moves
    moves = legal_moves(state, 0).narrowed("10D", "capture", ("9C",))
    first = moves.page(500, work=20)
    assert first.truncated and len(first.moves) < 500
    second = moves.page(500, first.next, work=20)
    assert second.next is not None and (second.next.given, second.next.work) > (first.next.given, first.next.work)
    for move in (*first.moves, *second.moves):
        assert move.card.code == "10D" and "9C" in move.targets and is_legal(state, 0, move)


def test_a_narrowing_names_cards_and_actions_the_game_knows():
    moves = legal_moves(crowded(10, 1, False), 0)
    for bad in ({"card": "1X"}, {"action": "jump"}, {"targets": ["Z9"]}):
        with pytest.raises(NotationError):
            moves.narrowed(**bad)


def test_mass_cool_bets_narrow_to_the_cards_they_hold_and_page():
    state = Table(2, deck=stacked_deck(2, 0, 10, stock="KD 2D")).state
    seat = 0
    everything = list(bets(state, seat))
    card = state.money[seat][3]
    held = bets(state, seat).narrowed(card.code)
    assert list(held) == [m for m in everything if card in m.cards] and len(list(held)) == 2 ** 9
    two = state.money[seat][5]
    assert set(bets(state, seat).narrowed(card.code, "bet", [two.code])) == {
        m for m in everything if {card, two} <= set(m.cards)}
    assert list(bets(state, seat).narrowed(action="stop")) == [m for m in everything if m == Bet.stop()]
    moves = bets(state, seat)
    assert every_page(moves.page(100), lambda after: moves.page(100, after)) == everything

"""Whole games on fixed decks for 2, 5 and 8 players: a tie reshuffled, broke
players knocked out, and the deck running out."""

from domain.masscool.events import DeckReshuffled, HandsDrawn, MoneyCounted, PotTied, PotWon

from .table import Table, one_card_each, stacked_deck
from .test_end import worth


def kinds(events) -> list[str]:
    return [type(e).__name__ for e in events]


def finish(t: Table) -> None:
    while not t.state.is_over:
        one_card_each(t)


def test_two_players_tie_then_play_until_the_deck_runs_out():
    t = Table(2, deck=stacked_deck(2, 0, 10, stock="KD KC"))
    assert isinstance(one_card_each(t)[0], PotTied)
    t.reshuffle("QD 2D")
    finish(t)
    assert len(t.of(PotTied)) == 1 and len(t.of(DeckReshuffled)) == 1
    counted = t.events[-1]
    assert counted.reason == "deck_out" and len(t.state.stock) < 2
    assert counted.totals == tuple(worth(m) for m in t.state.money)
    assert counted.winners == (max((0, 1), key=lambda s: counted.totals[s]),)
    assert [e.leader for e in t.of(HandsDrawn)][:4] == [0, 0, 1, 0]  # the tied round is played again by its leader


def test_two_players_tie_then_one_goes_broke_and_is_out():
    t = Table(2, deck=stacked_deck(2, 0, 10, stock="KD KC"))
    one_card_each(t)
    t.reshuffle("AD 2D")
    t.bet(0, t.state.money[0][0].code)
    t.bet(1, " ".join(c.code for c in t.state.money[1]))  # all nine cards
    assert t.state.turn == 0  # seat 1 is broke: skipped
    t.stop(0)
    events = t.bet(0, " ".join(c.code for c in t.state.money[0][:8]))
    assert kinds(events) == ["BetPlaced", "PotWon", "MoneyCounted"]
    assert events[1].knocked_out == (1,) and t.state.outcome.reason == "last_player"
    assert t.state.outcome.winners == (0,) and len(t.state.money[0]) == 20 - 2


def test_five_players_tie_four_pots_a_knockout_and_the_deck_runs_out():
    t = Table(5, deck=stacked_deck(5, 0, 6, stock="KD KC 2D 3D 4D"))
    assert one_card_each(t)[0].tied == (0, 1)
    t.reshuffle("KD 2D 3D 4D 8D  KC 9D 10D JD QD  AC 2C 3C 4C 5C  QC 6C 7C 8C 9C  6H KS 7S JC QH")
    for winner in (0, 1, 2, 3):
        assert one_card_each(t)[0].winner == winner
    assert [len(m) for m in t.state.money] == [6, 6, 6, 6, 1]
    assert t.state.turn == 4
    events = one_card_each(t)  # seat 4 leads with its last card and loses
    assert kinds(events) == ["PotWon", "MoneyCounted"]
    assert events[0].winner == 0 and events[0].knocked_out == (4,)
    assert events[1].reason == "deck_out" and len(t.state.stock) == 2  # two cards, four players
    assert t.state.out == (False, False, False, False, True)


def test_eight_players_tie_then_six_go_broke_at_once_and_the_deck_runs_out():
    t = Table(8, deck=stacked_deck(8, 0, 5, stock="KD KC 2D 3D 4D 5D 6D 7D"))
    assert [len(m) for m in t.state.money] == [5] * 8 and len(t.state.stock) == 4
    assert one_card_each(t)[0].tied == (0, 1)
    t.reshuffle("KD 2D 3D 4D 5D 6D 7D 9C  10C KC JC QC 3H 4C 6S 8H  JS KH  JD AS")
    assert one_card_each(t)[0].winner == 0
    t.bet(1, " ".join(c.code for c in t.state.money[1]))  # seat 1 bets all three cards
    for seat in (2, 3, 4, 5, 6, 7, 0):
        t.bet(seat, t.state.money[seat][0].code)
    assert t.state.turn == 2  # seat 1, broke, is skipped
    t.stop(2)
    for seat in (3, 4, 5, 6, 7, 0, 2):  # from the stopper's left, the stopper last; seat 1 skipped
        assert t.state.turn == seat and t.state.owes(seat) == 2
        events = t.bet(seat, " ".join(c.code for c in t.state.money[seat][:2]))
    won = events[1]
    assert won.winner == 2 and won.knocked_out == (1, 3, 4, 5, 6, 7) and len(won.pot) == 24
    assert t.state.in_game == (0, 2) and t.state.leader == 2
    assert one_card_each(t)[0].winner == 0
    events = one_card_each(t)
    assert kinds(events) == ["PotWon", "MoneyCounted"] and events[0].winner == 2
    assert events[1].reason == "deck_out" and t.state.stock == ()
    assert events[1].winners == (max((0, 2), key=lambda s: events[1].totals[s]),)
    assert sum(len(m) for m in t.state.money) + len(t.state.discards) == 52

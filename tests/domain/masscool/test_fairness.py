"""Fair dealing: every shuffle, the reshuffle after a tie included, is
committed a command before it is used and revealed once it is spent."""

import hashlib
from dataclasses import replace

from domain.cards import full_deck
from domain.masscool import Deal, Reshuffle, audit_shuffles, follow_up
from domain.masscool.events import (DeckReshuffled, HandsDrawn, MoneyCounted, MoneyDealt, PotTied, ShufflePromised,
                                    ShuffleRevealed)
from domain.masscool.rules import showdown_rank
from domain.shuffle import deck_from_seed

from .table import Table, reshuffled, stacked_deck


def seed(n: int) -> bytes:
    return hashlib.sha256(b"masscool-test-%d" % n).digest()


def play_round(t: Table) -> list:
    """One card each from the leader round, then the leader stops."""
    leader = t.state.turn
    t.bet(leader, t.state.money[leader][0].code)
    while t.state.turn != leader:
        t.bet(t.state.turn, t.state.money[t.state.turn][0].code)
    return t.stop(leader)


def seeded_table_whose_first_round_ties(players: int = 8) -> Table:
    """The first of a fixed list of seeds whose first hands tie for the highest card."""
    for n in range(500):
        t = Table(players, seed=seed(n), next_seed=seed(n + 1000))
        ranks = [showdown_rank(h, True) for h in t.state.hands]
        if ranks.count(max(ranks)) > 1:
            return t
    raise AssertionError("no seed in the list ties")


def test_the_first_shuffle_is_committed_when_the_game_is_created_and_dealt_from_its_seed():
    t = Table(2, seed=seed(1), next_seed=seed(2))
    promised, dealt = t.events[1], t.events[2]
    assert promised == ShufflePromised(1, hashlib.sha256(seed(1)).hexdigest(), seed(1).hex())
    assert isinstance(dealt, MoneyDealt) and not dealt.fixed and dealt.commitment == promised.commitment
    assert dealt.deck == deck_from_seed(seed(1), 1, (), full_deck())
    assert t.events[3] == ShufflePromised(2, hashlib.sha256(seed(2)).hexdigest(), seed(2).hex())


def test_a_tie_is_reshuffled_by_the_follow_up_from_the_seed_committed_a_command_before():
    t = seeded_table_whose_first_round_ties()
    committed = t.state.next_commitment
    assert follow_up(t.state, seed(9)) is None  # nothing to do while betting
    assert isinstance(play_round(t)[-1], PotTied)
    gathered = t.state.stock + t.state.gathered
    command = follow_up(t.state, seed(9))
    assert command == Reshuffle(None, seed(9))
    events = t.do(command)
    assert [type(e) for e in events] == [ShuffleRevealed, DeckReshuffled, ShufflePromised, HandsDrawn]
    revealed, reshuffled = events[0], events[1]
    assert revealed.shuffle == 1  # the dealt deck is spent: its seed is public now
    assert reshuffled.shuffle == 2 and reshuffled.commitment == committed and not reshuffled.fixed
    assert reshuffled.deck == deck_from_seed(bytes.fromhex(t.events[3].seed), 2, (),
                                             sorted(gathered, key=lambda c: c.index))
    assert events[2].shuffle == 3


def test_every_seed_is_revealed_by_the_end_and_the_audit_finds_the_game_fair():
    t = seeded_table_whose_first_round_ties()
    while not t.state.is_over:
        command = follow_up(t.state, seed(len(t.events) + 5000))
        if command is not None:
            t.do(command)
        else:
            play_round(t)
    promised = {e.shuffle for e in t.of(ShufflePromised)}
    assert {e.shuffle for e in t.of(ShuffleRevealed)} == promised and len(promised) >= 3
    assert isinstance(t.events[-1], MoneyCounted)
    assert audit_shuffles(t.events) == []


def test_the_audit_catches_a_deck_that_is_not_its_seeds_and_a_seed_that_is_not_the_committed_one():
    t = seeded_table_whose_first_round_ties()
    play_round(t)
    t.do(follow_up(t.state, seed(7)))
    at = next(i for i, e in enumerate(t.events) if isinstance(e, DeckReshuffled))
    deck = t.events[at].deck
    forged = t.events[:at] + [replace(t.events[at], deck=deck[1:2] + deck[:1] + deck[2:])] + t.events[at + 1:]
    assert audit_shuffles(forged) == ["shuffle 2: the deck is not the one its seed gives"]
    at = next(i for i, e in enumerate(t.events) if isinstance(e, ShuffleRevealed))
    lied = t.events[:at] + [ShuffleRevealed(1, "00" * 32)] + t.events[at + 1:]
    assert audit_shuffles(lied) == ["shuffle 1: the revealed seed is not the committed one"]


def test_an_operators_fixed_deck_reveals_the_seed_it_leaves_unused():
    t = Table(2, deck=full_deck(), seed=seed(1), next_seed=seed(2))
    kinds = [type(e) for e in t.events]
    assert kinds[:5] == [type(t.events[0]), ShufflePromised, ShuffleRevealed, MoneyDealt, ShufflePromised]
    assert t.events[2] == ShuffleRevealed(1, seed(1).hex()) and t.events[3].fixed
    assert audit_shuffles(t.events) == []


def test_a_tie_in_a_game_without_a_committed_seed_waits_for_the_operators_deck():
    t = Table(2, deck=stacked_deck(2, 0, 10, stock="AD AC"))
    play_round(t)
    assert t.state.status == "reshuffle" and follow_up(t.state, seed(3)) is None
    assert t.refused(Deal()) == "no_shuffle_committed"  # the operator must give the deck
    assert t.refused(Deal(seat=0)) == "already_dealt"  # and only the operator


def test_the_operators_deal_in_a_game_without_a_committed_seed_reshuffles_a_tied_pot():
    t = Table(2, deck=stacked_deck(2, 0, 10, stock="AD AC"))
    play_round(t)
    top = [c.code for c in t.state.stock[-2:]]
    deck = reshuffled(t.state, " ".join(top))
    events = t.do(Deal(deck))
    reshuffle = next(e for e in events if isinstance(e, DeckReshuffled))
    assert reshuffle.deck == deck and reshuffle.fixed and t.state.status == "betting"
    assert sorted(h.code for h in t.state.hands) == sorted(top)  # the fixed deck's top cards are the hands

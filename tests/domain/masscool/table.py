"""A test table for Mass Cool Casino: a game driven by commands, with every
step checked to fold to the same state, and stacked decks to order."""

from __future__ import annotations

import pytest

from domain.cards import Card, cards, full_deck
from domain.errors import RuleViolation
from domain.masscool import (Bet, CreateGame, Deal, Reshuffle, Stop, decide, evolve, fold)
from domain.masscool.dealing import deal_money


def stacked_deck(players: int, dealer: int, each: int, money: dict[int, str] | None = None,
                 stock: str = "") -> tuple[Card, ...]:
    """A full deck whose deal gives each seat the cards named in ``money``
    (other money slots filled with the lowest unnamed cards in new-deck
    order) and whose stock begins with ``stock``, the rest following in
    new-deck order."""
    money = {seat: list(cards(text)) for seat, text in (money or {}).items()}
    top = list(cards(stock))
    named = {c for m in money.values() for c in m} | set(top)
    spare = iter(c for c in full_deck() if c not in named)
    wanted = [money.get(seat, []) + [] for seat in range(players)]
    for seat in range(players):
        while len(wanted[seat]) < each:
            wanted[seat].append(next(spare))
    order = [(dealer + 1 + i) % players for i in range(players)]
    deck = [wanted[order[i % players]][i // players] for i in range(players * each)]
    deck += top + list(spare)
    assert deal_money(deck, players, dealer, each) == tuple(tuple(w) for w in wanted)
    return tuple(deck)


def reshuffled(state, top: str) -> tuple[Card, ...]:
    """The cards a tie gathered with the stock, ``top`` first, the rest in new-deck order."""
    first = list(cards(top))
    rest = sorted((c for c in state.stock + state.gathered if c not in first), key=lambda c: c.index)
    return tuple(first + rest)


class Table:
    def __init__(self, players: int, dealer: int = 0, deck=None, options=None, seed: bytes | None = None,
                 next_seed: bytes | None = None):
        names = tuple(f"P{i}" for i in range(players))
        self.events = decide(None, CreateGame(names, dealer, options or {}, seed))
        self.state = fold(self.events)
        self.do(Deal(deck, dealer, next_seed))

    def do(self, command) -> list:
        new = decide(self.state, command)
        for event in new:
            self.state = evolve(self.state, event)
        self.events += new
        assert fold(self.events) == self.state
        return new

    def bet(self, seat: int, text: str) -> list:
        return self.do(Bet(seat, cards(text)))

    def stop(self, seat: int) -> list:
        return self.do(Stop(seat))

    def reshuffle(self, top: str) -> list:
        return self.do(Reshuffle(reshuffled(self.state, top)))

    def refused(self, command) -> str:
        with pytest.raises(RuleViolation) as refusal:
            decide(self.state, command)
        return refusal.value.rule

    def of(self, kind) -> list:
        return [e for e in self.events if isinstance(e, kind)]


def one_card_each(t: Table) -> list:
    """Play a round the simple way: each seat with money bets its first
    card, the first to have bet stops when the turn comes back, and the
    bets are evened out. Returns the showdown's events."""
    while True:
        s = t.state
        seat = s.turn
        if s.stopped_by is None and s.bets[seat]:
            events = t.stop(seat)
        else:
            owed = s.owes(seat) if s.stopped_by is not None else 1
            events = t.bet(seat, " ".join(c.code for c in s.money[seat][:owed]))
        if len(events) > 1:
            return events[1:]

"""Deciding commands: ``decide(state, command) -> list[Event]``.

A bet or a stop may bring more than its own event: when no one is left to
bet, the hands are shown (``PotWon`` or ``PotTied``); a won pot is followed
by the next round's hands (``HandsDrawn``) or the end of the game
(``MoneyCounted``). A tied pot waits for its reshuffle: a ``Reshuffle``
command that the service issues by itself when :func:`follow_up` says so,
with the seed it committed one command earlier.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Collection, Sequence

from .. import kernel_rules, rating, seating
from ..cards import Card, full_deck
from ..deciding import Decider
from ..kernel_events import ClockSet, RatedSet
from ..errors import OptionError, RuleViolation
from ..shuffle import commitment
from . import commands as cmd
from .betting import check_move
from .computer import stand_in
from .dealing import deal_money, draw_hands, seeded_deck
from .events import (BetPlaced, DeckReshuffled, Event, HandsDrawn, MoneyCounted, MoneyDealt, PotTied, PotWon,
                     ShufflePromised, ShuffleRevealed, StopCalled, TableOpened)
from .evolve import evolve, fold
from .game import outcome
from .moves import Move
from .rules import money_value, resolve, showdown_rank
from .state import RESHUFFLE, WAITING, MassCoolState


def follow_up(state: MassCoolState, next_seed: bytes | None) -> cmd.Reshuffle | None:
    """The command the service issues by itself after a command, if any: the
    reshuffle after a tie, from the seed committed earlier (``next_seed``
    commits the one after). Without a committed seed (an operator's fixed
    game) the operator gives the deck instead."""
    if state.status == RESHUFFLE and state.next_seed is not None:
        return cmd.Reshuffle(None, next_seed)
    return None


def _create(c: cmd.CreateGame) -> list[Event]:
    n = len(c.players)
    options = resolve(c.variant, c.options, n)
    if not 0 <= c.first_dealer < n:
        raise OptionError(f"The first dealer must be a seat from 0 to {n - 1}.", "first_dealer")
    rating.check_rated_seats(c.rated, (None,) * len(c.players), c.players)
    clock = [ClockSet(c.clock)] if c.clock is not None else []
    rated = [RatedSet()] if c.rated else []
    return [TableOpened(tuple(c.players), c.first_dealer, options), *clock, *rated, *_promise(1, c.seed)]


def _promise(number: int, seed: bytes | None) -> list[Event]:
    return [ShufflePromised(number, commitment(seed), seed.hex())] if seed is not None else []


def _then(state: MassCoolState, events: list[Event]) -> MassCoolState:
    return fold(events, state)


def _new_deck(s: MassCoolState, given: Sequence[Card] | None,
              cards: Collection[Card]) -> tuple[list[Event], tuple[Card, ...], bool, str | None]:
    """The deck of the next shuffle, of ``cards``: the given one (revealing a
    committed seed it leaves unused) or the committed seed's. Returns the
    reveal events, the deck, whether it is fixed, and its commitment."""
    number = s.shuffles + 1
    if given is not None:
        deck = tuple(given)
        if len(deck) != len(cards) or Counter(deck) != Counter(cards):
            raise RuleViolation("invalid_deck", f"The deck must hold each of these {len(cards)} cards exactly once.")
        unused: list[Event] = [ShuffleRevealed(number, s.next_seed)] if s.next_seed is not None else []
        return unused, deck, True, None
    if s.next_seed is None:
        raise RuleViolation("no_shuffle_committed", "No shuffle has been committed; give the deck.")
    return [], seeded_deck(s.next_seed, number, cards), False, s.next_commitment


def _deal(s: MassCoolState, c: cmd.Deal) -> list[Event]:
    seating.check_all_seated(s.names)
    if s.status == RESHUFFLE and c.seat is None:
        # A game whose decks the operator fixes has no committed seed to
        # reshuffle a tied pot with: the operator deals that deck too.
        return _reshuffle(s, cmd.Reshuffle(c.deck, c.next_seed))
    if s.status != WAITING:
        raise RuleViolation("already_dealt", "The cards have been dealt already.")
    if c.seat is not None and c.seat != s.first_dealer:
        raise RuleViolation("not_dealer", f"Seat {s.first_dealer} deals.")
    events, deck, fixed, committed = _new_deck(s, c.deck, full_deck())
    money = deal_money(deck, s.players, s.first_dealer, s.options.money)
    events += [MoneyDealt(s.first_dealer, deck, money, fixed, committed), *_promise(2, c.next_seed)]
    return events + _start_round(_then(s, events), 1, s.first_dealer)


def _reshuffle(s: MassCoolState, c: cmd.Reshuffle) -> list[Event]:
    if s.status != RESHUFFLE:
        raise RuleViolation("no_reshuffle_due", "Only a tied pot is reshuffled into the deck.")
    spent = [ShuffleRevealed(s.shuffles, s.seed)] if s.seed is not None else []
    unused, deck, fixed, committed = _new_deck(s, c.deck, s.stock + s.gathered)
    number = s.shuffles + 1
    events = [*spent, *unused, DeckReshuffled(number, deck, fixed, committed), *_promise(number + 1, c.next_seed)]
    return events + _start_round(_then(s, events), s.round, s.leader)


def _start_round(s: MassCoolState, number: int, leader: int) -> list[Event]:
    """Everyone still in draws a hand, or the game ends if the stock is short;
    with no one able to bet, the hands are shown at once."""
    order = s.clockwise_from(leader)
    if len(s.stock) < len(order):
        return _finish(s, "deck_out")
    drawn = HandsDrawn(number, leader, draw_hands(s.stock, order, s.players))
    after = _then(s, [drawn])
    return [drawn, *(_showdown(after) if after.turn is None else [])]


def _showdown(s: MassCoolState) -> list[Event]:
    """The highest hand takes every bet; a tie for it gathers everything for a reshuffle."""
    ace_high = s.options.ace_high
    ranks = {seat: showdown_rank(h, ace_high) for seat, h in enumerate(s.hands) if h is not None}
    best = max(ranks.values())
    top = tuple(seat for seat, r in ranks.items() if r == best)
    if len(top) > 1:
        return [PotTied(s.round, s.hands, top)]
    winner = top[0]
    pot = tuple(c for b in s.bets for c in b)
    broke = tuple(seat for seat in s.in_game if seat != winner and not s.money[seat])
    won = PotWon(s.round, s.hands, winner, pot, broke)
    after = _then(s, [won])
    if len(after.in_game) == 1:
        return [won, *_finish(after, "last_player")]
    return [won, *_start_round(after, s.round + 1, after.left_of(s.leader))]


def _finish(s: MassCoolState, reason: str, losers: Collection[int] = ()) -> list[Event]:
    """Reveal every seed still secret and count the money, each seat's bet
    in a pot not shown down given back to it: the highest total among the
    players still in (but ``losers``) wins, and a tie for it is a shared win."""
    reveals = [ShuffleRevealed(s.shuffles, s.seed)] if s.seed is not None else []
    if s.next_seed is not None:
        reveals.append(ShuffleRevealed(s.shuffles + 1, s.next_seed))
    totals = tuple(money_value(m + b) for m, b in zip(s.money, s.bets))
    contenders = [seat for seat in s.in_game if seat not in losers]
    best = max((totals[seat] for seat in contenders), default=None)
    winners = tuple(seat for seat in contenders if totals[seat] == best)
    return [*reveals, MoneyCounted(totals, winners, reason)]


def _move(s: MassCoolState, seat: int, move: Move, event: Event) -> list[Event]:
    check_move(s, seat, move)
    after = _then(s, [event])
    return [event, *(_showdown(after) if after.turn is None else [])]


def _bet(s: MassCoolState, c: cmd.Bet) -> list[Event]:
    move = Move.bet(*c.cards)
    return _move(s, c.seat, move, BetPlaced(c.seat, move.cards))


def _stop(s: MassCoolState, c: cmd.Stop) -> list[Event]:
    return _move(s, c.seat, Move.stop(), StopCalled(c.seat))


def _latest_move(s: MassCoolState) -> tuple[int, int | None]:
    """The seat whose bet or stop an undo takes back, and the seat the service moved for in it."""
    if s.before_move is None or s.last_actor is None:
        raise RuleViolation("nothing_to_undo", "There is no bet or stop to take back since the cards were last "
                            "drawn or shown.")
    return s.last_actor, s.before_move.stood_in


def _answering(s: MassCoolState, seat: int) -> tuple[int, ...]:
    """The players who answer an undo request: those still in, ``seat`` among them."""
    if not 0 <= seat < s.players:
        raise RuleViolation("not_a_seat", f"There is no seat {seat}.")
    if s.out[seat]:
        raise RuleViolation("out_of_game", "Only players still in the game answer.")
    return s.in_game


def _in_game(s: MassCoolState, seat: int) -> None:
    seating.check_held(s.names, seat)
    if s.out[seat]:
        raise RuleViolation("out_of_game", "You are out of the game already.")


def _decide(state: MassCoolState, command: cmd.Command) -> list[Event]:
    """The time-out's stand-in move, decided as any command."""
    return decide(state, command)


#: Mass Cool Casino's part of the kernel's handlers (:mod:`domain.kernel_rules`):
#: a seat that gives up or runs out of time leaves the count; calling the game
#: off leaves everyone out of it.
KERNEL: kernel_rules.Hooks[MassCoolState] = kernel_rules.Hooks(
    dealt=lambda s: s.status != WAITING, check_seat=_in_game,
    forfeit=lambda s, seat, reason: _finish(s, reason, (seat,)), call_off=lambda s: _finish(s, "aborted", s.in_game),
    sides=lambda s: range(len(s.names)), outcome=outcome, stand_in=stand_in, evolve=evolve,
    decide=_decide, undo_policy=lambda s: s.options.undo, latest=_latest_move, answering=_answering,
    undo=cmd.Undo, answer_undo=cmd.AnswerUndo)

decide = Decider[MassCoolState, cmd.Command, Event](cmd.CreateGame, _create, {
    cmd.Deal: _deal, cmd.Reshuffle: _reshuffle, cmd.Bet: _bet, cmd.Stop: _stop,
    **kernel_rules.decide_handlers(KERNEL),
}).decide

"""Clocks as data (docs/rules.md, "Clocks"): each command decided at a
given moment, each event folded with its time, in both game types."""

from __future__ import annotations

import itertools
from datetime import UTC, datetime, timedelta

import pytest

from domain import cassino, clocks, masscool
from domain.clocks import ClockRule
from domain.errors import OptionError, RuleViolation
from domain.game_types import GAME_TYPES
from tests.domain.test_seating import SEED

GAMES = sorted(GAME_TYPES)
T0 = datetime(2026, 11, 26, 12, 0, tzinfo=UTC)
PER_MOVE = ClockRule(per_move_seconds=30)
BANK = ClockRule(initial_seconds=60, increment_seconds=5)


def at(seconds: float) -> datetime:
    return T0 + timedelta(seconds=seconds)


class Timed:
    """A game run through the interface with a time for every command, its
    events kept with their times as a store keeps them."""

    def __init__(self, name: str, names, clock: ClockRule, first_dealer: int = 0, options=None):
        self.game = GAME_TYPES[name]
        self.log: list[tuple[object, datetime]] = []
        self.state = None
        variant = next(iter(self.game.VARIANTS))
        self.run(self.game.create_command(variant, tuple(names), first_dealer, options, SEED, clock), 0)

    def run(self, command, seconds: float):
        when = at(seconds)
        events = self.game.decide(self.state, command, when)
        self.state = self.game.fold(events, self.state, itertools.repeat(when))
        self.log += [(e, when) for e in events]
        return events

    def refused(self, command, seconds: float) -> str:
        with pytest.raises(RuleViolation) as caught:
            self.game.decide(self.state, command, at(seconds))
        return caught.value.rule

    def move(self, seconds: float):
        seat = self.game.awaiting(self.state).seats[0]
        return self.run(self.game.command_for(seat, self.game.legal_moves(self.state, seat).first().moves[0], SEED),
                        seconds)

    def refold(self, upto: int | None = None):
        events = self.log[:upto]
        return self.game.fold((e for e, _ in events), None, (t for _, t in events))


def test_a_clock_is_per_move_or_a_bank_and_nothing_else():
    assert clocks.rule(None) is None and clocks.rule(None, "computer") is None  # no clock: nothing times out
    first = clocks.FIRST_ACTION_SECONDS  # every clock made from a creation gives the first action its own time
    assert clocks.rule({"per_move_seconds": 86400 * 3}) == ClockRule(per_move_seconds=259200,
                                                                     first_action_seconds=first)
    assert clocks.rule({"initial_seconds": 300, "increment_seconds": 2}, "computer") == ClockRule(
        None, 300, 2, "computer", first)
    for bad, on_timeout in [({"per_move_seconds": 0}, None), ({"per_move_seconds": True}, None),
                            ({"per_move_seconds": 5, "initial_seconds": 5}, None), ({"increment_seconds": 5}, None),
                            ({"initial_seconds": 5, "increment_seconds": -1}, None), ("fast", None),
                            ({"per_move_seconds": clocks.MAX_SECONDS + 1}, None),
                            ({"per_move_seconds": 5}, "pass"), (None, "pass"),
                            ({"per_move_seconds": 5, "first_action_seconds": 1}, None)]:
        with pytest.raises(OptionError):
            clocks.rule(bad, on_timeout)


@pytest.mark.parametrize("name", GAMES)
def test_the_dealer_has_the_time_for_a_move_from_the_creation_and_each_seat_from_the_move_before(name):
    t = Timed(name, ("Ann", "Bob"), PER_MOVE)
    assert (t.state.clock.seat, t.game.deadline(t.state)) == (0, at(30))
    t.run(t.game.deal_command(0, None, SEED), 20)
    seat = t.game.awaiting(t.state).seats[0]
    assert (t.state.clock.seat, t.game.deadline(t.state)) == (seat, at(50))
    t.move(45)
    assert t.state.clock.seat != seat and t.game.deadline(t.state) == at(75)
    view = t.game.game_view(t.state)["clock"]
    assert view == {"per_move_seconds": 30, "on_timeout": "forfeit", "seat": t.state.clock.seat,
                    "deadline": "2026-11-26T12:01:15.000Z",
                    "seats": [{"seat": 0, "remaining_ms": 30000}, {"seat": 1, "remaining_ms": 30000}]}


@pytest.mark.parametrize("name", GAMES)
def test_a_bank_is_spent_by_its_seats_moves_and_grows_by_the_increment(name):
    t = Timed(name, ("Ann", "Bob"), BANK)
    t.run(t.game.deal_command(0, None, SEED), 10)  # the dealer spent 10 s, then +5
    first = t.state.clock.seat
    assert t.state.clock.remaining[0] == timedelta(seconds=55)
    t.move(25)  # the first player spent 15 s
    before = 55 if first == 0 else 60  # Mass Cool Casino's dealer bets first
    assert t.state.clock.remaining[first] == timedelta(seconds=before - 15 + 5)
    assert t.game.deadline(t.state) == at(25) + t.state.clock.remaining[t.state.clock.seat]


@pytest.mark.parametrize("name", GAMES)
def test_after_the_deadline_every_command_is_refused_and_the_time_out_ends_the_game(name):
    t = Timed(name, ("Ann", "Bob"), PER_MOVE)
    t.run(t.game.deal_command(0, None, SEED), 0)
    seat = t.state.clock.seat
    assert t.refused(t.game.time_out_command(SEED), 30) == "not_due"  # at the deadline it is not yet out
    with pytest.raises(RuleViolation) as caught:
        t.game.decide(t.state, t.game.time_out_command(SEED))  # a claim needs a time
    assert caught.value.rule == "not_due"
    move = t.game.command_for(seat, t.game.legal_moves(t.state, seat).first().moves[0], SEED)
    assert t.refused(move, 30.001) == "time_out"
    assert t.refused(t.game.resign_command(1 - seat), 31) == "time_out"
    events = t.run(t.game.time_out_command(SEED), 31)
    assert t.game.to_json(events[0])["data"] == {"seat": seat, "computer": False}
    view = t.game.game_view(t.state)
    assert (view["result"], view["winners"], view["clock"]["seat"], view["clock"]["deadline"]) == (
        "timed_out", [1 - seat], None, None)
    assert t.refused(t.game.time_out_command(SEED), 99) == "game_over"


@pytest.mark.parametrize("name", GAMES)
def test_with_on_timeout_computer_the_computer_moves_for_the_seat_and_the_game_goes_on(name):
    t = Timed(name, ("Ann", "Bob"), ClockRule(per_move_seconds=30, on_timeout="computer"))
    events = t.run(t.game.time_out_command(SEED), 40)  # the dealer did not deal: the computer deals
    assert t.game.to_json(events[0])["data"] == {"seat": 0, "computer": True} and len(events) > 1
    assert t.state.status != "finished" and t.game.awaiting(t.state).command.value == "play"
    seat = t.state.clock.seat
    assert t.game.deadline(t.state) == at(70)
    t.run(t.game.time_out_command(SEED), 71)
    assert t.state.clock.seat == 1 - seat or t.state.status == "finished"


@pytest.mark.parametrize("name", GAMES)
def test_the_clock_runs_for_nobody_while_a_seat_is_open_and_starts_at_the_last_join(name):
    t = Timed(name, ("Ann", None), PER_MOVE)
    assert t.state.clock.seat is None and t.game.deadline(t.state) is None
    assert t.refused(t.game.time_out_command(SEED), 3600) == "not_due"
    t.run(t.game.join_command(None, "Bob", None), 100)
    assert t.game.deadline(t.state) == at(130)


def test_a_pending_undo_request_does_not_stop_the_clock_of_the_seat_to_play():
    t = Timed("cassino", ("Ann", "Bob"), PER_MOVE, first_dealer=1)
    t.run(cassino.deal_command(1, None, SEED), 0)
    t.move(10)  # seat 0 plays; seat 1 to play, due at 40
    t.run(cassino.undo_command(0), 20)  # seat 0 asks to take it back
    assert t.state.clock.seat == 1 and t.game.deadline(t.state) == at(40)
    assert t.refused(cassino.answer_undo_command(1, True), 41) == "time_out"


def test_a_play_taken_back_gives_no_time_back_and_leaves_no_increment_behind():
    t = Timed("cassino", ("Ann", "Bob"), BANK, first_dealer=1)
    t.run(cassino.deal_command(1, None, SEED), 0)  # seat 0 to play, 60 s from 0; the dealer has 65
    t.move(20)  # seat 0 spent 20 s and gained 5: 45 left, seat 1 to play
    t.run(cassino.undo_command(None), 30)  # the operator takes it back
    # as before the play: seat 0's clock running since 0, so the 30 s the play and its undo took are its own
    assert t.state.clock == clocks.Clock(BANK, (timedelta(seconds=60), timedelta(seconds=65)), 0, at(0))
    assert t.game.deadline(t.state) == at(60)
    assert t.refold() == t.state


def test_a_play_taken_back_by_consent_charges_the_time_the_request_took_to_the_mover():
    t = Timed("cassino", ("Ann", "Bob"), BANK, first_dealer=1)
    t.run(cassino.deal_command(1, None, SEED), 0)
    t.move(20)
    t.run(cassino.undo_command(0), 25)
    t.run(cassino.answer_undo_command(1, True), 50)  # seat 1 took 30 s to accept: not its time
    assert t.state.clock == clocks.Clock(BANK, (timedelta(seconds=60), timedelta(seconds=65)), 0, at(0))
    assert t.refused(cassino.undo_command(0), 61) == "time_out"


@pytest.mark.parametrize("name", GAMES)
def test_five_moves_taken_back_at_once_leave_a_bank_where_it_was(name):
    """The probe of issue 33: five plays and take-backs in 0.1 s took a bank from 30 s to 80 s."""
    t = Timed(name, ("Ann", "Bob"), ClockRule(initial_seconds=30, increment_seconds=10), options={"undo": "free"})
    t.run(t.game.deal_command(0, None, SEED), 0)
    seat, before, due = t.state.clock.seat, t.state.clock, t.game.deadline(t.state)
    for cycle in range(5):
        t.move(1 + cycle / 50)
        t.run(t.game.undo_command(seat), 1.01 + cycle / 50)
        assert t.state.clock == before and t.game.deadline(t.state) == due
    assert t.game.game_view(t.state)["clock"]["seats"] == [
        {"seat": s, "remaining_ms": left // timedelta(milliseconds=1)} for s, left in enumerate(before.remaining)]
    assert t.refold() == t.state  # a replay shows the same clocks


@pytest.mark.parametrize("name", GAMES)
def test_moves_taken_back_before_the_deadline_do_not_hold_off_a_clock_per_move(name):
    t = Timed(name, ("Ann", "Bob"), PER_MOVE, options={"undo": "free"})
    t.run(t.game.deal_command(0, None, SEED), 0)
    seat = t.state.clock.seat
    for second in (20, 25, 29, 29.9):
        t.move(second)
        t.run(t.game.undo_command(seat), second + 0.05)  # the undo itself is in the next seat's time
        assert t.state.clock.seat == seat and t.game.deadline(t.state) == at(30)
    move = t.game.command_for(seat, t.game.legal_moves(t.state, seat).first().moves[0], SEED)
    assert t.refused(move, 30.1) == "time_out"
    assert t.game.to_json(t.run(t.game.time_out_command(SEED), 30.1)[0])["data"]["seat"] == seat
    assert t.refold() == t.state


@pytest.mark.parametrize("name", GAMES)
def test_a_move_the_service_made_on_a_time_out_is_not_the_seats_to_take_back(name):
    t = Timed(name, ("Ann", "Bob"), ClockRule(per_move_seconds=30, on_timeout="computer"), options={"undo": "free"})
    t.run(t.game.time_out_command(SEED), 31)  # the service deals for the dealer: a deal is never taken back
    seat = t.state.clock.seat
    t.move(40)  # the seat's own move after the service's deal is its own to take back
    t.run(t.game.undo_command(seat), 41)
    t.run(t.game.time_out_command(SEED), 62)  # the service moves for the seat
    assert t.refused(t.game.undo_command(seat), 63) == "moved_on_time_out"
    t.run(t.game.undo_command(None), 64)  # the operator may: the seat's time is still out
    assert t.game.deadline(t.state) == at(61)
    assert t.refold() == t.state


def test_a_take_back_stored_before_version_2_replays_with_the_clock_as_it_stood():
    t = Timed("cassino", ("Ann", "Bob"), BANK, first_dealer=1)
    t.run(cassino.deal_command(1, None, SEED), 0)
    t.move(20)
    t.run(cassino.undo_command(None), 30)
    stored = [cassino.to_json(e) for e, _ in t.log]
    assert stored[-1] == {"type": "kernel.PlayUndone", "schema_version": 2,
                          "data": {"seat": 0, "forced": True, "restores_clock": True}}
    stored[-1] = {"type": "PlayUndone", "schema_version": 1, "data": {"seat": 0, "forced": True}}
    old = cassino.fold((cassino.from_json(e) for e in stored), None, (when for _, when in t.log))
    # as it was played then: seat 0 kept the 45 s (and the increment) of the play taken back, from 30, and
    # seat 1 paid the 10 s until the undo (and gained an increment)
    assert old.clock == clocks.Clock(BANK, (timedelta(seconds=45), timedelta(seconds=60)), 0, at(30))


@pytest.mark.parametrize("name", GAMES)
def test_a_refold_with_the_events_times_gives_the_clock_as_it_stood_at_every_version(name):
    t = Timed(name, ("Ann", "Bob"), BANK)
    t.run(t.game.deal_command(0, None, SEED), 7)
    states = []
    for second in (11, 19, 30, 41):
        if t.state.status == "finished":
            break
        t.move(second)
        states.append(t.state)
    for state in states:
        assert t.refold(state.version).clock == state.clock
    assert t.refold() == t.state
    # folded without times, a clock stands still: as it was set at the creation
    assert t.game.fold(e for e, _ in t.log).clock == clocks.start(BANK, 2)


def test_mass_cool_casino_forfeits_a_seat_whose_time_runs_out_among_three():
    t = Timed("mass-cool-casino", ("Ann", "Bob", "Cy"), PER_MOVE)
    t.run(masscool.deal_command(0, None, SEED), 0)
    seat = t.state.clock.seat
    t.run(masscool.time_out_command(SEED), 31)
    outcome = masscool.outcome(t.state)
    assert outcome.result == "timed_out" and seat not in outcome.winners and outcome.winners


FIRST = ClockRule(per_move_seconds=5, first_action_seconds=30)


@pytest.mark.parametrize("name", GAMES)
def test_each_seats_first_action_has_the_longer_of_its_clock_and_its_own_time(name):
    t = Timed(name, ("Ann", "Bob"), FIRST)
    assert t.game.deadline(t.state) == at(30)  # the dealer's first deal: 30 s, not 5
    t.run(t.game.deal_command(0, None, SEED), 10)
    seat = t.state.clock.seat
    assert t.game.deadline(t.state) == at(10 + (30 if seat == 1 else 5))  # the dealer has acted
    assert clocks.clock_view(t.state.clock)["first_action_seconds"] == 30
    while t.state.clock.seat == 0:  # Mass Cool Casino's dealer bets first
        t.move(12)
    t.move(20)  # seat 1's first action; from now on every seat has its clock's 5 s
    assert t.state.clock.acted == (0, 1)
    assert t.game.deadline(t.state) == at(25)


def test_a_first_action_takes_nothing_from_a_bank():
    t = Timed("cassino", ("Ann", "Bob"), ClockRule(initial_seconds=10, increment_seconds=2, first_action_seconds=30))
    t.run(cassino.deal_command(0, None, SEED), 25)  # 25 s, more than the bank, for the first deal
    assert t.state.clock.remaining == (timedelta(seconds=10), timedelta(seconds=10))
    assert t.game.deadline(t.state) == at(55)  # seat 1's first play: 30 s
    t.move(30)
    t.move(34)  # the dealer's second action comes from its bank: 4 s spent, 2 added
    assert t.state.clock.remaining[0] == timedelta(seconds=8)


@pytest.mark.parametrize("name", GAMES)
@pytest.mark.parametrize("on_timeout", ["forfeit", "computer"])
def test_a_seat_that_never_makes_its_first_action_calls_the_game_off_and_nobody_loses(name, on_timeout):
    t = Timed(name, ("Ann", "Bob"), ClockRule(per_move_seconds=5, on_timeout=on_timeout, first_action_seconds=30))
    t.run(t.game.deal_command(0, None, SEED), 1)
    if t.state.clock.seat in t.state.clock.acted:  # Mass Cool Casino's dealer, who has dealt, bets first
        t.move(2)
    seat = t.state.clock.seat
    assert seat not in t.state.clock.acted and t.refused(t.game.time_out_command(SEED), 31) == "not_due"
    events = t.run(t.game.time_out_command(SEED), 33)
    assert t.game.to_json(events[0])["data"]["seat"] == seat
    view = t.game.game_view(t.state)
    assert (view["status"], view["result"], view["winners"]) == ("finished", "aborted", [])


@pytest.mark.parametrize("name", GAMES)
def test_after_its_first_action_a_seat_that_runs_out_of_time_loses(name):
    t = Timed(name, ("Ann", "Bob"), FIRST)
    t.run(t.game.deal_command(0, None, SEED), 1)
    while t.state.clock.seat in t.state.clock.acted or t.state.clock.seat == 0:
        t.move(2)
    t.move(3)  # both seats have acted
    seat = t.state.clock.seat
    t.run(t.game.time_out_command(SEED), 9)
    view = t.game.game_view(t.state)
    assert view["result"] == "timed_out" and seat not in view["winners"]

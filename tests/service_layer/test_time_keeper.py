"""The time keeper on the memory wiring, with a clock the test moves: the
deadline is kept with the append that sets it, claimed once due, and the
time-out appended once, whoever claims it (docs/design.md, "Deadlines")."""

from __future__ import annotations

import dataclasses
import threading
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime, timedelta

import pytest

from domain.game_types import public_type
from domain.clocks import ClockRule
from service.auth import seat
from service.bootstrap import Services, Settings, bootstrap
from service import rematches, timeouts
from service.commands import AnswerRematch, CreateGame, Deal, RegisterPlayer, Resign, SeatedPlayer
from service.games import REMATCH_LOOK, GameNotFound
from service.memory import wiring
from service.memory.tables import DeadlineRow, Tables
from service.timeouts import LEASE

T0 = datetime(2026, 11, 26, 12, 0, tzinfo=UTC)


class Clock:
    def __init__(self):
        self.now = T0

    def __call__(self) -> datetime:
        return self.now


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def tables(clock) -> Tables:
    return Tables(now=clock)


def services_on(tables: Tables) -> Services:
    """One process's services over the shared tables (several make several workers)."""
    return bootstrap(wiring.adapters({}, None, tables), Settings(None, None))


def create(services: Services, clock: ClockRule | None, seats=("Ann", "Bob")):
    return services.games.create(CreateGame(variant="cassino", seats=seats, options={}, first_dealer=1, clock=clock))


def types(tables: Tables, game_id) -> list[str]:
    """The game's events by their public names (a time-out is stored as ``kernel.TimedOut``)."""
    return [public_type(e.type) for e in tables.events[game_id]]


def test_a_game_without_a_clock_keeps_no_deadline(tables):
    services = services_on(tables)
    created = create(services, None)
    services.games.execute(Deal(game_id=created.game_id, caller=seat(1)))
    assert tables.deadlines == {}


def test_the_deadline_is_kept_with_each_append_and_cleared_at_the_end(tables, clock):
    services = services_on(tables)
    game_id = create(services, ClockRule(per_move_seconds=30)).game_id
    assert tables.deadlines[game_id].due_at == T0 + timedelta(seconds=30)
    clock.now = T0 + timedelta(seconds=5)
    services.games.execute(Deal(game_id=game_id, caller=seat(1)))
    assert tables.deadlines[game_id].due_at == T0 + timedelta(seconds=35)
    services.games.execute(Resign(game_id=game_id, caller=seat(0)))
    assert game_id not in tables.deadlines
    assert services.keeper.tick() == 0


def test_a_due_deadline_is_claimed_and_timed_out_once_by_whichever_worker_comes_first(tables, clock):
    first, second = services_on(tables), services_on(tables)
    game_id = create(first, ClockRule(per_move_seconds=2)).game_id
    second.games.load(game_id)  # each worker has the game cached
    clock.now = T0 + timedelta(seconds=2)
    assert first.keeper.tick() == 0  # due at the deadline, out just after it
    clock.now = T0 + timedelta(seconds=2, milliseconds=1)
    assert first.keeper.tick() == 1
    assert second.keeper.tick() == 0  # nothing left to claim
    assert second.keeper.time_out(game_id) is False  # and deciding it again appends nothing
    assert types(tables, game_id).count("TimedOut") == 1
    assert types(tables, game_id)[-1] == "GameFinished"
    view = first.games.load(game_id)
    assert first.games.load(game_id).status == "finished" and view.outcome.reason == "timed_out"
    assert game_id not in tables.deadlines


def test_a_claim_left_by_a_worker_that_died_lapses_and_another_worker_acts(tables, clock):
    services = services_on(tables)
    game_id = create(services, ClockRule(per_move_seconds=2)).game_id
    clock.now = T0 + timedelta(seconds=3)
    assert services.adapters.deadlines.claim(clock.now, 10, LEASE) == [game_id]  # and then the worker dies
    other = services_on(tables)
    assert other.keeper.tick() == 0
    clock.now += LEASE
    assert other.keeper.tick() == 1
    assert types(tables, game_id).count("TimedOut") == 1


def test_on_timeout_computer_moves_on_and_sets_the_next_deadline(tables, clock):
    services = services_on(tables)
    game_id = create(services, ClockRule(per_move_seconds=10, on_timeout="computer")).game_id
    clock.now = T0 + timedelta(seconds=11)
    assert services.keeper.tick() == 1
    state = services.games.load(game_id)
    assert state.status == "in_progress" and types(tables, game_id)[-2:] != ["TimedOut", "GameFinished"]
    assert tables.deadlines[game_id].due_at == clock.now + timedelta(seconds=10)
    meta = tables.events[game_id][-1].metadata
    assert meta["actor"] == "service" and meta["command"] == "TimeOut"


def test_a_claim_of_several_games_times_each_out_once_deciding_again_one_that_moved_meanwhile(tables, clock):
    first, second = services_on(tables), services_on(tables)
    games = [create(first, ClockRule(per_move_seconds=2)).game_id for _ in range(5)]
    clock.now = T0 + timedelta(seconds=1, milliseconds=500)
    second.games.execute(Deal(game_id=games[2], caller=seat(1)))  # the first worker's cache is now behind
    clock.now = T0 + timedelta(seconds=3, milliseconds=600)  # past the dealt game's new deadline too

    assert first.keeper.tick() == 5
    assert first.keeper.tick() == second.keeper.tick() == 0

    for game_id in games:
        assert types(tables, game_id).count("TimedOut") == 1 and types(tables, game_id)[-1] == "GameFinished"
        assert first.games.load(game_id).status == "finished"
    assert "HandDealt" in types(tables, games[2])[:-2]
    assert tables.deadlines == {}


def signing_services_on(tables: Tables, key: bytes) -> Services:
    """One process's services, signing the games' heads with ``key``."""
    return bootstrap(wiring.adapters({}, key, tables), Settings(None, key))


def test_a_damaged_game_in_a_claim_is_told_and_left_and_the_claims_other_time_outs_still_come(tables, clock,
                                                                                               caplog):
    """A game signed with another key (a service with another operator token
    on the same database) is damaged to this one: it cannot be decided, and
    it comes first in the claim (its deadline is the earliest). The game
    after it, moved meanwhile by another worker, is timed out by itself all
    the same, and the damaged one is logged with its first bad version."""
    first, second = signing_services_on(tables, b"k" * 32), signing_services_on(tables, b"k" * 32)
    damaged = create(signing_services_on(tables, b"another key"), ClockRule(per_move_seconds=2)).game_id
    games = [create(first, ClockRule(per_move_seconds=2)).game_id for _ in range(2)]
    clock.now = T0 + timedelta(seconds=1, milliseconds=500)
    second.games.execute(Deal(game_id=games[1], caller=seat(1)))  # the first worker's cache is now behind
    clock.now = T0 + timedelta(seconds=3, milliseconds=600)

    assert first.keeper.tick() == 3

    for game_id in games:
        assert types(tables, game_id).count("TimedOut") == 1 and types(tables, game_id)[-1] == "GameFinished"
    assert "TimedOut" not in types(tables, damaged) and damaged in tables.deadlines
    assert f"Game {damaged} is damaged from version {len(tables.events[damaged])} on." in caplog.text


# -- the computer seats ------------------------------------------------------

def test_a_computer_awaited_is_claimed_by_one_worker_at_a_time_and_acts_once(tables, clock):
    first, second = services_on(tables), services_on(tables)
    game_id = first.games.create(CreateGame(variant="cassino", seats=("Ann", "Cpu"), options={}, first_dealer=1,
                                            computers=(1,))).game_id
    assert game_id in tables.computer_turns and types(tables, game_id)[-1] != "HandDealt"  # it deals after

    assert first.adapters.computer_turns.claim(clock.now, 10, LEASE) == [game_id]  # a worker that then died
    assert second.keeper.play() == 0
    clock.now += LEASE
    assert second.keeper.play() == 1
    assert tables.events[game_id][-1].metadata["actor"] == "computer:1" and "HandDealt" in types(tables, game_id)
    assert game_id not in tables.computer_turns  # Ann plays first: no computer is awaited
    assert first.keeper.play() == second.keeper.play() == 0


def test_a_persons_command_is_answered_before_the_computer_acts_and_a_kept_row_the_game_denies_goes(tables):
    services = services_on(tables)
    game_id = services.games.create(CreateGame(variant="cassino", seats=("Ann", "Cpu"), options={}, first_dealer=0,
                                               computers=(1,))).game_id
    assert game_id not in tables.computer_turns  # Ann deals
    dealt = services.games.execute(Deal(game_id=game_id, caller=seat(0)))
    assert dealt.state.turn == 1 and game_id in tables.computer_turns  # answered with the computer to play
    assert services.keeper.play() == 1 and services.games.load(game_id).turn == 0

    tables.computer_turns[game_id] = DeadlineRow(T0)  # written by other means than the service's appends
    assert services.keeper.play() == 0 and game_id not in tables.computer_turns


# -- a rematch made with nobody calling ----------------------------------------

def finished_players_game(services: Services) -> tuple[uuid.UUID, list[uuid.UUID]]:
    """A finished game of two registered players, Ann (seat 0) and Bob (seat 1, who resigned); and their ids."""
    ids = [services.players.register(RegisterPlayer(player_name=name)).player.id for name in ("Ann", "Bob")]
    game_id = services.games.create(CreateGame(
        variant="cassino", seats=(None, None), options={}, first_dealer=0, guests=False,
        seated=tuple(SeatedPlayer(n, ids[n], name) for n, name in enumerate(("Ann", "Bob"))))).game_id
    services.games.execute(Deal(game_id=game_id, caller=seat(0, ids[0])))
    services.games.execute(Resign(game_id=game_id, caller=seat(1, ids[1])))
    return game_id, ids


def answer(game_id: uuid.UUID, seat_number: int, player_id: uuid.UUID) -> AnswerRematch:
    return AnswerRematch(game_id=game_id, caller=seat(seat_number, player_id), new_game=uuid.uuid4())


def test_a_rematch_whose_process_died_before_making_the_new_game_is_made_by_the_time_keeper(tables, clock):
    dying = services_on(tables)
    finished, (ann, bob) = finished_players_game(dying)
    dying.games.execute(answer(finished, 1, bob))
    completed = dying.games.execute(answer(finished, 0, ann))  # appended: the process dies before the creation
    new = uuid.UUID(completed.state.rematch.game_id)
    with pytest.raises(GameNotFound):
        dying.games.load(new)
    assert tables.deadlines[finished].due_at == T0 + REMATCH_LOOK

    restarted = services_on(tables)
    assert restarted.keeper.tick() == 0  # not yet: the answer's own request would make it meanwhile
    clock.now = T0 + REMATCH_LOOK + timedelta(milliseconds=1)
    assert restarted.keeper.tick() == 1

    made = restarted.games.load(new)
    assert made.names == ("Ann", "Bob") and made.player_ids == (str(ann), str(bob)) and made.dealer == 1
    assert finished not in tables.deadlines and restarted.keeper.tick() == 0
    assert types(tables, finished).count("RematchAnswered") == 2 and "TimedOut" not in types(tables, finished)


def test_a_rematch_made_by_its_answer_is_looked_at_once_and_made_once(tables, clock):
    services = services_on(tables)
    finished, (ann, bob) = finished_players_game(services)
    rematches.answer(services.games, answer(finished, 1, bob))
    completed = rematches.answer(services.games, answer(finished, 0, ann))
    new = uuid.UUID(completed.state.rematch.game_id)
    events = len(tables.events[new])

    clock.now = T0 + REMATCH_LOOK + timedelta(milliseconds=1)
    assert services.keeper.tick() == 1

    assert len(tables.events[new]) == events and len(tables.events) == 2  # nothing more made
    assert finished not in tables.deadlines


class Counted:
    """Deadline claims that count the time keeper's questions."""

    def __init__(self, claims):
        self._claims = claims
        self.asked = self.claimed = 0

    def next_due(self, now):
        self.asked += 1
        return self._claims.next_due(now)

    def claim(self, now, limit, lease):
        self.claimed += 1
        return self._claims.claim(now, limit, lease)

    def due_at(self, game_id):
        return self._claims.due_at(game_id)

    def forget(self, game_id, due_at):
        self._claims.forget(game_id, due_at)


def counted_services(tables: Tables) -> tuple[Services, Counted]:
    adapters = wiring.adapters({}, None, tables)
    counted = Counted(adapters.deadlines)
    return bootstrap(dataclasses.replace(adapters, deadlines=counted), Settings(None, None)), counted


def test_a_look_claims_only_once_a_deadline_is_due_and_says_when_the_next_falls(tables, clock):
    services, counted = counted_services(tables)
    game_id = create(services, ClockRule(per_move_seconds=30)).game_id
    assert services.keeper.look() == (False, T0 + timedelta(seconds=30)) and counted.claimed == 0
    clock.now = T0 + timedelta(seconds=31)
    assert services.keeper.look() == (True, None) and counted.claimed == 1
    assert types(tables, game_id).count("TimedOut") == 1
    assert services.keeper.look() == (False, None) and counted.claimed == 1  # no deadline left: nothing claimed


def test_a_look_claims_a_computers_turn_only_when_one_is_awaited(tables, clock):
    adapters = wiring.adapters({}, None, tables)
    turns = Counted(adapters.computer_turns)
    services = bootstrap(dataclasses.replace(adapters, computer_turns=turns), Settings(None, None))
    assert services.keeper.look() == (False, None) and turns.claimed == 0
    game_id = services.games.create(CreateGame(variant="cassino", seats=("Ann", "Cpu"), options={}, first_dealer=0,
                                               computers=(1,))).game_id
    services.games.execute(Deal(game_id=game_id, caller=seat(0)))
    assert services.keeper.look() == (True, None) and turns.claimed == 1  # the computer played
    assert services.keeper.look() == (False, None) and turns.claimed == 1  # Ann's turn now: none claimed


def test_a_look_leaves_a_due_deadline_another_claimer_holds_to_the_next_idle_look(tables, clock):
    services, counted = counted_services(tables)
    create(services, ClockRule(per_move_seconds=2))
    clock.now = T0 + timedelta(seconds=3)
    services_on(tables).adapters.deadlines.claim(clock.now, 10, LEASE)  # another worker's claim
    assert services.keeper.look() == (False, None) and counted.claimed == 0


@contextmanager
def running_keeper(monkeypatch, idle: float) -> Iterator[tuple[Tables, Services, Counted]]:
    """A process's services on the real clock, its keeper running, looking
    at least every ``idle`` seconds, once its first look is done; closed after."""
    monkeypatch.setattr(timeouts, "IDLE_SECONDS", idle)
    tables = Tables()
    services, counted = counted_services(tables)
    services.keeper.start()
    try:
        wait_for(lambda: counted.asked >= 1, "the keeper's first look")
        yield tables, services, counted
    finally:
        services.close()


def wait_for(condition, what: str, seconds: float = 5.0) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, f"{what} did not come within {seconds} s"
        time.sleep(0.02)


def test_a_deadline_this_process_writes_is_acted_on_when_it_falls_not_at_the_next_idle_look(monkeypatch):
    with running_keeper(monkeypatch, idle=60.0) as (tables, services, counted):
        game_id = create(services, ClockRule(per_move_seconds=1)).game_id
        began = time.monotonic()
        wait_for(lambda: "TimedOut" in types(tables, game_id), "the time-out")
        assert 0.9 < time.monotonic() - began < 4.0  # at its second, not at the next idle look a minute on
        assert counted.claimed == 1


def test_a_deadline_another_process_writes_is_seen_at_the_next_idle_look_and_acted_on_when_it_falls(monkeypatch):
    with running_keeper(monkeypatch, idle=0.3) as (tables, _, counted):
        other = services_on(tables)  # a process whose keeper does not run (it died, say)
        game_id = create(other, ClockRule(per_move_seconds=1)).game_id
        wait_for(lambda: "TimedOut" in types(tables, game_id), "the time-out")
        assert counted.claimed == 1


def test_a_keeper_with_nothing_due_looks_once_a_idle_period_whatever_its_threads(monkeypatch):
    with running_keeper(monkeypatch, idle=0.25) as (_, _, counted):
        began = counted.asked
        time.sleep(1.0)
        assert 1 <= counted.asked - began <= 5  # four looks in a second (fewer on a busy machine), not one per thread
        assert counted.claimed == 0


def test_a_look_planned_sooner_is_kept_and_one_planned_later_does_not_put_it_off(monkeypatch):
    monkeypatch.setattr(timeouts, "IDLE_SECONDS", 60.0)
    looks = timeouts.Looks()
    assert looks.wait()  # the first at once
    looks.plan(0.1)
    looks.plan(30.0)
    began = time.monotonic()
    assert looks.wait()
    assert 0.05 < time.monotonic() - began < 1.0
    stopper = threading.Timer(0.1, looks.stop)
    stopper.start()
    assert not looks.wait()  # the next would be a minute away: stopped meanwhile

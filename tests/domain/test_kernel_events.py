"""The kernel's events and handlers: one set for every game, stored under
declared, scoped names, so that a class is renamed freely and games stored
under the old names of each game replay as they did."""

from __future__ import annotations

import dataclasses
import json
import typing
from pathlib import Path
from typing import Any, NamedTuple

import pytest

from domain import cassino, kernel_events, kernel_rules, masscool
from domain.clocks import ClockRule
from domain.codec import EventCodec, Upcasters
from domain.errors import NotationError, RuleViolation
from domain.game_types import GAME_TYPES, game_of_event, is_kernel_event, public_type, read_event
from domain.kernel_events import (ClockSet, GameAborted, PlayUndone, RatedSet, RematchAnswered, SeatJoined, SeatLeft,
                                  SeatResigned, TimedOut, UndoAnswered, UndoRequested)
from domain.rematch import Rematch
from tests.domain.test_seating import SEED, create, then

GOLDEN = Path(__file__).parent / "golden"
SAMPLES: dict[str, list[dict[str, Any]]] = json.loads((GOLDEN / "stored_samples.json").read_text())
GAMES: dict[str, list[dict[str, Any]]] = json.loads((GOLDEN / "stored_games.json").read_text())


def _stored_games(game_type: str) -> list[list[dict[str, Any]]]:
    """The golden games of a type, and one played now (its kernel events under the kernel's names)."""
    game = GAME_TYPES[game_type]
    commands = [game.join_command(None, "Bob", "p2"), game.leave_command(1), game.join_command(1, "Cy", None),
                game.abort_command(0)]
    events = game.decide(None, game.create_command(
        next(iter(game.VARIANTS)), ("Ann", None), 0, None, SEED, ClockRule(per_move_seconds=60)))
    for command in commands:
        events += game.decide(game.fold(events), command)
    played = [game.to_json(e) for e in events]
    assert {"kernel.SeatJoined", "kernel.SeatLeft", "kernel.GameAborted", "kernel.ClockSet"} <= {
        e["type"] for e in played}
    return [g["events"] for g in GAMES[game_type]] + [played]


def _renamed(cls: type, name: str) -> type:
    """A copy of the event class ``cls`` under another class name, the same fields and version."""
    hints = typing.get_type_hints(cls)
    fields = [(f.name, hints[f.name]) if f.default is dataclasses.MISSING
              else (f.name, hints[f.name], dataclasses.field(default=f.default)) for f in dataclasses.fields(cls)]
    copy = dataclasses.make_dataclass(name, fields, bases=(kernel_events.Event,), frozen=True, slots=True)
    copy.schema_version = cls.schema_version
    return copy


@pytest.mark.parametrize("game_type", sorted(GAME_TYPES))
def test_an_event_class_renamed_reads_the_stored_games_of_old_and_new_names_alike(game_type):
    """Each event class, the kernel's and the game's own, given another class
    name (its stored name stays as it is registered): every stored game,
    whether its events are under a game's old names or the kernel's names,
    reads and folds as before, and writes back under the same names."""
    game = GAME_TYPES[game_type]
    renames = {cls: _renamed(cls, f"Renamed{cls.__name__}") for cls in game.CODEC.types.values()}
    codec = EventCodec({name: renames[cls] for name, cls in game.CODEC.types.items()}, upcasters=game.CODEC.upcasters)
    codec._fields = {renames[cls]: fields for cls, fields in game.CODEC._fields.items()}  # the same field codecs

    def as_before(event: Any) -> Any:
        original = next(cls for cls, copy in renames.items() if copy is type(event))
        return original(**{f.name: getattr(event, f.name) for f in dataclasses.fields(event)})

    for stored_game in _stored_games(game_type):
        read = [codec.from_json(e) for e in stored_game]
        assert all(type(e).__name__.startswith("Renamed") for e in read)
        assert [as_before(e) for e in read] == [game.from_json(e) for e in stored_game]
        assert game.fold(as_before(e) for e in read) == game.fold(game.from_json(e) for e in stored_game)
        assert [codec.to_json(e) for e in read] == [game.to_json(game.from_json(e)) for e in stored_game]


def test_a_stored_name_is_declared_never_read_off_the_class():
    """Renaming a registered class in place changes nothing stored."""
    stored = cassino.to_json(SeatJoined(1, "Bob"))
    SeatJoined.__name__ = SeatJoined.__qualname__ = "SomeoneSat"
    try:
        assert cassino.to_json(SeatJoined(1, "Bob")) == stored
        assert masscool.from_json(stored) == cassino.from_json(stored) == SeatJoined(1, "Bob")
    finally:
        SeatJoined.__name__ = SeatJoined.__qualname__ = "SeatJoined"
    assert stored["type"] == "kernel.SeatJoined"


@pytest.mark.parametrize("old, game", [("SeatJoined", cassino), ("PlayerSeated", masscool)])
def test_a_games_old_name_of_a_kernel_event_reads_as_the_kernels(old, game):
    stored = {"type": old, "schema_version": 1, "data": {"seat": 1, "name": "Bob", "player": None}}
    assert game.from_json(stored) == read_event(stored) == SeatJoined(1, "Bob")
    assert game.to_json(game.from_json(stored))["type"] == "kernel.SeatJoined"
    assert is_kernel_event(old) and public_type(old) == public_type("kernel.SeatJoined") == "SeatJoined"


def test_an_old_take_back_is_renamed_then_upcast():
    """A Mass Cool Casino take-back of version 1, under its old name, is the
    kernel's ``PlayUndone`` of version 2 that left the clock as it stood."""
    stored = {"type": "BetTakenBack", "schema_version": 1, "data": {"seat": 0, "forced": False}}
    assert masscool.from_json(stored) == PlayUndone(0, False, restores_clock=False)


def test_the_games_own_events_name_their_game_and_the_kernels_none():
    for name, game in GAME_TYPES.items():
        assert all(game_of_event(t) is game and not is_kernel_event(t) for t in game.EVENT_TYPES), name
        assert not set(game.EVENT_TYPES) & set(kernel_events.EVENT_TYPES)
    for kind in kernel_events.EVENT_TYPES:
        assert kind.startswith("kernel.") and is_kernel_event(kind)
        with pytest.raises(KeyError):
            game_of_event(kind)
    with pytest.raises(KeyError):
        read_event({"type": "ChipsStacked", "schema_version": 1, "data": {}})
    assert public_type("ChipsStacked") == "ChipsStacked"


def test_a_registry_refuses_what_would_make_a_stored_name_ambiguous():
    with pytest.raises(ValueError, match="two stored names"):
        EventCodec({"A": SeatLeft, "B": SeatLeft})
    with pytest.raises(ValueError, match="kernel's names"):
        kernel_events.codec({"kernel.SeatLeft": SeatResigned}, {}, Upcasters())
    with pytest.raises(ValueError, match="kernel's names"):
        kernel_events.codec({"Left": SeatLeft}, {}, Upcasters())
    circle = Upcasters()
    circle.rename("A", "B")
    circle.rename("B", "A")
    with pytest.raises(ValueError, match="circle"):
        circle.current_name("A")
    with pytest.raises(NotationError, match="Unknown event type"):
        kernel_events.CODEC.from_json({"type": "PlayerSeated", "schema_version": 1, "data": {}})


# -- the kernel's handlers, once for every game --------------------------------------

@pytest.mark.parametrize("name", sorted(GAME_TYPES))
def test_every_game_decides_the_kernels_commands_into_the_kernels_events(name):
    game = GAME_TYPES[name]
    clock = ClockRule(per_move_seconds=60)
    created = game.decide(None, game.create_command(next(iter(game.VARIANTS)), ("Ann", None), 0, None, SEED, clock))
    assert ClockSet(clock) in created
    state = game.fold(created)
    joined = game.decide(state, game.join_command(None, "Bob", "p2"))
    assert joined == [SeatJoined(1, "Bob", "p2")]
    state = game.fold(joined, state)
    assert game.seat_holders(state)[1].player == "p2"
    assert game.decide(state, game.leave_command(1)) == [SeatLeft(1)]
    assert game.decide(state, game.resign_command(1))[0] == SeatResigned(1)
    aborted = game.decide(state, game.abort_command(0))
    assert aborted[0] == GameAborted(0) and game.outcome(game.fold(aborted, state)).result == "aborted"
    assert type(game.decide(None, game.create_command(
        next(iter(game.VARIANTS)), ("Ann", "Bob"), 0, None, SEED, rated=False))[0]) in game.EVENT_TYPES.values()


class _Table(NamedTuple):
    """The least state the kernel's fold needs, no game's."""

    version: int = 1
    names: tuple[str | None, ...] = ("Ann", None)
    player_ids: tuple[str | None, ...] = (None, None)
    clock: Any = None
    stood_in: int | None = None
    rated: bool = False
    rating_changes: tuple[Any, ...] = ()
    rematch: Rematch | None = None
    undo_request: int | None = None
    undo_accepted: tuple[int, ...] = ()
    before: Any = None

    @property
    def players(self) -> int:
        return len(self.names)


def test_the_kernels_fold_of_each_event_with_a_games_hooks():
    def holder(s: _Table, seat: int, name: str | None, player: str | None) -> dict[str, Any]:
        return {"names": s.names[:seat] + (name,) + s.names[seat + 1:],
                "player_ids": s.player_ids[:seat] + (player,) + s.player_ids[seat + 1:]}

    apply = kernel_rules.fold_handlers(lambda s, **f: s._replace(**f), holder, lambda s: s.before)
    assert set(apply) == set(kernel_events.EVENT_TYPES.values())
    state = _Table()
    for event in (SeatJoined(1, "Bob", "p2"), ClockSet(ClockRule(per_move_seconds=9)), RatedSet(),
                  TimedOut(1, computer=True), UndoRequested(0), UndoAnswered(1, True), RematchAnswered(1, None)):
        state = apply[type(event)](state, event)
    assert state.version == 8 and state.names == ("Ann", "Bob") and state.player_ids == (None, "p2")
    assert state.clock.rule.per_move_seconds == 9 and state.rated and state.stood_in == 1
    assert (state.undo_request, state.undo_accepted) == (0, (1,)) and state.rematch == Rematch(1, (1,), None)
    refused = apply[UndoAnswered](state, UndoAnswered(1, False))
    assert (refused.undo_request, refused.undo_accepted) == (None, ())
    left = apply[SeatLeft](state, SeatLeft(1))
    assert left.names == ("Ann", None) and left.player_ids == (None, None)
    back = apply[PlayUndone](state._replace(before=_Table(version=3)), PlayUndone(0))
    assert back.version == 9 and back.names == ("Ann", None)  # the state before, counted on


def test_each_games_fold_takes_the_kernels_handlers():
    """The same events fold the same way in both games: a seat taken and
    left, a clock, a time-out the computer moved for."""
    for game in GAME_TYPES.values():
        state = create(game, ("Ann", None))
        state = then(game, state, game.join_command(None, "Bob", "p2"))
        assert [h and h.name for h in game.seat_holders(state)] == ["Ann", "Bob"]
        state = game.evolve(state, SeatLeft(1))
        assert game.seat_holders(state)[1] is None


def _moved(game: Any, undo: str) -> tuple[Any, Any, int]:
    """A game of two dealt under the ``undo`` option, before and after the first seat's first move, and that seat."""
    events = game.decide(None, game.create_command(next(iter(game.VARIANTS)), ("Ann", "Bob"), 0, {"undo": undo}, SEED))
    state = game.fold(events)
    state = game.fold(game.decide(state, game.deal_command(0, None, SEED)), state)
    seat = game.awaiting(state).seats[0]
    move = game.legal_moves(state, seat).first().moves[0]
    return state, game.fold(game.decide(state, game.command_for(seat, move, SEED)), state), seat


@pytest.mark.parametrize("name", sorted(GAME_TYPES))
def test_every_game_takes_a_move_back_by_the_kernels_handlers(name):
    """Asked and accepted, asked and refused, forced by the operator, or
    refused by the game's ``undo`` option: the kernel's events in every game."""
    game = GAME_TYPES[name]
    before, after, seat = _moved(game, "consent")
    other = 1 - seat
    assert game.decide(after, game.undo_command(seat)) == [UndoRequested(seat)]
    asked = game.fold([UndoRequested(seat)], after)
    assert game.decide(asked, game.answer_undo_command(other, False)) == [UndoAnswered(other, False)]
    done = game.decide(asked, game.answer_undo_command(other, True))
    assert done == [UndoAnswered(other, True), PlayUndone(seat)]
    back = game.fold(done, asked)
    assert back.version == asked.version + 2 and game.awaiting(back) == game.awaiting(before)
    assert game.game_view(back, seat)["hand"] == game.game_view(before, seat)["hand"]
    assert game.decide(after, game.undo_command(None)) == [PlayUndone(seat, forced=True)]
    with _refused("undo_not_allowed"):
        game.decide(_moved(game, "off")[1], game.undo_command(seat))
    with _refused("nothing_to_undo"):
        game.decide(before, game.undo_command(seat))


def _refused(rule: str) -> Any:
    return pytest.raises(RuleViolation, check=lambda caught: caught.rule == rule)

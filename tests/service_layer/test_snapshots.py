"""Snapshots go through a codec of their own: every state of every stored
game reads back equal, nothing but a state is ever built from the bytes,
and what tags a snapshot changes with the states' shape only."""

from __future__ import annotations

import pickle
import uuid
from datetime import UTC, datetime, timedelta
from typing import NamedTuple

import pytest

from domain.cards import Card
from domain.clocks import Clock, ClockRule
from domain.game_types import GAME_TYPES
from domain.rating import INITIAL, Rating, RatingChange
from service import games as games_module
from service import jsonio, snapshots, state_codec
from service.auth import seat
from service.cache import StateCache
from service.commands import CreateGame, SetClientSeed
from service.events import refold
from service.writes import Snapshot
from service.games import GameService
from service.memory.store import MemoryEventStore
from tests.domain.test_stored_payloads import GAMES

KEY = snapshots.snapshot_key_from("an operator token")
GAME = uuid.UUID(int=7)


def every_state(game_type: str):
    """Each version of each stored game of ``game_type``."""
    game = GAME_TYPES[game_type]
    for recorded in GAMES[game_type]:
        state = None
        for stored in recorded["events"]:
            state = game.fold([game.from_json(stored)], state)
            yield state


def round_trip(state):
    return snapshots.unseal(KEY, GAME, snapshots.seal(KEY, GAME, state, snapshots.code_version()))


@pytest.mark.parametrize("game_type", sorted(GAMES))
def test_every_state_of_every_stored_game_reads_back_equal(game_type):
    states = list(every_state(game_type))
    assert any(getattr(s, "before_play", None) or getattr(s, "before_move", None) for s in states)
    for state in states:
        again = round_trip(state)
        assert again == state
        assert type(again.status) is type(state.status)  # an enum again, not its string


def test_a_state_with_a_running_clock_reads_back_equal():
    state = next(every_state("cassino"))
    since = datetime(2026, 11, 28, 3, 4, 5, 678901, tzinfo=UTC)
    clock = Clock(ClockRule(initial_seconds=300, increment_seconds=5), (timedelta(seconds=12.5), timedelta(0)), 0,
                  since)
    assert round_trip(state._replace(clock=clock)).clock == clock


@pytest.mark.parametrize("game_type", sorted(GAMES))
def test_a_rated_state_with_its_rating_changes_reads_back_equal(game_type):
    state = list(every_state(game_type))[-1]
    changes = (RatingChange(0, str(uuid.UUID(int=1)), INITIAL, Rating(1612.25, 480.5, 1)),)
    rated = state._replace(rated=True, rating_changes=changes)
    assert round_trip(rated) == rated


def test_a_snapshot_altered_copied_or_relabelled_is_not_read():
    state = list(every_state("cassino"))[-1]
    sealed = snapshots.seal(KEY, GAME, state, snapshots.code_version())
    altered = sealed.state.replace(b'"10H"', b'"JH"', 1)
    assert altered != sealed.state
    assert snapshots.unseal(KEY, GAME, Snapshot(sealed.version, sealed.code_version, altered)) is None
    assert snapshots.unseal(KEY, uuid.uuid4(), sealed) is None
    assert snapshots.unseal(KEY, GAME, Snapshot(sealed.version - 1, sealed.code_version, sealed.state)) is None
    assert snapshots.unseal(snapshots.snapshot_key_from("another token"), GAME, sealed) is None


def signed(body: bytes, version: int = 3) -> Snapshot:
    """A snapshot of ``body`` signed with the service's key, as if it had written it."""
    code = snapshots.code_version()
    return Snapshot(version, code, snapshots._mac(KEY, GAME, version, code, body) + body)


def test_bytes_that_are_no_state_give_none_even_signed():
    state = next(every_state("mass-cool-casino"))
    assert snapshots.unseal(KEY, GAME, signed(pickle.dumps(state))) is None  # a snapshot of the old format
    assert snapshots.unseal(KEY, GAME, signed(jsonio.dumps(["os", ["rm -rf /"]]))) is None
    assert snapshots.unseal(KEY, GAME, signed(jsonio.dumps(["cassino", [1, 2]]))) is None
    values = state_codec.encode(state)
    assert snapshots.unseal(KEY, GAME, signed(jsonio.dumps(["cassino", values]), state.version)) is None
    assert snapshots.unseal(KEY, GAME, signed(jsonio.dumps(["mass-cool-casino", values]), state.version)) == state


class Shaped(NamedTuple):
    cards: tuple[Card, ...]
    turn: int | None = None


class SameShape(NamedTuple):
    """Another release of ``Shaped``: new methods and words, the same fields."""

    cards: tuple[Card, ...]
    turn: int | None = 0

    @property
    def size(self) -> int:
        return len(self.cards)


SameShape.__qualname__ = "Shaped"


class Renamed(NamedTuple):
    cards: tuple[Card, ...]
    seat: int | None = None


class Retyped(NamedTuple):
    cards: tuple[Card, ...]
    turn: int = 0


def test_the_tag_follows_the_shape_of_the_state_not_its_code():
    assert state_codec.fingerprint(SameShape) == state_codec.fingerprint(Shaped)
    assert state_codec.fingerprint(Renamed) != state_codec.fingerprint(Shaped)
    assert state_codec.fingerprint(Retyped) != state_codec.fingerprint(Shaped)
    assert snapshots.code_version() == f"{snapshots.FORMAT}." + state_codec.fingerprint(
        *(game.STATE for game in GAME_TYPES.values()))


def test_a_type_the_codec_cannot_write_is_named_when_it_is_built():
    class Loose(NamedTuple):
        data: dict[str, int]

    with pytest.raises(TypeError, match="dict"):
        state_codec.shape(Loose)


def test_a_cold_service_starts_from_the_snapshot_and_ignores_an_old_format(monkeypatch):
    monkeypatch.setattr(games_module, "SNAPSHOT_EVERY", 3)
    store = MemoryEventStore()
    service = GameService(store, StateCache(), snapshot_key=KEY)
    game_id = service.create(CreateGame(variant="cassino", seats=("Ann", "Bob"), options={}, first_dealer=1,
                                        request_id="r")).game_id
    for n in range(4):
        service.execute(SetClientSeed(game_id=game_id, caller=seat(n % 2), seed=f"seed {n}", request_id="r"))
    snapshot = store.load_snapshot(game_id, snapshots.code_version())
    assert snapshot is not None and snapshot.version >= 3
    read_from = []
    load_head = store.load_head
    monkeypatch.setattr(store, "load_head", lambda game, after: read_from.append(after) or load_head(game, after))
    assert GameService(store, StateCache(), snapshot_key=KEY).load(game_id) == refold(store.load(game_id))
    assert read_from == [snapshot.version - 1]

    # A snapshot of the pickle era, signed as it was then, tagged with a digest of the domain's source:
    old = refold(store.load(game_id))
    body = pickle.dumps(old)
    store.tables.snapshots[game_id] = Snapshot(old.version, "0123456789abcdef",
                                               snapshots._mac(KEY, game_id, old.version, "0123456789abcdef", body)
                                               + body)
    read_from.clear()
    assert GameService(store, StateCache(), snapshot_key=KEY).load(game_id) == old
    assert read_from == [0]  # folded from the first event

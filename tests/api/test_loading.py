"""Loading a game: the cache and snapshots are only ever caches."""

import random
import uuid

import psycopg
import pytest

from dataclasses import dataclass
from typing import Any

from domain.cassino import Deal, Play, fold, from_json, legal_moves
from service import games as games_module
from service import snapshots
from service.auth import OPERATOR, seat
from service.cache import StateCache
from service.commands import GameCommand
from service.writes import Snapshot
from service.games import GameService
from service.snapshots import code_version
from service.postgres.store import PostgresEventStore
from service.web.current import services
from tests.conftest import OPERATOR_TOKEN

from .conftest import ORDERED_DECK


def step(api, game, rng):
    """One command: the next deal, or a legal move of the seat to play."""
    view = api.view(game)
    if view["status"] != "in_progress":
        answer = api.post(f"{game.url}/deal", json={}, token=game.tokens[view["next_dealer"]])
    else:
        token = game.tokens[view["turn"]]
        moves = api.get(f"{game.url}/moves", token=token).get_json()["moves"]
        answer = api.post(f"{game.url}/play", json=rng.choice(moves), token=token)
    assert answer.status_code == 200


@pytest.fixture
def played(api):
    """A game some fifty events long that never ends."""
    game = api.create(first_dealer=1, options={"target": 1000, "count_out": False})
    api.deal(game, ORDERED_DECK)
    rng = random.Random(3)
    for _ in range(48):
        step(api, game, rng)
    return game


def refold(store, game_id):
    return fold(from_json({"type": e.type, "schema_version": e.schema_version, "data": e.data})
                for e in store.load(game_id))


KEY = snapshots.snapshot_key_from(OPERATOR_TOKEN)


def cold_service(store) -> GameService:
    """Another worker, or this one after a restart: no cache, the same key."""
    return GameService(store, StateCache(), snapshot_key=KEY)


def put_snapshot(database_url, game_id, version: int, code: str, state: bytes) -> None:
    """Write a game's snapshot behind the service's back."""
    with psycopg.connect(database_url, autocommit=True) as conn:
        conn.execute("INSERT INTO snapshots (game_id, version, code_version, state) VALUES (%s, %s, %s, %s)"
                     " ON CONFLICT (game_id) DO UPDATE SET version = EXCLUDED.version,"
                     " code_version = EXCLUDED.code_version, state = EXCLUDED.state",
                     (game_id, version, code, state))


def test_a_cold_service_loads_the_same_state_as_a_refold(store, played):
    game_id = uuid.UUID(played.id)
    assert cold_service(store).load(game_id) == refold(store, game_id)


def test_snapshots_are_written_as_the_game_grows_and_used_by_a_cold_service(api, store, monkeypatch, played):
    monkeypatch.setattr(games_module, "SNAPSHOT_EVERY", 5)
    game_id = uuid.UUID(played.id)
    before = api.view(played)["version"]
    rng = random.Random(4)
    for _ in range(6):
        step(api, played, rng)
    snapshot = store.load_snapshot(game_id, code_version())
    assert snapshot is not None and snapshot.version > before
    assert snapshots.unseal(KEY, game_id, snapshot) == fold(
        from_json({"type": e.type, "schema_version": e.schema_version, "data": e.data})
        for e in store.load(game_id) if e.version <= snapshot.version)
    reads = []
    service = cold_service(store)
    monkeypatch.setattr(store, "load_head",
                        lambda *args: reads.append(args) or PostgresEventStore.load_head(store, *args))
    assert service.load(game_id) == refold(store, game_id)
    assert reads[0] == (game_id, snapshot.version - 1)  # from the snapshot on, not from the start


def test_a_snapshot_written_by_other_code_is_ignored(database_url, store, played):
    game_id = uuid.UUID(played.id)
    true_state = refold(store, game_id)
    bogus = snapshots.seal(KEY, game_id, true_state._replace(scores=(99, 99)), "older-code")
    put_snapshot(database_url, game_id, bogus.version, bogus.code_version, bogus.state)
    assert cold_service(store).load(game_id) == true_state


def test_a_snapshot_the_service_did_not_sign_is_ignored(database_url, store, played):
    game_id = uuid.UUID(played.id)
    true_state = refold(store, game_id)
    honest = snapshots.seal(KEY, game_id, true_state, code_version()).state
    altered = snapshots.seal(KEY, game_id, true_state._replace(scores=(99, 99)), code_version()).state
    forged = honest[:snapshots.MAC_BYTES] + altered[snapshots.MAC_BYTES:]  # the honest MAC on another state
    put_snapshot(database_url, game_id, true_state.version, code_version(), forged)
    assert cold_service(store).load(game_id) == true_state


def test_a_snapshot_signed_for_another_game_or_version_is_ignored(database_url, store, played):
    game_id = uuid.UUID(played.id)
    true_state = refold(store, game_id)
    bogus = true_state._replace(scores=(99, 99))
    theirs = snapshots.seal(KEY, uuid.uuid4(), bogus, code_version())  # another game's, copied over
    put_snapshot(database_url, game_id, theirs.version, theirs.code_version, theirs.state)
    assert cold_service(store).load(game_id) == true_state
    ours = snapshots.seal(KEY, game_id, bogus, code_version())  # this game's, under another version
    put_snapshot(database_url, game_id, ours.version - 1, ours.code_version, ours.state)
    assert cold_service(store).load(game_id) == true_state


@dataclass(frozen=True, kw_only=True)
class Given(GameCommand):
    """A command of the game's own, made already."""

    command: Any

    def rules(self, game):
        return self.command


def test_without_a_key_no_snapshot_is_written_or_read(store, monkeypatch, played):
    monkeypatch.setattr(games_module, "SNAPSHOT_EVERY", 1)
    game_id = uuid.UUID(played.id)
    written = []
    monkeypatch.setattr(store, "append",
                        lambda append: written.append([w for w in append.writes if isinstance(w, Snapshot)])
                        or PostgresEventStore.append(store, append))
    monkeypatch.setattr(store, "load_snapshot", lambda *a: pytest.fail("a service without a key read a snapshot"))
    service = GameService(store, StateCache())
    for _ in range(4):
        state = service.load(game_id)
        if state.status == "in_progress":
            move = legal_moves(state, state.turn).first(limit=1).moves[0]
            command = Play(state.turn, move, bytes(32))
        else:
            command = Deal(None)
        service.execute(Given(game_id=game_id, caller=OPERATOR if isinstance(command, Deal) else seat(state.turn),
                              command=command))
    assert written == [[]] * 4
    assert service.load(game_id) == refold(store, game_id)


# -- a command trusts the cache, and reads only when it turns out behind ------

@pytest.fixture
def other_worker(database_url):
    """A second app on the same database, with a cache of its own: another
    gunicorn worker, as far as the first app can tell."""
    from service.web.app import close_app, create_app
    from tests.conftest import TEST_SETTINGS

    from .conftest import Api

    app = create_app({**TEST_SETTINGS, "DATABASE_URL": database_url})
    yield Api(app, app.test_client())
    close_app(app)


def reads_of(api, monkeypatch) -> list:
    """Every read of a game's events by the app's service from now on."""
    store = services(api.app).adapters.store
    reads: list = []

    def counting(name):
        read = getattr(store, name)
        return lambda *args, **kwargs: reads.append(args) or read(*args, **kwargs)

    for name in ("load", "load_head"):
        monkeypatch.setattr(store, name, counting(name))
    return reads


def next_move(worker, game, rng):
    """The token and a legal move of the seat to play, as ``worker`` sees the game."""
    token = game.tokens[worker.view(game)["turn"]]
    return token, rng.choice(worker.get(f"{game.url}/moves", token=token).get_json()["moves"])


def play_next(worker, game, rng):
    """Send the next legal move of the seat to play through ``worker``."""
    token, move = next_move(worker, game, rng)
    return worker.post(f"{game.url}/play", json=move, token=token)


def test_a_command_on_a_current_cache_reads_no_events(api, monkeypatch):
    game = api.create(first_dealer=1)
    api.deal(game, ORDERED_DECK)
    rng = random.Random(5)
    reads = reads_of(api, monkeypatch)
    for _ in range(4):
        token, move = next_move(api, game, rng)
        reads.clear()  # the view and /moves read; the command itself must not
        assert api.post(f"{game.url}/play", json=move, token=token).status_code == 200
        assert reads == []


def behind(api, other_worker, plays: int):
    """A game whose version the first worker has cached, ``plays`` commands
    behind the database: the other worker made them."""
    game = api.create(first_dealer=1)
    api.deal(game, ORDERED_DECK)
    rng = random.Random(plays)
    assert play_next(api, game, rng).status_code == 200  # the first worker caches the game
    for _ in range(plays):
        assert play_next(other_worker, game, rng).status_code == 200
    return game, rng


@pytest.mark.parametrize("plays", [1, 2, 3])
def test_a_worker_whose_cache_is_behind_plays_on_the_game_as_it_is(api, other_worker, monkeypatch, plays):
    """Behind by an odd number of plays, the cached game has the other seat
    to play (the rules refuse the move); by an even number, the move may
    pass on the cached game and its append loses. Either way the worker
    reads the events it missed, once, and the move lands."""
    game, rng = behind(api, other_worker, plays)
    now = other_worker.view(game)["version"]
    token, move = next_move(other_worker, game, rng)
    reads = reads_of(api, monkeypatch)
    answer = api.post(f"{game.url}/play", json=move, token=token)
    assert answer.status_code == 200, answer.get_json()
    assert answer.get_json()["version"] == now + 1
    assert len(reads) == 1
    assert [e["version"] for e in api.events(game)] == list(range(1, now + 2))


def test_if_match_is_checked_against_the_game_not_a_cache_behind_it(api, other_worker):
    game, rng = behind(api, other_worker, 2)
    now = other_worker.view(game)["version"]
    token, move = next_move(other_worker, game, rng)
    stale = api.post(f"{game.url}/play", json=move, token=token, headers={"If-Match": f'"{now - 2}"'})
    assert stale.status_code == 412 and stale.get_json()["code"] == "precondition_failed"
    current = api.post(f"{game.url}/play", json=move, token=token, headers={"If-Match": f'"{now}"'})
    assert current.status_code == 200 and current.get_json()["version"] == now + 1

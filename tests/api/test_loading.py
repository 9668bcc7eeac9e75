"""Loading a game: the cache and snapshots are only ever caches."""

import pickle
import random
import uuid

import psycopg
import pytest

from domain import fold, from_json
from service import games as games_module
from service.cache import StateCache, code_version
from service.games import GameService

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


def cold_service(store) -> GameService:
    return GameService(store, StateCache())


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
    assert pickle.loads(snapshot.state) == fold(
        from_json({"type": e.type, "schema_version": e.schema_version, "data": e.data})
        for e in store.load(game_id) if e.version <= snapshot.version)
    assert cold_service(store).load(game_id) == refold(store, game_id)


def test_a_snapshot_written_by_other_code_is_ignored(database_url, store, played):
    game_id = uuid.UUID(played.id)
    true_state = refold(store, game_id)
    bogus = true_state._replace(scores=(99, 99))
    with psycopg.connect(database_url, autocommit=True) as conn:
        conn.execute("INSERT INTO snapshots (game_id, version, code_version, state) VALUES (%s, %s, %s, %s)"
                     " ON CONFLICT (game_id) DO UPDATE SET version = EXCLUDED.version,"
                     " code_version = EXCLUDED.code_version, state = EXCLUDED.state",
                     (game_id, bogus.version, "older-code", pickle.dumps(bogus)))
    assert cold_service(store).load(game_id) == true_state

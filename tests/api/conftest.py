"""Fixtures for API tests: a client that checks every answer against the spec,
helpers that act as a seat, the public or the operator, and the API tier's
databases.

The API tests that run on PostgreSQL (those marked ``postgres``, and the
PostgreSQL case of those marked ``both_wirings``: creating, playing whole
games, undoing, replaying, listing, streams) run on a Citus cluster, a
coordinator and two workers (``citus_cluster``, tests/conftest.py), where
Citus can be built, every table of a game distributed by the game
(migration 0014); else on the plain PostgreSQL of the rest of the suite.
``CASINO_TEST_API_SERVER=postgres`` asks for the plain one.
``database_url`` is one migrated database of the session's server,
``own_database_url`` one for a module alone, as elsewhere.
"""

from __future__ import annotations

import itertools
import os
import random
import time
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from functools import partial

import pytest
from werkzeug.exceptions import MethodNotAllowed, NotFound

from domain import full_deck
from domain.cassino import legal_moves
from service.web.current import services
import migrations
from service.postgres.database import open_pool
from tests.citus import build
from tests.citus.cluster import Cluster
from tests.conftest import OPERATOR_TOKEN
from tests.service.spec_check import check

#: The API tier's server: "citus" (a Citus cluster where Citus can be built, else plain PostgreSQL) or "postgres".
API_SERVER = os.environ.get("CASINO_TEST_API_SERVER", "citus")
if API_SERVER not in ("citus", "postgres"):
    raise ValueError(f"CASINO_TEST_API_SERVER={API_SERVER!r}: it is citus or postgres")


@contextmanager
def migrated_on_cluster(cluster: Cluster, prefix: str) -> Iterator[str]:
    """A new database of the cluster (on every node, with Citus), migrated on its coordinator, dropped afterwards."""
    name = f"{prefix}_{uuid.uuid4().hex[:8]}"
    try:
        url = cluster.create_database(name)
        migrations.upgrade(url)
        yield url
    finally:
        cluster.drop_database(name)


def citus_available() -> bool:
    """Whether Citus is built, or can be (building it if it is not yet)."""
    try:
        build.programs()
    except build.Unavailable:
        return False
    return True


@pytest.fixture(scope="session")
def api_databases(request):
    """Makes the API tier's migrated databases: on the session's Citus cluster, or plain PostgreSQL's."""
    if API_SERVER == "citus" and citus_available():
        return partial(migrated_on_cluster, request.getfixturevalue("citus_cluster"))
    return request.getfixturevalue("databases")


#: Why a test marked ``not_on_citus`` runs on plain PostgreSQL: what it needs is being built for Citus.
DEADLINES_ON_CITUS = ("time-outs are claimed by one query over every game's deadline (FOR UPDATE), which Citus "
                      "refuses across shards: issue 31's deadlines per shard, under way (branch citus-order)")
COMPUTER_TURNS_ON_CITUS = ("computer seats act when the time keeper claims their turns, by one query over every "
                           "game's turn (FOR UPDATE), which Citus refuses across shards, as it does the deadlines' "
                           "claim: issue 31's deadlines per shard, under way (branch citus-order)")
GLOBAL_ORDER_ON_CITUS = ("the global log's positions come from one node's transaction ids, not ordered across "
                         "workers: issue 31's global order across shards, under way (branch citus-order)")


def on_citus(request) -> bool:
    """Whether the test's databases are the API tier's (a Citus cluster's where
    Citus can be built), not plain PostgreSQL's: all but those marked ``not_on_citus``."""
    return request.node.get_closest_marker("not_on_citus") is None


@pytest.fixture(scope="session")
def api_database_url(api_databases) -> Iterator[str]:
    with api_databases("casino_api") as url:
        yield url


@pytest.fixture(scope="session")
def plain_database_url(databases) -> Iterator[str]:
    with databases("casino_test") as url:
        yield url


@pytest.fixture(scope="module")
def api_own_database_url(api_databases) -> Iterator[str]:
    with api_databases("casino_own") as url:
        yield url


@pytest.fixture(scope="module")
def plain_own_database_url(databases) -> Iterator[str]:
    with databases("casino_own") as url:
        yield url


@pytest.fixture(scope="session")
def api_pool(api_database_url):
    with open_pool(api_database_url, max_size=4) as pool:
        yield pool


@pytest.fixture(scope="session")
def plain_pool(plain_database_url):
    with open_pool(plain_database_url, max_size=4) as pool:
        yield pool


# tests/conftest.py's three, chosen for the test: the API tier's, or plain PostgreSQL's for one marked ``not_on_citus``.

@pytest.fixture
def database_url(request) -> str:
    return request.getfixturevalue("api_database_url" if on_citus(request) else "plain_database_url")


@pytest.fixture
def own_database_url(request) -> str:
    return request.getfixturevalue("api_own_database_url" if on_citus(request) else "plain_own_database_url")


@pytest.fixture
def pool(request):
    return request.getfixturevalue("api_pool" if on_citus(request) else "plain_pool")


#: A fixed deck: new-deck order (AS 2S ... KS AH ... KC), top card first.
ORDERED_DECK = [c.code for c in full_deck()]
#: Options of a game that is over after one hand.
ONE_HAND = {"target": None, "count_out": False}

#: Plays of a game ORDERED_DECK dealt with seat 1 dealing (seat 0: AS 2S 7S 8S; seat 1: 5S 6S JS QS; table
#: 3S 4S 9S 10S), as (seat, move), after which seat 0's side has made sure of the ace of spades (1 point).
ACE_MADE_SURE_OF = [(0, {"card": "AS", "action": "build", "value": 8, "targets": ["3S", "4S"]}),
                    (1, {"card": "5S", "action": "trail"}),
                    (0, {"card": "8S", "action": "capture", "targets": ["B1"]})]


@dataclass
class Game:
    id: str
    tokens: list[str]
    created: dict

    @property
    def url(self) -> str:
        return f"/v1/games/{self.id}"


class Api:
    """The test client, with auth by name and a spec check on every response."""

    def __init__(self, app, client):
        self.app = app
        self.client = client

    def request(self, method: str, path: str, *, token: str | None = None, headers=None, **kwargs):
        headers = dict(headers or {})
        if token is not None:
            headers["Authorization"] = f"Bearer {token}"
        response = self.client.open(path, method=method, headers=headers, **kwargs)
        self._check(method, path, response)
        return response

    def _check(self, method, path, response):
        adapter = self.app.url_map.bind("localhost")
        try:
            rule, _ = adapter.match(path.split("?")[0], method=method, return_rule=True)
        except (NotFound, MethodNotAllowed):
            assert response.status_code in (404, 405)
            assert response.mimetype == "application/problem+json"
            return
        check(method, rule.rule, response.status_code, response.headers, response.get_data())

    def get(self, path, **kw):
        return self.request("GET", path, **kw)

    def post(self, path, **kw):
        return self.request("POST", path, **kw)

    # -- helpers ------------------------------------------------------------

    def create(self, players=2, variant="cassino", options=None, first_dealer=1, first_name="P0") -> Game:
        names = [first_name] + [f"P{i}" for i in range(1, players)]
        body = {"variant": variant, "seats": [{"name": n} for n in names],
                "options": options or {}, "first_dealer": first_dealer}
        response = self.post("/v1/games", json=body)
        assert response.status_code == 201, response.get_json()
        created = response.get_json()
        return Game(created["id"], [s["token"] for s in created["seats"]], created)

    def deal(self, game: Game, deck=None, token=OPERATOR_TOKEN):
        body = {"deck": deck} if deck is not None else {}
        return self.post(f"{game.url}/deal", json=body, token=token)

    def view(self, game: Game, token=None) -> dict:
        response = self.get(game.url, token=token)
        assert response.status_code == 200
        return response.get_json()

    def wait_view(self, game: Game, until: Callable[[dict], bool], token=None, timeout: float = 10.0) -> dict:
        """The game's view once ``until(view)`` holds. The computer seats act
        after the command that calls on them is answered (service.turns): a
        test waits for what they do, asking for the view again until it
        shows it, for ``timeout`` seconds at most."""
        give_up = time.monotonic() + timeout
        while True:
            view = self.view(game, token)
            if until(view):
                return view
            assert time.monotonic() < give_up, f"not so in {timeout} s: {view['status']} at {view['version']}"
            time.sleep(0.01)

    def play(self, game: Game, steps: int | None = None, seed: int = 0) -> None:
        """Deal and play seeded legal moves, ``steps`` commands or until the
        game is over: over HTTP, with the moves picked from the service's own
        state (quicker than asking /moves each turn)."""
        rng = random.Random(seed)
        service = services(self.app).games
        for _ in itertools.count() if steps is None else range(steps):
            state = service.load(uuid.UUID(game.id))
            if state.status == "finished":
                return
            if state.status in ("waiting", "hand_over"):
                answer = self.post(f"{game.url}/deal", json={}, token=game.tokens[state.next_dealer])
            else:
                move = rng.choice(legal_moves(state, state.turn).first().moves)
                answer = self.post(f"{game.url}/play", json=move.to_dict(), token=game.tokens[state.turn])
            assert answer.status_code == 200, answer.get_json()

    def events(self, game: Game, token=OPERATOR_TOKEN) -> list[dict]:
        out, after = [], 0
        while after is not None:
            page = self.get(f"{game.url}/events?after={after}", token=token).get_json()
            out += page["events"]
            after = page["next"]
        return out


def first_actions(api: Api, url: str, tokens: list[str], dealer: int = 0) -> dict:
    """Every seat makes its first action (the dealer its deal, each other
    seat a move), which has a time of its own (docs/rules.md, "Clocks"), so
    that from then on each seat has only its clock's time; the view after."""
    assert api.post(f"{url}/deal", json={}, token=tokens[dealer]).status_code == 200
    acted = {dealer}
    while len(acted) < len(tokens):
        seat = api.get(url).get_json()["clock"]["seat"]
        move = api.get(f"{url}/moves", token=tokens[seat]).get_json()["moves"][0]
        assert api.post(f"{url}/play", json=move, token=tokens[seat]).status_code == 200
        acted.add(seat)
    return api.get(url).get_json()

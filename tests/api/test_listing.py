"""GET /v1/games: the operator's list of games, filtered and paged by cursor.

The test database is shared, so each test lists games by a player name of
its own.
"""

import secrets
from datetime import datetime
from urllib.parse import quote

import pytest

from .conftest import ONE_HAND, ORDERED_DECK


# On both wirings: the HTTP API on PostgreSQL as well as in memory.
pytestmark = pytest.mark.both_wirings


@pytest.fixture
def name() -> str:
    return f"Ann-{secrets.token_hex(4)}"


def create(api, name, **kwargs) -> str:
    return api.create(first_name=name, **kwargs).id


def listing(api, operator, query: str) -> dict:
    response = api.get(f"/v1/games?{query}", token=operator)
    assert response.status_code == 200, response.get_json()
    return response.get_json()


def ids(page: dict) -> list[str]:
    return [g["id"] for g in page["games"]]


def test_games_are_listed_newest_first_with_what_the_read_model_knows(api, operator, name):
    first = create(api, name)
    game = api.create(first_name=name, variant="partnership", players=4)
    second = game.id

    page = listing(api, operator, f"player={name}")

    assert ids(page) == [second, first] and page["next"] is None
    newest = page["games"][0]
    assert newest["url"] == f"/v1/games/{second}"
    assert newest["players"] == [name, "P1", "P2", "P3"] and newest["variant"] == "partnership"
    assert newest["status"] == "waiting" and newest["version"] == game.created["version"]
    assert newest["game_type"] == "cassino"
    assert newest["finished_at"] is None and newest["outcome"] is None


def test_filters_by_status_variant_and_every_player_named(api, operator, name):
    waiting = create(api, name)
    dealt = create(api, name)
    api.post(f"/v1/games/{dealt}/deal", json={"deck": ORDERED_DECK}, token=operator)
    partners = create(api, name, variant="partnership", players=4)

    assert ids(listing(api, operator, f"player={name}&status=in_progress")) == [dealt]
    assert ids(listing(api, operator, f"player={name}&status=in_progress&status=waiting")) == [
        partners, dealt, waiting]
    assert ids(listing(api, operator, f"player={name}&variant=partnership")) == [partners]
    assert ids(listing(api, operator, f"player={name}&player=P3")) == [partners]
    assert ids(listing(api, operator, f"player={name}&player=Nobody")) == []


def test_filters_by_when_games_were_created_and_finished(api, operator, name):
    game = api.create(first_name=name, options=ONE_HAND)
    older, newer = game.id, create(api, name)
    api.play(game, seed=1)
    created = {g["id"]: g["created_at"] for g in listing(api, operator, f"player={name}")["games"]}
    [finished] = listing(api, operator, f"player={name}&status=finished")["games"]
    assert finished["id"] == older and finished["outcome"]["reason"] in ("single_hand", "draw")
    since = quote(created[newer])

    assert ids(listing(api, operator, f"player={name}&created_since={since}")) == [newer]
    assert ids(listing(api, operator, f"player={name}&created_before={since}")) == [older]
    at = quote(finished["finished_at"])
    assert ids(listing(api, operator, f"player={name}&finished_since={at}")) == [older]
    assert ids(listing(api, operator, f"player={name}&finished_before={at}")) == []
    assert datetime.fromisoformat(finished["finished_at"]) >= datetime.fromisoformat(created[older])


def test_pages_follow_the_cursor_and_stay_right_while_games_are_created(api, operator, name):
    made = [create(api, name) for _ in range(5)]

    first = listing(api, operator, f"player={name}&limit=2")
    create(api, name)  # newer than every page: an offset would now shift them all
    second = listing(api, operator, f"player={name}&limit=2&cursor={first['next']}")
    third = listing(api, operator, f"player={name}&limit=2&cursor={second['next']}")

    assert ids(first) + ids(second) + ids(third) == made[::-1]
    assert third["next"] is None


@pytest.mark.parametrize("query,field", [
    ("status=over", "status"),
    ("created_since=2025-11-22T18:00:00", "created_since"),
    ("finished_before=yesterday", "finished_before"),
    ("cursor=not-a-cursor", "cursor"),
    ("player=" + "x" * 41, "player"),
    ("variant=%00", "variant"),
    ("limit=0", "limit"),
])
def test_bad_filters_are_400_naming_the_field(api, operator, query, field):
    response = api.get(f"/v1/games?{query}", token=operator)
    assert response.status_code == 400
    assert response.get_json()["errors"][0]["field"] == field


def test_only_the_operator_may_list_games(api, name):
    game_id = create(api, name)
    assert api.get("/v1/games").status_code == 401
    seat_token = api.post("/v1/games", json={"seats": 2}).get_json()["seats"][0]["token"]
    refused = api.get("/v1/games", token=seat_token)
    assert refused.status_code == 401 and game_id not in refused.get_data(as_text=True)

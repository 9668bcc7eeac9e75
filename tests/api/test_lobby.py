"""The lobby (``GET /v1/lobby``): games created listed that wait with a
seat open, newest first, filtered and paged; a private game never in it."""

from __future__ import annotations

import uuid

import pytest

from domain.clocks import ClockRule
from service.commands import CreateGame
from service.web.current import services
from tests.api.test_join import join, open_game, player


def lobby(api, query: str = "") -> list[dict]:
    answer = api.get(f"/v1/lobby{query}")
    assert answer.status_code == 200, answer.get_json()
    return answer.get_json()["games"]


def listed_ids(api, query: str = "") -> list[str]:
    return [g["id"] for g in lobby(api, query)]


@pytest.mark.parametrize("variant, game_type", [("cassino", "cassino"), ("mass-cool-casino", "mass-cool-casino")])
def test_a_game_with_an_open_seat_is_listed_by_default_with_its_seats(api, variant, game_type):
    game = open_game(api, variant)

    [entry] = [g for g in lobby(api) if g["id"] == game.id]

    assert entry["game_type"] == game_type and entry["variant"] == variant
    assert entry["seats"] == [{"seat": 0, "name": "Host", "open": False, "rating": None},  # a guest has no rating
                              {"seat": 1, "name": None, "open": True, "rating": None},
                              {"seat": 2, "name": None, "open": True, "rating": None}]
    assert entry["clock"] is None and entry["url"] == game.url
    assert entry["created_at"]


def test_a_private_game_is_never_listed_but_is_joined_by_its_id(api):
    game = open_game(api, listed=False)

    assert game.id not in listed_ids(api)
    ann = player(api)
    assert join(api, game, ann["token"]).status_code == 200
    assert api.post(f"{game.url}/leave", token=ann["token"]).status_code == 200
    assert game.id not in listed_ids(api)


def test_a_game_without_open_seats_is_not_listed_even_if_asked(api):
    created = api.post("/v1/games", json={"seats": [{"name": "A"}, {"name": "B"}], "listed": True}).get_json()
    assert created["id"] not in listed_ids(api)


def test_a_game_leaves_the_lobby_when_its_last_seat_is_taken_and_comes_back_when_one_is_left(api):
    game = open_game(api, seats=("Host", None))
    bob = join(api, game, body={"name": "Bob"}).get_json()["token"]
    assert game.id not in listed_ids(api)

    api.post(f"{game.url}/leave", token=bob)
    [entry] = [g for g in lobby(api) if g["id"] == game.id]
    assert [s["open"] for s in entry["seats"]] == [False, True]

    join(api, game, body={"name": "Cy"})
    assert api.post(f"{game.url}/deal", json={}, token=game.tokens[0]).status_code == 200
    assert game.id not in listed_ids(api)


def test_the_lobby_shows_each_seat_taken_by_name(api):
    game = open_game(api)
    join(api, game, player(api, "Ann")["token"])

    [entry] = [g for g in lobby(api) if g["id"] == game.id]

    assert [(s["name"], s["open"]) for s in entry["seats"]] == [("Host", False), ("Ann", False), (None, True)]


def test_the_lobby_shows_a_games_clock(app, api):
    created = services(app).games.create(CreateGame(variant="cassino", seats=("Host", None), options={},
                                              clock=ClockRule(per_move_seconds=30), listed=True))
    [entry] = [g for g in lobby(api) if g["id"] == str(created.game_id)]
    assert entry["clock"] == {"per_move_seconds": 30, "on_timeout": "forfeit"}


def test_the_lobby_is_newest_first_and_paged_by_its_cursor(api):
    games = [open_game(api, seats=(f"Host {n}", None)).id for n in range(5)]
    mine = set(games)

    seen, cursor = [], None
    while True:
        page = api.get("/v1/lobby?limit=2" + (f"&cursor={cursor}" if cursor else "")).get_json()
        seen += [g["id"] for g in page["games"]]
        cursor = page["next"]
        if cursor is None:
            break
    assert [g for g in seen if g in mine] == games[::-1]  # newest first
    assert len(seen) == len(set(seen))


def test_the_lobby_is_filtered_by_variant_and_game_type(api):
    cassino, mass_cool = open_game(api), open_game(api, "mass-cool-casino")
    royal = open_game(api, "royal", seats=("Host", None))

    by_type = listed_ids(api, "?game_type=mass-cool-casino")
    assert mass_cool.id in by_type and cassino.id not in by_type and royal.id not in by_type
    by_variant = listed_ids(api, "?variant=royal&variant=cassino")
    assert {cassino.id, royal.id} <= set(by_variant) and mass_cool.id not in by_variant
    both = listed_ids(api, "?variant=royal&game_type=cassino")
    assert royal.id in both and cassino.id not in both
    assert listed_ids(api, "?variant=royal&game_type=mass-cool-casino") == []
    assert listed_ids(api, "?variant=no-such-variant") == []


@pytest.mark.parametrize("query", ["?game_type=poker", "?limit=0", "?limit=201", "?cursor=nope",
                                   "?variant=", f"?cursor=1.{uuid.uuid4().hex}&cursor=2.{uuid.uuid4().hex}"],
                         ids=["game_type", "limit-0", "limit-201", "cursor", "variant", "two-cursors"])
def test_a_lobby_query_that_cannot_be_read_is_malformed(api, query):
    answer = api.get(f"/v1/lobby{query}")
    assert answer.status_code == 400 and answer.get_json()["code"] == "malformed"


def test_the_lobby_shows_no_token_and_no_player_id(api):
    game, ann = open_game(api), player(api)
    join(api, game, ann["token"])
    text = api.get("/v1/lobby").get_data(as_text=True)
    assert game.id in text
    assert game.tokens[0] not in text and ann["token"] not in text and ann["id"] not in text


def test_a_lobby_read_with_a_bad_consistency_token_is_malformed_even_when_nothing_could_match(api):
    for query in ["", "?game_type=cassino&variant=mass-cool-casino"]:  # the second matches no game type's variant
        answer = api.get(f"/v1/lobby{query}", headers={"Consistency-Token": "soon"})
        assert answer.status_code == 400, query
        assert answer.get_json()["title"]

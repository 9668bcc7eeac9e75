"""Ratings beside names (API.md, "Ratings, pairing and rematches"): wherever
a seat's holder is named (the lobby's seats, a game's view, a player's
games), the holder's rating in the game's variant is beside the name: a
registered player's as it stands (where everyone starts, before a rated
game), null for an open seat, a guest's and a computer's. Each test runs
on both wirings: the lobby and a player's games are read by one statement
on PostgreSQL (``service.postgres.readmodel``)."""

from __future__ import annotations

import pytest

from tests.api.test_ratings import player, rated_game

pytestmark = pytest.mark.both_wirings

#: A registered player's rating before any rated game: where everyone starts.
STARTING = {"rating": 1500, "deviation": 500, "games": 0, "provisional": True}


def listed_seats(api, game_id: str) -> list[dict]:
    [entry] = [g for g in api.get("/v1/lobby?limit=200").get_json()["games"] if g["id"] == game_id]
    return entry["seats"]


def mine(api, token: str) -> dict[str, dict]:
    return {g["id"]: g for g in api.get("/v1/players/me/games?limit=200", token=token).get_json()["games"]}


def open_table(api, variant: str, *joiners) -> str:
    """A listed game of ``variant`` with three open seats, taken in order by
    ``joiners`` (a player's token, or a guest's name); one seat stays open."""
    created = api.post("/v1/games", json={"variant": variant, "seats": [{"open": True}] * 3})
    assert created.status_code == 201, created.get_json()
    game_id = created.get_json()["id"]
    for seat, joiner in enumerate(joiners):
        if isinstance(joiner, dict):
            answer = api.post(f"/v1/games/{game_id}/join", json={"seat": seat, **joiner})
        else:
            answer = api.post(f"/v1/games/{game_id}/join", json={"seat": seat}, token=joiner)
        assert answer.status_code == 200, answer.get_json()
    return game_id


def test_every_listing_shows_a_players_rating_beside_the_name_and_none_for_a_guest(api):
    ann, bob = player(api, "Ann"), player(api, "Bob")
    table = open_table(api, "cassino", ann[1], {"name": "Gus"})
    rated = rated_game(api, [ann, bob])

    assert [(s["name"], s["rating"]) for s in listed_seats(api, table)] == [
        ("Ann", STARTING), ("Gus", None), (None, None)]
    view = api.get(f"/v1/games/{table}").get_json()
    assert [s["rating"] for s in view["seats"]] == [STARTING, None, None]
    assert [s["rating"] for s in api.get(rated).get_json()["seats"]] == [STARTING, STARTING]
    games = mine(api, ann[1])
    assert games[table]["ratings"] == [STARTING, None, None]
    assert games[rated.rsplit("/", 1)[1]]["ratings"] == [STARTING, STARTING]
    # A command's answer and the replay show the same view.
    joined = api.post(f"/v1/games/{table}/join", json={"seat": 2, "name": "Hal"}).get_json()
    assert [s["rating"] for s in joined["game"]["seats"]] == [STARTING, None, None]


def test_a_finished_rated_game_moves_the_rating_every_listing_shows(api):
    ann, bob, cy = player(api, "Ann"), player(api, "Bob"), player(api, "Cy")
    table = open_table(api, "cassino", ann[1], cy[1])
    royal = open_table(api, "royal", ann[1])  # another variant: another rating
    rated = rated_game(api, [ann, bob])
    assert api.post(f"{rated}/deal", json={}, token=ann[1]).status_code == 200

    finished = api.post(f"{rated}/resign", token=bob[1]).get_json()["game"]

    after = {c["seat"]: c["after"] for c in finished["rating_changes"]}
    assert after[0]["rating"] > 1500 > after[1]["rating"] and after[0]["games"] == after[1]["games"] == 1
    assert [s["rating"] for s in finished["seats"]] == [after[0], after[1]]  # the resignation's answer
    assert [s["rating"] for s in api.get(rated).get_json()["seats"]] == [after[0], after[1]]
    assert [s["rating"] for s in listed_seats(api, table)] == [after[0], STARTING, None]
    assert [s["rating"] for s in listed_seats(api, royal)] == [STARTING, None, None]
    games = mine(api, ann[1])
    assert games[rated.rsplit("/", 1)[1]]["ratings"] == [after[0], after[1]]
    assert games[table]["ratings"] == [after[0], STARTING, None]
    assert games[royal]["ratings"] == [STARTING, None, None]
    assert mine(api, bob[1])[rated.rsplit("/", 1)[1]]["ratings"] == [after[0], after[1]]
    # As the player's own page says it.
    kept = {r["variant"]: r for r in api.get(f"/v1/players/{ann[0]}").get_json()["ratings"]}
    assert kept["cassino"] == {"variant": "cassino", **after[0]}
    # The finished game's replay shows the seats' holders as of its version, with their ratings as they stand.
    before_end = api.get(f"{rated}/replay?version={finished['version'] - 1}").get_json()
    assert [s["rating"] for s in before_end["seats"]] == [after[0], after[1]]
    events = api.get(f"{rated}/events").get_json()["events"]
    first_join = next(e["version"] for e in events if e["type"] == "SeatJoined")
    assert [s["rating"] for s in api.get(f"{rated}/replay?version={first_join}").get_json()["seats"]] == [
        after[0], None]


def test_a_computers_seat_has_no_rating(api):
    ann = player(api, "Ann")
    created = api.post("/v1/games", json={"seats": [{"me": True}, {"name": "Cpu", "computer": True}]},
                       token=ann[1])
    assert created.status_code == 201, created.get_json()
    assert [s["rating"] for s in created.get_json()["game"]["seats"]] == [STARTING, None]

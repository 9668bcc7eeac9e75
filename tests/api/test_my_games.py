"""A player's games (``GET /v1/players/me/games``): the seats the player
holds, whose turn it is and the clock's deadline, from the read model the
appends keep; newest first, filtered by status, paged. Both game types."""

from __future__ import annotations

import uuid
from datetime import datetime

import pytest

from domain.clocks import ClockRule
from service.commands import CreateGame
from service.web.current import services
from tests.api.masscool import ALL_CODES
from tests.api.test_join import Open, join, open_game, player

GAME_TYPES = ["cassino", "mass-cool-casino"]
#: A registered player's rating before any rated game: where everyone starts.
STARTING = {"rating": 1500, "deviation": 500, "games": 0, "provisional": True}


def my_games(api, token, query: str = "") -> list[dict]:
    answer = api.get(f"/v1/players/me/games{query}", token=token)
    assert answer.status_code == 200, answer.get_json()
    return answer.get_json()["games"]


@pytest.mark.parametrize("variant", GAME_TYPES)
def test_a_players_game_says_whose_turn_it_is_as_the_game_goes_on(api, variant):
    ann = player(api)
    game = open_game(api, variant, seats=("Host", None), first_dealer=0)
    join(api, game, ann["token"])
    [waiting] = my_games(api, ann["token"])
    created_at = api.get(f"{game.url}/events").get_json()["events"][0]["recorded_at"]
    assert waiting == {"id": game.id, "url": game.url, "variant": variant, "status": "waiting", "seat": 1,
                       "players": ["Host", "Ann"], "ratings": [None, STARTING], "created_at": waiting["created_at"],
                       "version": api.view(game)["version"], "your_turn": False, "deadline": None,
                       "outcome": None}
    assert datetime.fromisoformat(waiting["created_at"]) == datetime.fromisoformat(created_at).replace(
        microsecond=datetime.fromisoformat(created_at).microsecond // 1000 * 1000)  # to the millisecond

    api.post(f"{game.url}/deal", json={}, token=game.tokens[0])
    for _ in range(6):  # a few turns, each checked against the view
        view = api.view(game)
        [mine] = my_games(api, ann["token"])
        assert (mine["status"], mine["version"]) == (view["status"], view["version"])
        awaited = view["awaiting"]["seats"] if view["awaiting"] else []
        assert mine["your_turn"] == (1 in awaited)
        seat = awaited[0]
        token = ann["token"] if seat == 1 else game.tokens[0]
        moves = api.get(f"{game.url}/moves", token=token).get_json()["moves"]
        assert api.post(f"{game.url}/play", json=moves[0], token=token).status_code == 200


def test_a_player_sees_each_of_their_games_newest_first_and_no_other(api):
    ann, bob = player(api, "Ann"), player(api, "Bob")
    games = [open_game(api, seats=("Host", None, None)) for _ in range(3)]
    for game in games:
        join(api, game, ann["token"])
    join(api, games[1], bob["token"])
    open_game(api)  # Ann holds no seat here

    assert [g["id"] for g in my_games(api, ann["token"])] == [g.id for g in games[::-1]]
    assert [(g["id"], g["seat"]) for g in my_games(api, bob["token"])] == [(games[1].id, 2)]

    first = api.get("/v1/players/me/games?limit=2", token=ann["token"]).get_json()
    rest = api.get(f"/v1/players/me/games?limit=2&cursor={first['next']}", token=ann["token"]).get_json()
    assert [g["id"] for g in first["games"] + rest["games"]] == [g.id for g in games[::-1]]
    assert rest["next"] is None


def test_a_game_left_is_no_longer_the_players(api):
    ann, game = player(api), open_game(api)
    join(api, game, ann["token"])
    api.post(f"{game.url}/leave", token=ann["token"])
    assert my_games(api, ann["token"]) == []


def test_a_players_games_are_filtered_by_status(api):
    ann = player(api)
    started, waiting = open_game(api, seats=("Host", None)), open_game(api)
    for game in (started, waiting):
        join(api, game, ann["token"])
    api.post(f"{started.url}/deal", json={}, token=started.tokens[0])

    assert [g["id"] for g in my_games(api, ann["token"], "?status=waiting")] == [waiting.id]
    assert [g["id"] for g in my_games(api, ann["token"], "?status=in_progress&status=finished")] == [started.id]
    assert my_games(api, ann["token"], "?status=betting") == []
    bad = api.get("/v1/players/me/games?status=playing", token=ann["token"])
    assert bad.status_code == 400


@pytest.mark.parametrize("variant", GAME_TYPES)
def test_a_players_game_on_a_clock_shows_its_deadline_as_the_view_does(app, api, variant):
    ann = player(api)
    created = services(app).games.create(CreateGame(variant=variant, seats=("Host", None), options={}, first_dealer=0,
                                              clock=ClockRule(per_move_seconds=600), listed=True))
    game = Open(str(created.game_id), list(created.tokens))
    join(api, game, ann["token"])
    api.post(f"{game.url}/deal", json={}, token=game.tokens[0])

    view = api.view(game)
    [mine] = my_games(api, ann["token"])
    assert mine["deadline"] == view["clock"]["deadline"] and mine["deadline"] is not None


@pytest.mark.parametrize("variant", GAME_TYPES)
def test_a_players_list_shows_no_card_and_no_token(api, variant):
    ann = player(api)
    game = open_game(api, variant, seats=("Host", None), first_dealer=0)
    join(api, game, ann["token"])
    api.post(f"{game.url}/deal", json={}, token=game.tokens[0])

    text = api.get("/v1/players/me/games", token=ann["token"]).get_data(as_text=True)

    assert game.id in text
    assert not [code for code in ALL_CODES if f'"{code}"' in text]
    assert game.tokens[0] not in text and ann["token"] not in text
    assert uuid.UUID(ann["id"]).hex not in text and ann["id"] not in text

"""Rated games over HTTP (API.md, "Ratings, pairing and rematches"): who
may sit in one, how its end moves its players' ratings, once, and what
does not."""

from __future__ import annotations

import threading
import time
import uuid
from datetime import UTC, datetime

import pytest

from service.web.current import services
from tests.conftest import OPERATOR_TOKEN
from .conftest import DEADLINES_ON_CITUS


def player(api, name: str) -> tuple[str, str]:
    answer = api.post("/v1/players", json={"name": name}).get_json()
    return answer["id"], answer["token"]


def rated_game(api, players, variant="cassino", **extra) -> str:
    """A rated game of ``variant`` with every seat taken by one of ``players`` (id, token), in order."""
    response = api.post("/v1/games", json={"variant": variant, "seats": [{"open": True}] * len(players),
                                           "first_dealer": 0, "rated": True, **extra})
    assert response.status_code == 201, response.get_json()
    url = f"/v1/games/{response.get_json()['id']}"
    for seat, (_, token) in enumerate(players):
        joined = api.post(f"{url}/join", json={"seat": seat}, token=token)
        assert joined.status_code == 200, joined.get_json()
    return url


def ratings_of(api, url) -> dict[int, dict]:
    changes = api.get(url).get_json()["rating_changes"]
    return {c["seat"]: c for c in changes} if changes is not None else {}


@pytest.mark.parametrize("seats", [[{"name": "Ann"}, {"open": True}],
                                   [{"open": True}, {"name": "Cpu", "computer": True}]])
def test_a_rated_game_seats_no_guest_and_no_computer(api, seats):
    response = api.post("/v1/games", json={"seats": seats, "rated": True})
    assert response.status_code == 422 and response.get_json()["rule"] == "unrated_seat", response.get_json()


def test_a_guest_may_not_join_a_rated_game_and_a_player_may(api):
    response = api.post("/v1/games", json={"seats": [{"open": True}, {"open": True}], "rated": True})
    url = f"/v1/games/{response.get_json()['id']}"
    refused = api.post(f"{url}/join", json={"name": "Guest"})
    assert refused.status_code == 422 and refused.get_json()["rule"] == "unrated_seat"
    assert api.post(f"{url}/join", token=player(api, "Ann")[1]).status_code == 200
    assert api.get(url).get_json()["rated"] is True


@pytest.mark.parametrize("variant", ["cassino", "mass-cool-casino"])
def test_a_resignation_loses_and_moves_each_rating_once(api, variant):
    ann, bob = player(api, "Ann"), player(api, "Bob")
    url = rated_game(api, [ann, bob], variant)
    assert api.post(f"{url}/deal", json={}, token=ann[1]).status_code == 200
    finished = api.post(f"{url}/resign", token=bob[1]).get_json()
    changes = {c["seat"]: c for c in finished["game"]["rating_changes"]}
    assert changes[0]["player"] == ann[0] and changes[1]["player"] == bob[0]
    assert changes[0]["before"] == changes[1]["before"] == {"rating": 1500, "deviation": 500, "games": 0,
                                                             "provisional": True}
    assert changes[0]["change"] > 0 > changes[1]["change"]
    assert changes[0]["after"]["games"] == changes[1]["after"]["games"] == 1
    types = [e["type"] for e in api.get(f"{url}/events").get_json()["events"]]
    assert types[-1] == "RatingsChanged" and types.count(types[-1]) == 1
    # Nothing reaches past the end: no undo, no second rating.
    assert api.post(f"{url}/undo", token=ann[1]).get_json()["rule"] == "game_over"
    assert api.post(f"{url}/undo", token=OPERATOR_TOKEN).get_json()["rule"] == "game_over"
    assert ratings_of(api, url) == changes


def test_an_aborted_rated_game_moves_no_rating(api):
    ann, bob = player(api, "Ann"), player(api, "Bob")
    url = rated_game(api, [ann, bob])
    game = api.post(f"{url}/abort", token=ann[1]).get_json()["game"]
    assert (game["result"], game["rating_changes"]) == ("aborted", None)
    again = rated_game(api, [ann, bob])
    api.post(f"{again}/deal", json={}, token=ann[1])
    api.post(f"{again}/resign", token=ann[1])
    assert ratings_of(api, again)[0]["before"]["games"] == 0  # the aborted game counted for nothing


def test_the_next_game_starts_from_the_rating_the_last_one_left(api):
    ann, bob = player(api, "Ann"), player(api, "Bob")
    first = rated_game(api, [ann, bob])
    api.post(f"{first}/deal", json={}, token=ann[1])
    api.post(f"{first}/resign", token=bob[1])
    second = rated_game(api, [bob, ann])
    api.post(f"{second}/deal", json={}, token=bob[1])
    api.post(f"{second}/resign", token=bob[1])
    before, after = ratings_of(api, first), ratings_of(api, second)
    assert after[1]["before"] == before[0]["after"] and after[0]["before"] == before[1]["after"]
    assert after[1]["after"]["games"] == 2 and after[1]["after"]["rating"] > before[0]["after"]["rating"]


def test_partners_share_their_sides_result(api):
    four = [player(api, name) for name in ("Ann", "Bob", "Cy", "Di")]
    url = rated_game(api, four, options={"teams": True})
    api.post(f"{url}/deal", json={}, token=four[0][1])
    api.post(f"{url}/resign", token=four[1][1])  # seats 1 and 3 are a side: it loses
    changes = ratings_of(api, url)
    assert changes[0]["change"] == changes[2]["change"] > 0 > changes[1]["change"] == changes[3]["change"]


def test_in_a_three_handed_game_the_winner_ranks_above_the_two_others(api):
    three = [player(api, name) for name in ("Ann", "Bob", "Cy")]
    url = rated_game(api, three)
    api.post(f"{url}/deal", json={}, token=three[0][1])
    game = api.post(f"{url}/resign", token=three[2][1]).get_json()["game"]
    (winner,) = game["winners"]
    changes = ratings_of(api, url)
    losers = [changes[s]["change"] for s in range(3) if s != winner]
    assert changes[winner]["change"] > 0 > max(losers) and losers[0] == losers[1]


# -- races, on PostgreSQL: two workers (two apps, each with its own cache) ------------


def at_once(*calls):
    """Run each call in its own thread, started together; their results."""
    barrier = threading.Barrier(len(calls))
    results: list = [None] * len(calls)

    def run(n, call):
        barrier.wait()
        results[n] = call()

    threads = [threading.Thread(target=run, args=(n, call)) for n, call in enumerate(calls)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return results


def two_workers(app_for):
    from tests.api.conftest import Api

    apps = [app_for(), app_for()]
    return apps, [Api(app, app.test_client()) for app in apps]


def kept_ratings(app, players) -> dict[str, tuple[float, int]]:
    """The players' ratings as the read model keeps them."""
    return {p: (r.rating, r.games) for p, r in services(app).adapters.ratings.of([p for p, _ in players],
                                                                                  "cassino").items()}


def rating_events(api, url) -> list[dict]:
    return [e for e in api.get(f"{url}/events").get_json()["events"] if e["type"] == "RatingsChanged"]


@pytest.mark.parametrize("attempt", range(3))
def test_two_workers_finishing_a_rated_game_at_once_rate_it_once(app_for, database_url, attempt):
    apps, apis = two_workers(app_for)
    ann, bob = player(apis[0], "Ann"), player(apis[0], "Bob")
    url = rated_game(apis[0], [ann, bob])
    apis[0].post(f"{url}/deal", json={}, token=ann[1])
    apis[1].get(url)  # each worker has the game cached
    answers = at_once(lambda: apis[0].post(f"{url}/resign", token=ann[1]),
                      lambda: apis[1].post(f"{url}/resign", token=bob[1]))
    assert sorted(a.status_code for a in answers) == [200, 422], [a.get_json() for a in answers]
    (event,) = rating_events(apis[0], url)
    changes = ratings_of(apis[1], url)
    assert {c["player"]: c["after"][2] for c in event["data"]["changes"]} == {ann[0]: 1, bob[0]: 1}
    assert kept_ratings(apps[0], [ann, bob]) == {c["player"]: (c["after"][0], 1) for c in event["data"]["changes"]}
    assert sorted(c["change"] > 0 for c in changes.values()) == [False, True]


@pytest.mark.not_on_citus(DEADLINES_ON_CITUS)
@pytest.mark.parametrize("attempt", range(3))
def test_a_time_out_and_a_resignation_at_once_rate_the_game_once(app_for, database_url, attempt):
    apps, apis = two_workers(app_for)
    ann, bob = player(apis[0], "Ann"), player(apis[0], "Bob")
    url = rated_game(apis[0], [ann, bob], clock={"per_move_seconds": 1})
    game_id = uuid.UUID(url.rsplit("/", 1)[1])
    # Each seat's first action (Ann's deal, Bob's play) has a longer time of its own: past them, Ann has 1 s.
    assert apis[0].post(f"{url}/deal", json={}, token=ann[1]).status_code == 200
    first = apis[0].get(f"{url}/moves", token=bob[1]).get_json()["moves"][0]
    assert apis[0].post(f"{url}/play", json=first, token=bob[1]).status_code == 200
    deadline = datetime.fromisoformat(apis[0].get(url).get_json()["clock"]["deadline"])
    time.sleep(max(0.0, (deadline - datetime.now(UTC)).total_seconds() - 0.01))
    answers = at_once(lambda: apis[0].post(f"{url}/resign", token=bob[1]),
                      lambda: services(apps[1]).keeper.time_out(game_id) or services(apps[1]).keeper.tick())
    view = apis[0].get(url).get_json()
    assert view["status"] == "finished" and view["result"] in ("resigned", "timed_out"), (view, answers)
    (event,) = rating_events(apis[0], url)
    assert kept_ratings(apps[1], [ann, bob]) == {c["player"]: (c["after"][0], 1) for c in event["data"]["changes"]}


def test_two_games_of_one_player_finishing_at_once_each_move_the_rating_the_other_left(app_for, database_url):
    apps, apis = two_workers(app_for)
    ann, bob, cy = player(apis[0], "Ann"), player(apis[0], "Bob"), player(apis[0], "Cy")
    urls = [rated_game(apis[0], [ann, bob]), rated_game(apis[0], [ann, cy])]
    for n, url in enumerate(urls):
        apis[0].post(f"{url}/deal", json={}, token=ann[1])
        apis[n].get(url)
    answers = at_once(lambda: apis[0].post(f"{urls[0]}/resign", token=bob[1]),
                      lambda: apis[1].post(f"{urls[1]}/resign", token=cy[1]))
    assert [a.status_code for a in answers] == [200, 200], [a.get_json() for a in answers]
    anns = sorted((ratings_of(apis[0], url)[0] for url in urls), key=lambda c: c["after"]["games"])
    assert [c["after"]["games"] for c in anns] == [1, 2]
    assert anns[1]["before"] == anns[0]["after"]  # the second started from where the first left Ann
    assert kept_ratings(apps[0], [ann])[ann[0]][1] == 2


# -- a player's page and the leaderboard ------------------------------------------------


def played_out(api, players, winner_seat=0, variant="cassino"):
    """A rated game of ``players`` that the seat after ``winner_seat`` resigns (two seats)."""
    url = rated_game(api, players, variant)
    api.post(f"{url}/deal", json={}, token=players[0][1])
    api.post(f"{url}/resign", token=players[1 - winner_seat][1])
    return url


def test_a_players_page_shows_its_ratings_and_finished_games_newest_first(api):
    ann, bob = player(api, "Ann"), player(api, "Bob")
    urls = [played_out(api, [ann, bob], winner) for winner in (0, 1, 0)]
    unfinished = rated_game(api, [ann, bob])
    page = api.get(f"/v1/players/{ann[0]}?limit=2").get_json()
    assert (page["id"], page["name"]) == (ann[0], "Ann")
    (rating,) = page["ratings"]
    assert rating["variant"] == "cassino" and rating["games"] == 3 and rating["provisional"] is True
    assert rating["rating"] == ratings_of(api, urls[-1])[0]["after"]["rating"]
    assert [g["url"] for g in page["games"]] == urls[:0:-1] and page["next"]
    rest = api.get(f"/v1/players/{ann[0]}?limit=2&cursor={page['next']}").get_json()
    assert [g["url"] for g in rest["games"]] == urls[:1] and rest["next"] is None
    assert unfinished not in {g["url"] for g in page["games"] + rest["games"]}
    assert page["games"][0]["outcome"] == {"winners": [0], "result": "resigned"}
    assert api.get(f"/v1/players/{uuid.uuid4()}").status_code == 404


def test_the_leaderboard_ranks_the_non_provisional_by_rating(api):
    ann, bob, cy = player(api, "Ann"), player(api, "Bob"), player(api, "Cy")
    for _ in range(5):
        played_out(api, [ann, bob], 0)
    played_out(api, [ann, cy], 0)  # Cy is provisional: one game
    board = api.get("/v1/leaderboard?variant=cassino").get_json()
    assert [(p["place"], p["name"]) for p in board["players"]] == [(1, "Ann"), (2, "Bob")]
    assert board["players"][0]["rating"] > board["players"][1]["rating"] and board["next"] is None
    first = api.get("/v1/leaderboard?variant=cassino&limit=1").get_json()
    assert [p["name"] for p in first["players"]] == ["Ann"]
    assert [p["name"] for p in api.get(f"/v1/leaderboard?variant=cassino&cursor={first['next']}").get_json()[
        "players"]] == ["Bob"]
    assert api.get("/v1/leaderboard?variant=royal").get_json()["players"] == []
    for query in ("", "?variant=chess", "?variant=cassino&variant=royal", "?variant=cassino&cursor=x"):
        assert api.get(f"/v1/leaderboard{query}").status_code == 400, query


def test_no_hidden_card_reaches_a_players_page_or_the_leaderboard(api):
    ann, bob = player(api, "Ann"), player(api, "Bob")
    for _ in range(5):
        played_out(api, [ann, bob], 0)
    live = rated_game(api, [ann, bob])
    api.post(f"{live}/deal", json={}, token=ann[1])
    seen = api.get(live, token=OPERATOR_TOKEN).get_json()
    hidden = {card for hand in seen["hands"] for card in hand} | set(seen.get("stock", []))
    assert hidden
    for path in (f"/v1/players/{ann[0]}", f"/v1/players/{bob[0]}", "/v1/leaderboard?variant=cassino"):
        text = api.get(path).get_data(as_text=True)
        assert not {card for card in hidden if f'"{card}"' in text}, path
        assert "token" not in text and ann[1] not in text and bob[1] not in text

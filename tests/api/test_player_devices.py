"""A player across devices, and sitting down as a player (the contract's
section of that name): ``GET /v1/players/me``; a seat ``{"me": true}`` held
from the creating append on; a player token on a creation without one
refused; a token replaced; a transfer code claimed once on another device;
the first action's own time; errors that name the token sent and the one
wanted. Each on both wirings."""

from __future__ import annotations

import threading
import uuid
import time
from datetime import timedelta

import pytest

from domain.clocks import rfc3339
from service.players import TRANSFER_LIFETIME
from service.web.current import services
from tests.api.conftest import Api
from tests.api.test_join import player
from tests.conftest import OPERATOR_TOKEN
from .conftest import DEADLINES_ON_CITUS

pytestmark = pytest.mark.both_wirings
GAME_TYPES = ["cassino", "mass-cool-casino"]


def sit_down(api, token, seats=None, **more):
    seats = seats if seats is not None else [{"me": True}, {"open": True}]
    return api.post("/v1/games", json={"first_dealer": 0, "seats": seats, **more}, token=token)


def refused(response, status: int, code: str) -> bool:
    body = response.get_json()
    return response.status_code == status and (body.get("rule") or body["code"]) == code


def test_a_player_token_says_who_it_is(api, wiring):
    ann = player(api, "Ann")

    me = api.get("/v1/players/me", token=ann["token"])

    assert me.status_code == 200 and me.get_json() == {"id": ann["id"], "name": "Ann", "ratings": []}


def test_a_seat_token_sent_for_a_player_is_told_what_it_is_and_what_is_wanted(api, wiring):
    game = api.create()

    for path in ("/v1/players/me", "/v1/players/me/games"):
        answer = api.get(path, token=game.tokens[0])
        detail = answer.get_json()["detail"]
        assert answer.status_code == 401 and "seat's token works only in its own game" in detail
        assert "send your player token" in detail and "operator" in detail
    operator = api.get("/v1/players/me", token=OPERATOR_TOKEN)
    assert operator.status_code == 403 and "only a player can" in operator.get_json()["detail"]
    assert api.get("/v1/players/me").status_code == 401


@pytest.mark.parametrize("variant", GAME_TYPES)
def test_a_player_sits_at_the_game_they_create_in_its_creating_append(api, wiring, variant):
    ann = player(api, "Ann")

    created = sit_down(api, ann["token"], variant=variant, seats=[{"open": True}, {"me": True}])

    assert created.status_code == 201, created.get_json()
    answer = created.get_json()
    assert [(s["name"], s["token"]) for s in answer["seats"]] == [(None, None), ("Ann", None)]
    url = f"/v1/games/{answer['id']}"
    events = api.get(f"{url}/events", token=OPERATOR_TOKEN).get_json()["events"]
    assert events[-1]["version"] == answer["version"]  # the seat was taken within the creation itself
    seated = [e for e in events if e["data"] and e["data"].get("player") == ann["id"]]
    assert [(e["data"]["seat"], e["metadata"]["command"]) for e in seated] == [(1, "CreateGame")]
    assert {e["metadata"]["actor"] for e in events} == {"player:" + ann["id"].replace("-", "")}
    assert api.get(url, token=ann["token"]).get_json()["you"] == 1
    [mine] = api.get("/v1/players/me/games", token=ann["token"]).get_json()["games"]
    assert (mine["id"], mine["seat"], mine["status"]) == (answer["id"], 1, "waiting")
    [listed] = [g for g in api.get("/v1/lobby").get_json()["games"] if g["id"] == answer["id"]]
    assert [s["name"] for s in listed["seats"]] == [None, "Ann"]


@pytest.mark.parametrize("seats", [2, [{"name": "Ann"}, {"open": True}], [{"name": "Ann"}, {"name": "Bob"}]])
def test_a_player_token_on_a_creation_without_the_players_seat_is_refused_and_creates_nothing(api, wiring, seats):
    ann = player(api, "Ann")

    answer = sit_down(api, ann["token"], seats=seats)

    assert refused(answer, 422, "player_not_seated"), answer.get_json()
    assert '{"me": true}' in answer.get_json()["detail"]
    assert api.get("/v1/players/me/games", token=ann["token"]).get_json()["games"] == []


def test_a_seat_of_ones_own_needs_a_player_token(api, wiring):
    game = api.create()
    for token, status, code in [(None, 401, "unauthenticated"), (OPERATOR_TOKEN, 403, "forbidden"),
                                (game.tokens[0], 401, "unauthenticated")]:
        answer = sit_down(api, token)
        assert refused(answer, status, code), answer.get_json()
    assert "player token" in sit_down(api, None).get_json()["detail"]
    ann = player(api)
    twice = sit_down(api, ann["token"], seats=[{"me": True}, {"me": True}])
    assert twice.status_code == 400 and twice.get_json()["code"] == "malformed"


def test_two_players_race_for_a_seat_while_a_third_creates_sitting_in_hers(app, api, wiring):
    """Bob and Cy watch the lobby for Ann's game and try to take her seat,
    then any: her seat is never open to them, and of the open one exactly
    one of them gets it."""
    ann, bob, cy = (player(api, name) for name in (f"Ann {uuid.uuid4().hex[:8]}", "Bob", "Cy"))
    barrier, both_found, answers, created = threading.Barrier(3), threading.Barrier(2), {}, {}

    def create():
        barrier.wait()
        created["answer"] = sit_down(Api(app, app.test_client()), ann["token"]).get_json()

    def race(name, token):
        racer = Api(app, app.test_client())
        barrier.wait()
        end = time.monotonic() + 10
        while time.monotonic() < end:
            games = racer.get("/v1/lobby?limit=200").get_json()["games"]
            found = [g for g in games if any(s["name"] == ann["name"] for s in g["seats"])]
            if found:
                both_found.wait()  # then they race
                url = f"/v1/games/{found[0]['id']}/join"
                answers[name] = (racer.post(url, json={"seat": 0}, token=token),
                                 racer.post(url, json={}, token=token))
                return

    threads = [threading.Thread(target=create)] + [threading.Thread(target=race, args=(n, p["token"]))
                                                   for n, p in (("Bob", bob), ("Cy", cy))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()

    assert all(refused(first, 422, "seat_taken") for first, _ in answers.values())  # Ann's seat, never open
    outcomes = sorted((then.status_code, then.get_json().get("rule")) for _, then in answers.values())
    assert outcomes == [(200, None), (422, "no_open_seat")], outcomes
    view = api.get(f"/v1/games/{created['answer']['id']}").get_json()
    assert view["seats"][0]["name"] == ann["name"] and view["seats"][1]["name"] in ("Bob", "Cy")


def test_a_new_token_replaces_the_old_one_at_once(api, wiring):
    ann = player(api, "Ann")
    assert api.get("/v1/players/me", token=ann["token"]).status_code == 200  # known to the process now
    code = api.post("/v1/players/me/transfer", token=ann["token"]).get_json()["code"]

    answer = api.post("/v1/players/me/token", token=ann["token"])

    assert answer.status_code == 200
    renewed = answer.get_json()
    assert (renewed["id"], renewed["name"]) == (ann["id"], "Ann") and renewed["token"] != ann["token"]
    old = api.get("/v1/players/me", token=ann["token"])
    assert old.status_code == 401 and "replaced" in old.get_json()["detail"]
    assert api.get("/v1/players/me", token=renewed["token"]).get_json()["id"] == ann["id"]
    assert refused(api.post("/v1/players/claim", json={"code": code}), 422, "invalid_transfer_code")


def test_a_transfer_code_moves_the_identity_to_another_device_once(api, wiring):
    ann = player(api, "Ann")
    game = sit_down(api, ann["token"]).get_json()
    given = api.post("/v1/players/me/transfer", token=ann["token"])
    assert given.status_code == 201
    transfer = given.get_json()
    assert len(transfer["code"]) == 14 and transfer["expires_at"].endswith("Z")

    claimed = api.post("/v1/players/claim", json={"code": transfer["code"].lower().replace("-", " ")})
    again = api.post("/v1/players/claim", json={"code": transfer["code"]})

    assert claimed.status_code == 200, claimed.get_json()
    there = claimed.get_json()
    assert (there["id"], there["name"]) == (ann["id"], "Ann")
    assert [g["id"] for g in api.get("/v1/players/me/games", token=there["token"]).get_json()["games"]] == [
        game["id"]]
    assert refused(again, 422, "invalid_transfer_code")
    assert api.get("/v1/players/me", token=ann["token"]).status_code == 401  # moved, not copied
    for body in ({"code": "AAAA-BBBB-CCCC"}, {}, {"code": ""}):
        assert api.post("/v1/players/claim", json=body).status_code in (400, 422)


def test_a_transfer_code_expires_after_ten_minutes(app, api, wiring):
    ann = player(api, "Ann")
    transfer = api.post("/v1/players/me/transfer", token=ann["token"]).get_json()
    players = services(app).adapters.players
    if wiring == "memory":
        later = players.tables.now() + TRANSFER_LIFETIME
        players.tables.now = lambda: later
    else:
        with players._pool.connection() as conn:
            conn.execute("UPDATE player_transfers SET expires_at = now() WHERE player_id = %s", (ann["id"],))

    assert refused(api.post("/v1/players/claim", json={"code": transfer["code"]}), 422, "invalid_transfer_code")


def move_clock(app, seconds: float) -> None:
    """The service's clock (the store's: events' times, the time keeper's now) ``seconds`` on from now."""
    store = services(app).adapters.store
    later = store.now() + timedelta(seconds=seconds)
    store._clock = lambda: later


@pytest.mark.not_on_citus(DEADLINES_ON_CITUS)
@pytest.mark.parametrize("variant", GAME_TYPES)
def test_a_seats_first_action_has_its_own_time_and_missing_it_calls_the_game_off(app, api, wiring, variant):
    ann, bob = player(api, "Ann"), player(api, "Bob")
    created = sit_down(api, ann["token"], variant=variant, clock={"per_move_seconds": 1}).get_json()
    url = f"/v1/games/{created['id']}"
    assert api.post(f"{url}/join", json={}, token=bob["token"]).status_code == 200
    clock = api.get(url).get_json()["clock"]
    assert clock["first_action_seconds"] == 30 and clock["seat"] == 0

    move_clock(app, 10)  # past the clock's second: the first deal still has its own 30
    assert services(app).keeper.tick() == 0
    assert api.post(f"{url}/deal", json={}, token=ann["token"]).status_code == 200
    if api.get(url).get_json()["clock"]["seat"] == 0:  # Mass Cool Casino's dealer bets first
        move = api.get(f"{url}/moves", token=ann["token"]).get_json()["moves"][0]
        assert api.post(f"{url}/play", json=move, token=ann["token"]).status_code == 200
    view = api.get(url).get_json()
    assert view["clock"]["seat"] == 1 and view["clock"]["deadline"] == rfc3339(
        services(app).adapters.store.now() + timedelta(seconds=30))  # Bob's first action: 30 s, not 1

    move_clock(app, 31)
    assert services(app).keeper.tick() >= 1  # a shared database may hold other tests' due games
    view = api.get(url).get_json()
    assert (view["status"], view["result"], view["winners"]) == ("finished", "aborted", [])
    [mine] = api.get("/v1/players/me/games", token=bob["token"]).get_json()["games"]
    assert mine["outcome"] == {"winners": [], "result": "aborted"}

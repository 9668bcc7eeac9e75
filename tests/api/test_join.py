"""Joining and leaving seats over HTTP (docs/rules.md, "Open seats, joining
and leaving"): a player by a player token, a guest by a name; the seat's
token; the refusals the contract names; idempotent joins; leaving; and two
clients racing for the last seat. Both game types."""

from __future__ import annotations

import json
import threading
import uuid
from dataclasses import dataclass

import pytest

from service.auth import hash_token
from service.web.current import services
from tests.conftest import OPERATOR_TOKEN

GAME_TYPES = ["cassino", "mass-cool-casino"]


@dataclass
class Open:
    """A game created with open seats: its id, and the tokens of the seats named at creation (None: open)."""

    id: str
    tokens: list[str | None]

    @property
    def url(self) -> str:
        return f"/v1/games/{self.id}"


def open_game(api, variant="cassino", seats=("Host", None, None), first_dealer=0, **more) -> Open:
    body = {"variant": variant, "first_dealer": first_dealer,
            "seats": [{"open": True} if name is None else {"name": name} for name in seats], **more}
    created = api.post("/v1/games", json=body)
    assert created.status_code == 201, created.get_json()
    answer = created.get_json()
    return Open(answer["id"], [s["token"] for s in answer["seats"]])


def player(api, name="Ann") -> dict:
    answer = api.post("/v1/players", json={"name": name})
    assert answer.status_code == 201
    return answer.get_json()


def join(api, game, token=None, body=None, headers=None):
    return api.post(f"{game.url}/join", json=body, token=token, headers=headers)


def refused(response, rule: str) -> bool:
    return response.status_code == 422 and response.get_json().get("rule") == rule


@pytest.mark.parametrize("variant", GAME_TYPES)
def test_a_player_takes_the_lowest_open_seat_under_their_own_name(api, variant):
    game, ann = open_game(api, variant), player(api, "Ann")

    answer = join(api, game, ann["token"])

    assert answer.status_code == 200, answer.get_json()
    joined = answer.get_json()
    assert joined["seat"] == 1 and "token" not in joined
    assert joined["game"]["you"] == 1
    assert [s["name"] for s in joined["game"]["seats"]] == ["Host", "Ann", None]
    [event] = joined["events"]
    assert event["data"] == {"seat": 1, "name": "Ann", "player": ann["id"]}
    assert ann["token"] not in json.dumps(api.get(f"{game.url}/events", token=OPERATOR_TOKEN).get_json())
    assert api.view(game, ann["token"])["you"] == 1


@pytest.mark.parametrize("variant", GAME_TYPES)
def test_a_guest_takes_a_seat_by_name_and_gets_its_token_once(api, app, variant):
    game = open_game(api, variant)

    answer = join(api, game, body={"name": "Bob", "seat": 2})

    assert answer.status_code == 200, answer.get_json()
    joined = answer.get_json()
    assert joined["seat"] == 2 and joined["game"]["you"] == 2
    assert api.view(game, joined["token"])["you"] == 2
    kept = services(app).adapters.store.seat_token_hashes(uuid.UUID(game.id))
    assert kept[2] == hash_token(joined["token"]) and joined["token"] not in kept.values()
    events = api.get(f"{game.url}/events", token=OPERATOR_TOKEN).get_data(as_text=True)
    assert joined["token"] not in events and hash_token(joined["token"]) not in events


@pytest.mark.parametrize("variant", GAME_TYPES)
def test_once_every_seat_is_taken_the_game_is_dealt_and_played_like_any_other(api, variant):
    game, ann = open_game(api, variant, seats=(None, None, None), first_dealer=2), player(api)
    bob = join(api, game, body={"name": "Bob"}).get_json()["token"]
    refused_deal = api.post(f"{game.url}/deal", json={}, token=bob)
    assert refused(refused_deal, "seats_open")
    join(api, game, ann["token"])
    cy = join(api, game, body={"name": "Cy"}).get_json()["token"]

    dealt = api.post(f"{game.url}/deal", json={}, token=cy)

    assert dealt.status_code == 200, dealt.get_json()
    view = api.view(game, ann["token"])
    assert view["status"] != "waiting" and view["you"] == 1 and view["hand"]
    assert view["awaiting"]["command"] == "play"
    assert [s["name"] for s in view["seats"]] == ["Bob", "Ann", "Cy"]


def test_a_seat_asked_for_that_is_taken_is_refused_and_so_is_a_full_game(api):
    game = open_game(api, seats=("Host", None))
    assert refused(join(api, game, body={"name": "Bob", "seat": 0}), "seat_taken")
    assert refused(join(api, game, body={"name": "Bob", "seat": 5}), "not_a_seat")
    assert join(api, game, body={"name": "Bob"}).status_code == 200

    assert refused(join(api, game, body={"name": "Cy"}), "no_open_seat")
    assert refused(join(api, game, body={"name": "Cy", "seat": 1}), "seat_taken")
    assert refused(join(api, game, player(api)["token"]), "no_open_seat")


def test_a_player_or_a_seat_holds_one_seat_of_a_game(api):
    game, ann = open_game(api, seats=("Host", None, None, None)), player(api)
    join(api, game, ann["token"])

    assert refused(join(api, game, ann["token"]), "already_seated")
    assert refused(join(api, game, ann["token"], body={"seat": 3}), "already_seated")
    assert refused(join(api, game, game.tokens[0], body={"name": "Host again"}), "already_seated")
    guest = join(api, game, body={"name": "Bob"}).get_json()["token"]
    assert refused(join(api, game, guest, body={"name": "Bob again"}), "already_seated")
    assert [s["open"] for s in api.view(game)["seats"]] == [False, False, False, True]


@pytest.mark.parametrize("body, token_kind", [
    ({"name": ""}, "guest"),
    ({"name": "x" * 41}, "guest"),
    ({"name": "Bob", "seat": -1}, "guest"),
    ({"name": "Bob", "seat": "1"}, "guest"),
    ({"name": "Bob", "table": 1}, "guest"),
    ({"name": "x" * 41}, "player"),
])
def test_a_join_that_cannot_be_read_is_malformed_and_changes_nothing(api, body, token_kind):
    game = open_game(api)
    token = player(api)["token"] if token_kind == "player" else None
    before = api.view(game)["version"]

    answer = join(api, game, token, body=body)

    assert answer.status_code == 400 and answer.get_json()["code"] == "malformed"
    assert api.view(game)["version"] == before


def test_a_guest_gives_a_name_and_a_player_may_give_another_than_their_own(api):
    game, ann = open_game(api), player(api, "Ann")
    for body in (None, {}, {"seat": 1}):
        answer = join(api, game, body=body)
        assert answer.status_code == 401 and answer.get_json()["code"] == "unauthenticated"

    joined = join(api, game, ann["token"], body={"name": "Annie"}).get_json()

    assert joined["game"]["seats"][joined["seat"]]["name"] == "Annie"
    assert joined["events"][0]["data"] == {"seat": joined["seat"], "name": "Annie", "player": ann["id"]}


def test_the_operator_takes_no_seat_and_a_started_or_unknown_game_none(api):
    game = open_game(api, seats=("Host", None))
    refusal = join(api, game, OPERATOR_TOKEN, body={"name": "Op"})
    assert refusal.status_code == 403
    missing = api.post(f"/v1/games/{uuid.uuid4()}/join", json={"name": "Bob"})
    assert missing.status_code == 404
    full = api.create()
    assert refused(join(api, full, body={"name": "Bob"}), "no_open_seat")


@pytest.mark.parametrize("variant", GAME_TYPES)
def test_a_seat_left_is_open_again_and_its_token_stops_working(api, variant):
    game = open_game(api, variant)
    bob = join(api, game, body={"name": "Bob"}).get_json()["token"]

    left = api.post(f"{game.url}/leave", token=bob)

    assert left.status_code == 200, left.get_json()
    assert "you" not in left.get_json()["game"]  # the public's view: the seat is no longer the caller's
    assert [s["open"] for s in api.view(game)["seats"]] == [False, True, True]
    assert api.get(game.url, token=bob).status_code == 401
    again = join(api, game, body={"name": "Cy"}).get_json()
    assert again["seat"] == 1 and again["token"] != bob
    assert api.get(game.url, token=bob).status_code == 401


def test_a_seat_named_at_creation_may_leave_too_and_a_player_may_come_back(api):
    game, ann = open_game(api), player(api)
    assert api.post(f"{game.url}/leave", token=game.tokens[0]).status_code == 200
    assert api.get(game.url, token=game.tokens[0]).status_code == 401
    join(api, game, ann["token"], body={"seat": 2})

    assert api.post(f"{game.url}/leave", token=ann["token"]).status_code == 200
    assert "you" not in api.view(game, ann["token"])
    assert refused(api.post(f"{game.url}/leave", token=ann["token"]), "not_seated")
    assert join(api, game, ann["token"]).get_json()["seat"] == 0


@pytest.mark.parametrize("variant", GAME_TYPES)
def test_after_the_first_deal_no_seat_may_leave(api, variant):
    game, ann = open_game(api, variant, seats=("Host", None)), player(api)
    join(api, game, ann["token"])
    assert api.post(f"{game.url}/deal", json={}, token=game.tokens[0]).status_code == 200

    for token in (ann["token"], game.tokens[0]):
        assert refused(api.post(f"{game.url}/leave", token=token), "game_started")


def test_only_a_seat_leaves(api):
    game = open_game(api)
    assert api.post(f"{game.url}/leave").status_code == 401
    assert api.post(f"{game.url}/leave", token=OPERATOR_TOKEN).status_code == 403


# -- idempotent joins ------------------------------------------------------------


def test_a_guests_join_retried_under_its_key_gets_the_same_seat_and_token(api, operator):
    game, key = open_game(api), {"Idempotency-Key": str(uuid.uuid4())}
    first = join(api, game, body={"name": "Bob"}, headers=key).get_json()

    again = join(api, game, body={"name": "Bob"}, headers=key)

    assert again.status_code == 200 and again.get_json() == first
    assert api.view(game, first["token"])["you"] == first["seat"]
    assert sum(e["type"] == "SeatJoined" for e in api.events(game, operator)) == 1
    other = join(api, game, body={"name": "Cy"}, headers=key)
    assert other.status_code == 422 and other.get_json()["code"] == "idempotency_key_reused"


def test_a_players_join_retried_under_its_key_gets_the_same_answer_not_already_seated(api, operator):
    game, ann, key = open_game(api), player(api), {"Idempotency-Key": "join-1"}
    first = join(api, game, ann["token"], headers=key).get_json()

    again = join(api, game, ann["token"], headers=key)

    assert again.status_code == 200 and again.get_json() == first
    assert sum(e["type"] == "SeatJoined" for e in api.events(game, operator)) == 1


def test_a_guests_key_must_be_a_secret_random_value(api):
    game = open_game(api)
    answer = join(api, game, body={"name": "Bob"}, headers={"Idempotency-Key": "join-bob-1"})
    assert answer.status_code == 422 and answer.get_json()["code"] == "idempotency_key_not_random"
    assert all(s["open"] for s in api.view(game)["seats"][1:])


def test_a_join_retried_after_its_seat_was_left_gets_no_token_that_does_not_work(api):
    game, key = open_game(api), {"Idempotency-Key": str(uuid.uuid4())}
    first = join(api, game, body={"name": "Bob"}, headers=key).get_json()
    api.post(f"{game.url}/leave", token=first["token"])

    again = join(api, game, body={"name": "Bob"}, headers=key)

    assert again.status_code == 409 and again.get_json()["code"] == "idempotency_key_stale"


def test_a_players_leave_retried_under_its_key_gets_its_first_answer(api, operator):
    game, ann, key = open_game(api), player(api), {"Idempotency-Key": "leave-1"}
    join(api, game, ann["token"])
    first = api.post(f"{game.url}/leave", token=ann["token"], headers=key)

    again = api.post(f"{game.url}/leave", token=ann["token"], headers=key)

    assert first.status_code == again.status_code == 200 and again.get_json() == first.get_json()
    assert sum(e["type"] == "SeatLeft" for e in api.events(game, operator)) == 1


def test_concurrent_retries_of_a_guests_join_all_get_the_same_seat_and_token(app, api):
    game, key = open_game(api), {"Idempotency-Key": str(uuid.uuid4())}
    answers = race(app, game, [({"name": "Bob"}, None, key)] * 6)
    assert {status for status, _ in answers} == {200}
    assert len({(a["seat"], a["token"]) for _, a in answers}) == 1


# -- the race for the last seat ---------------------------------------------------


def race(apps, game, requests):
    """Send each ``(body, token, headers)`` at once, each from its own thread
    (to the apps in turn): the answers' statuses and bodies."""
    apps = apps if isinstance(apps, list) else [apps]
    barrier = threading.Barrier(len(requests))
    answers: list = [None] * len(requests)

    def send(n, body, token, headers):
        client = apps[n % len(apps)].test_client()
        headers = {**(headers or {}), **({"Authorization": f"Bearer {token}"} if token else {})}
        barrier.wait()
        answer = client.post(f"{game.url}/join", json=body, headers=headers)
        answers[n] = (answer.status_code, answer.get_json())

    threads = [threading.Thread(target=send, args=(n, *request)) for n, request in enumerate(requests)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return answers


@pytest.mark.parametrize("variant", GAME_TYPES)
@pytest.mark.parametrize("attempt", range(3))
def test_two_workers_racing_for_the_last_seat_never_both_get_it(app_for, database_url, variant, attempt):
    """On PostgreSQL, two apps (two workers, each with its own cache), six
    clients at once: every seat goes to one client, and the rest are refused."""
    from tests.api.conftest import Api

    apps = [app_for(), app_for()]
    api = Api(apps[0], apps[0].test_client())
    game = open_game(api, variant, seats=("Host", None, None))
    players = [player(api, f"P{n}")["token"] for n in range(3)]
    requests = [({"name": f"G{n}"}, None, None) for n in range(3)] + [(None, token, None) for token in players]

    answers = race(apps, game, requests)

    won = [(body["seat"], body.get("token") or token) for (status, body), (_, token, _) in zip(answers, requests)
           if status == 200]
    assert sorted(seat for seat, _ in won) == [1, 2], answers
    assert all(status == 200 or body.get("rule") in ("no_open_seat", "seat_taken") for status, body in answers), \
        answers
    assert [s["open"] for s in api.view(game)["seats"]] == [False, False, False]
    for seat, token in won:  # each winner's token acts for the seat it won
        assert api.view(game, token)["you"] == seat


@pytest.mark.parametrize("attempt", range(3))
def test_two_clients_asking_for_the_same_seat_one_wins_the_other_is_told_seat_taken(app_for, database_url, attempt):
    from tests.api.conftest import Api

    apps = [app_for(), app_for()]
    api = Api(apps[0], apps[0].test_client())
    game = open_game(api, seats=("Host", None, None))

    answers = race(apps, game, [({"name": "Bob", "seat": 2}, None, None), ({"name": "Cy", "seat": 2}, None, None)])

    statuses = sorted((status, body.get("rule")) for status, body in answers)
    assert statuses == [(200, None), (422, "seat_taken")], answers
    assert [s["open"] for s in api.view(game)["seats"]] == [False, True, False]


@pytest.mark.parametrize("variant", GAME_TYPES)
def test_a_game_with_a_computer_starts_once_its_open_seat_is_joined(api, variant):
    """The computer deals as soon as the last open seat is taken: the game
    starts like any other, with the computer seat as it was."""
    created = api.post("/v1/games", json={"variant": variant, "first_dealer": 0, "seats": [
        {"name": "Computer", "computer": True}, {"open": True}]})
    assert created.status_code == 201
    game = Open(created.get_json()["id"], [None, None])
    assert api.view(game)["status"] == "waiting"
    ann = player(api)

    assert join(api, game, ann["token"]).status_code == 200

    # The computer deals, and does what else falls to it, after the join's answer.
    view = api.wait_view(game, lambda v: (v.get("awaiting") or {}).get("seats") == [1], ann["token"])
    assert view["status"] != "waiting" and view["you"] == 1 and view["hand"]

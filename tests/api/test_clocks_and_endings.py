"""Resigning, aborting and clocks over HTTP (docs/rules.md, "Seats,
resigning and clocks"): the answers, the view's ``clock`` and ``result``,
and a time-out the service appends by itself, in the log, the replay and
verify like any event."""

from __future__ import annotations

import time

import pytest

from service.web.current import services
from tests.api.conftest import first_actions
from tests.conftest import OPERATOR_TOKEN
from .conftest import DEADLINES_ON_CITUS


def created(api, variant="cassino", **extra):
    response = api.post("/v1/games", json={"variant": variant, "seats": [{"name": "Ann"}, {"name": "Bob"}],
                                           "first_dealer": 0, **extra})
    assert response.status_code == 201, response.get_json()
    answer = response.get_json()
    return f"/v1/games/{answer['id']}", [s["token"] for s in answer["seats"]]


@pytest.mark.parametrize("variant", ["cassino", "mass-cool-casino"])
def test_a_seat_resigns_and_the_other_wins(api, variant):
    url, tokens = created(api, variant)
    assert api.post(f"{url}/deal", json={}, token=tokens[0]).status_code == 200
    answer = api.post(f"{url}/resign", token=tokens[1])
    assert answer.status_code == 200, answer.get_json()
    game = answer.get_json()["game"]
    assert (game["status"], game["result"], game["winners"]) == ("finished", "resigned", [0])
    assert api.post(f"{url}/resign", token=tokens[0]).get_json()["rule"] == "game_over"
    for token in (None, OPERATOR_TOKEN):
        refused = api.post(f"{url}/resign", token=token)
        assert refused.status_code in (401, 403)


@pytest.mark.parametrize("variant", ["cassino", "mass-cool-casino"])
def test_a_seat_aborts_before_the_first_play_and_not_after(api, variant):
    url, tokens = created(api, variant)
    answer = api.post(f"{url}/abort", json={}, token=tokens[1])
    assert answer.status_code == 200
    game = answer.get_json()["game"]
    assert (game["result"], game["winners"]) == ("aborted", [])
    url, tokens = created(api, variant)
    api.post(f"{url}/deal", json={}, token=tokens[0])
    moves = api.get(f"{url}/moves", token=tokens[api.get(url).get_json()["turn"]]).get_json()["moves"]
    api.post(f"{url}/play", json=moves[0], token=tokens[api.get(url).get_json()["turn"]])
    refused = api.post(f"{url}/abort", token=tokens[0])
    assert refused.status_code == 422 and refused.get_json()["rule"] == "already_played"


@pytest.mark.parametrize("body", [{"clock": {"per_move_seconds": 0}}, {"clock": {"per_move_seconds": 5,
                                  "initial_seconds": 5}}, {"clock": "fast"}, {"on_timeout": "pass"},
                                  {"clock": {"per_move_seconds": 5}, "on_timeout": "wait"}])
def test_a_clock_is_checked_at_creation(api, body):
    response = api.post("/v1/games", json={"seats": 2, **body})
    assert response.status_code == 400 and response.get_json()["code"] == "malformed", response.get_json()


def test_the_view_shows_the_clock_and_its_deadline(api):
    url, tokens = created(api, clock={"initial_seconds": 300, "increment_seconds": 5}, on_timeout="computer")
    clock = api.get(url).get_json()["clock"]
    assert clock["initial_seconds"] == 300 and clock["increment_seconds"] == 5 and clock["on_timeout"] == "computer"
    assert clock["seat"] == 0 and clock["deadline"].endswith("Z")
    assert [s["remaining_ms"] for s in clock["seats"]] == [300000, 300000]


@pytest.mark.not_on_citus(DEADLINES_ON_CITUS)
@pytest.mark.both_wirings
def test_a_seat_that_does_not_act_times_out_and_the_service_appends_it(api, app, wiring):
    url, tokens = created(api, clock={"per_move_seconds": 1})
    deadline = first_actions(api, url, tokens)["clock"]["deadline"]  # seat 0's second action: its 1 s
    move = api.get(f"{url}/moves", token=tokens[0]).get_json()["moves"][0]
    time.sleep(1.1)
    late = api.post(f"{url}/play", json=move, token=tokens[0])
    assert late.status_code == 422 and late.get_json()["rule"] == "time_out"
    assert deadline in late.get_json()["detail"]  # says when the time ran out
    assert services(app).keeper.tick() >= 1  # a shared database may hold other tests' due games
    view = api.get(url).get_json()
    assert (view["status"], view["result"], view["winners"]) == ("finished", "timed_out", [1])
    events = api.get(f"{url}/events").get_json()["events"]
    assert [e["type"] for e in events][-3:] == ["TimedOut", "SeedRevealed", "GameFinished"]
    assert events[-3]["data"] == {"seat": 0, "computer": False}
    replayed = api.get(f"{url}/replay?version={events[-4]['version']}", token=OPERATOR_TOKEN).get_json()
    assert replayed["clock"]["deadline"] == deadline  # the clock as it stood
    verified = api.get(f"{url}/verify", token=OPERATOR_TOKEN).get_json()
    assert verified["ok"], [c for c in verified["checks"] if not c["ok"]]

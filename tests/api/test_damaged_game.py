"""A game whose events were changed behind the service's back so that they
no longer fold: the operator can still read its stored log and replay it up
to the damage; every read that needs the game itself answers a problem
naming the first bad version."""

import pytest

from service.cache import StateCache
from service.web.current import services

from .conftest import GLOBAL_ORDER_ON_CITUS, ORDERED_DECK


@pytest.fixture
def damaged(api, operator, tamper):
    """A game ten events long whose version 6 (a play) lost its card."""
    game = api.create(first_dealer=1)
    api.deal(game, ORDERED_DECK)
    api.play(game, steps=6)
    assert api.view(game)["version"] >= 8
    tamper("UPDATE events SET data = data - 'card' WHERE game_id = %s AND version = 6", (game.id,))
    forget_games(api)
    return game


def forget_games(api):
    """As after a restart: the service's cache no longer holds the games."""
    services(api.app).games.cache = StateCache()


def assert_corrupt(response, game, version=6):
    assert response.status_code == 500
    body = response.get_json()
    assert body["code"] == "corrupt_game"
    assert body["first_bad_version"] == version
    assert body["verify"] == f"{game.url}/verify" and body["verify"] in body["detail"]


def test_reads_that_need_the_game_name_the_damage(api, operator, damaged):
    for token in (None, damaged.tokens[0], operator):
        assert_corrupt(api.get(damaged.url, token=token), damaged)
    assert_corrupt(api.get(f"{damaged.url}/moves", token=damaged.tokens[0]), damaged)
    assert_corrupt(api.get(f"{damaged.url}/events", token=damaged.tokens[0]), damaged)
    assert_corrupt(api.post(f"{damaged.url}/play", token=damaged.tokens[0],
                            json={"card": "AS", "action": "trail"}), damaged)


def stored_log(api, game, token) -> list[dict]:
    """The whole log as the operator reads it, past the spec check: a damaged
    event is shown as stored, which fits no event's schema (the spec's
    ``Event`` says so)."""
    page = api.client.get(f"{game.url}/events?after=0&limit=500", headers={"Authorization": f"Bearer {token}"})
    assert page.status_code == 200 and page.get_json()["next"] is None
    return page.get_json()["events"]


def test_the_operator_reads_the_whole_stored_log(api, operator, damaged, database_url):
    events = stored_log(api, damaged, operator)
    assert [e["version"] for e in events] == list(range(1, len(events) + 1))
    assert "card" not in events[5]["data"]
    page = api.get(f"{damaged.url}/events?after=0&limit=3", token=operator).get_json()
    assert page["version"] == len(events) and page["next"] == 3


def test_replay_works_up_to_the_version_before_the_damage(api, operator, damaged):
    before = api.get(f"{damaged.url}/replay?version=5", token=operator)
    assert before.status_code == 200 and before.get_json()["version"] == 5
    assert_corrupt(api.get(f"{damaged.url}/replay?version=6", token=operator), damaged)
    assert_corrupt(api.get(f"{damaged.url}/replay?version=5"), damaged)


def test_a_break_in_the_chain_before_the_unfoldable_event_is_the_first_bad_version(
        api, operator, damaged, tamper):
    tamper("UPDATE events SET data = data || '{\"forged\": true}'"
           " WHERE game_id = %s AND version = 4", (damaged.id,))
    forget_games(api)
    assert_corrupt(api.get(damaged.url, token=operator), damaged, version=4)


def test_verify_names_the_event_that_does_not_fold(api, operator, damaged):
    checks = {c["name"]: c for c in api.get(f"{damaged.url}/verify", token=operator).get_json()["checks"]}
    assert checks["projection"]["first_bad_version"] == 6
    assert "Version 6 (" in checks["projection"]["detail"]


@pytest.mark.not_on_citus(GLOBAL_ORDER_ON_CITUS)
def test_an_event_of_a_type_no_game_has_is_shown_to_the_operator_as_stored(api, operator, tamper):
    """Its type changed behind the service's back: the game's log and the
    global feed still answer the operator (the damage is theirs to see);
    everyone else gets the problem."""
    game = api.create(first_dealer=1)
    api.deal(game, ORDERED_DECK)
    api.play(game, steps=4)
    tamper("UPDATE events SET type = 'Bogus' WHERE game_id = %s AND version = 4", (game.id,))
    forget_games(api)

    # A row of no type the spec names is outside the contract: read it with the bare client.
    as_operator = {"Authorization": f"Bearer {operator}"}
    log = api.client.get(f"{game.url}/events", headers=as_operator)
    assert log.status_code == 200 and log.get_json()["events"][3]["type"] == "Bogus"
    after = log.get_json()["events"][0]["position"] - 1
    feed = api.client.get(f"/v1/events?after={after}&limit=500", headers=as_operator)
    assert feed.status_code == 200 and "Bogus" in [e["type"] for e in feed.get_json()["events"]]
    assert_corrupt(api.get(f"{game.url}/events", token=game.tokens[0]), game, version=4)


def test_verify_says_in_a_sentence_why_the_events_do_not_fold(api, operator, damaged):
    body = api.get(f"{damaged.url}/verify", token=operator).get_json()
    [projection] = [c for c in body["checks"] if c["name"] == "projection"]
    assert projection["ok"] is False and projection["first_bad_version"] == 6
    assert "cannot be applied to the game before it" in projection["detail"]
    assert "Error" not in projection["detail"] and "tuple" not in projection["detail"]


def test_replay_stops_before_an_event_that_was_changed_even_if_the_game_still_folds(api, operator, tamper):
    """An edit that still folds (a recorded_at moved) breaks the chain: the
    operator's replay shows the game up to the version before it, no further."""
    game = api.create(first_dealer=1)
    api.deal(game, ORDERED_DECK)
    api.play(game, steps=4)
    tamper("UPDATE events SET recorded_at = '2001-02-03 04:05:06Z' WHERE game_id = %s AND version = 4",
           (game.id,))
    forget_games(api)

    assert api.get(f"{game.url}/replay?version=3", token=operator).status_code == 200
    assert_corrupt(api.get(f"{game.url}/replay?version=4", token=operator), game, version=4)
    assert_corrupt(api.get(f"{game.url}/replay?version=5", token=operator), game, version=4)

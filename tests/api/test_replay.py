"""GET /v1/games/{id}/replay?version=N: the game as it was, every hand face up
for the operator, and for everyone else what the event log shows them."""

import pytest

from .conftest import ONE_HAND, ORDERED_DECK


# On both wirings: the HTTP API on PostgreSQL as well as in memory.
pytestmark = pytest.mark.both_wirings


def test_the_replay_of_each_version_is_the_operators_view_as_it_was(api, operator):
    game = api.create(first_dealer=1)
    seen = [api.view(game, operator)]
    api.deal(game, ORDERED_DECK)
    for step in range(5):
        seen.append(api.view(game, operator))
        api.play(game, steps=1, seed=step)

    for view in seen:
        response = api.get(f"{game.url}/replay?version={view['version']}", token=operator)
        assert response.status_code == 200 and response.headers["ETag"] == f'"{view["version"]}"'
        assert response.get_json() == view
    assert seen[1]["hands"][0] == ["AS", "2S", "7S", "8S"]


def test_before_the_end_only_the_operator_may_replay(api):
    game = api.create()
    api.deal(game, ORDERED_DECK)
    public = api.get(f"{game.url}/replay?version=1")
    seat = api.get(f"{game.url}/replay?version=1", token=game.tokens[0])
    assert public.status_code == 401 and seat.status_code == 403
    assert "finished" in seat.get_json()["detail"]


def test_once_the_game_is_finished_anyone_may_replay_it(api, operator):
    game = api.create(first_dealer=1, options=ONE_HAND)
    dealt = api.deal(game, ORDERED_DECK).get_json()["version"]
    api.play(game)

    for token in (None, game.tokens[1]):
        response = api.get(f"{game.url}/replay?version={dealt}", token=token)
        assert response.status_code == 200
        assert response.get_json()["hands"][1] == ["5S", "6S", "JS", "QS"]
    final = api.view(game, operator)
    assert api.get(f"{game.url}/replay?version={final['version']}").get_json() == final


def test_a_finished_game_with_a_private_log_replays_only_what_each_caller_saw(api, operator):
    game = api.create(first_dealer=1, options={**ONE_HAND, "public_log": False})
    dealt = api.deal(game, ORDERED_DECK).get_json()["version"]
    api.play(game)

    public = api.get(f"{game.url}/replay?version={dealt}").get_json()
    seat = api.get(f"{game.url}/replay?version={dealt}", token=game.tokens[1]).get_json()
    assert "hands" not in public and "stock" not in public and "hand" not in public
    assert "hands" not in seat and "stock" not in seat and seat["hand"] == ["5S", "6S", "JS", "QS"]
    # The same as the log shows them: seat 1 sees its own hand dealt, no other.
    deal = next(e for e in api.events(game, token=game.tokens[1]) if e["type"] == "HandDealt")
    assert deal["data"]["hands"] == [None, seat["hand"]] and deal["data"]["deck"] is None
    full = api.get(f"{game.url}/replay?version={dealt}", token=operator).get_json()
    assert full["hands"][0] == ["AS", "2S", "7S", "8S"] and full["stock"]


def test_a_version_the_game_has_not_reached_is_404_and_no_version_is_400(api, operator):
    game = api.create()
    at = game.created["version"]
    beyond = api.get(f"{game.url}/replay?version={at + 1}", token=operator)
    assert beyond.status_code == 404 and f"at version {at}" in beyond.get_json()["detail"]
    for query in ("", "?version=0", "?version=two"):
        response = api.get(f"{game.url}/replay{query}", token=operator)
        assert response.status_code == 400 and response.get_json()["errors"][0]["field"] == "version"

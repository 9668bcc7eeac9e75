"""Many clients sending the same next move at once: exactly one lands."""

import threading

import pytest

from .conftest import ORDERED_DECK


def race(app, game, headers, clients=8):
    barrier = threading.Barrier(clients)
    statuses = []

    def send():
        client = app.test_client()
        barrier.wait()
        answer = client.post(f"{game.url}/play", json={"card": "AS", "action": "trail"},
                             headers={"Authorization": f"Bearer {game.tokens[0]}", **headers})
        statuses.append((answer.status_code, (answer.get_json() or {}).get("rule")))

    threads = [threading.Thread(target=send) for _ in range(clients)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return statuses


@pytest.mark.parametrize("attempt", range(3))
def test_with_if_match_one_lands_and_every_other_gets_412(app, api, operator, attempt):
    game = api.create(first_dealer=1)
    api.deal(game, ORDERED_DECK)
    now = api.view(game)["version"]
    statuses = [s for s, _ in race(app, game, {"If-Match": f'"{now}"'})]
    assert statuses.count(200) == 1 and statuses.count(412) == 7
    assert [e["version"] for e in api.events(game, operator)] == list(range(1, now + 2))


def test_without_if_match_the_others_get_409_or_see_the_move_made(app, api, operator):
    """A racer that read the game before the winner committed gets 409; one
    that read it after sees the card already played."""
    game = api.create(first_dealer=1)
    api.deal(game, ORDERED_DECK)
    now = api.view(game)["version"]
    statuses = race(app, game, {})
    assert [s for s, _ in statuses].count(200) == 1
    assert all(s == 409 or (s, rule) == (422, "not_your_turn") for s, rule in statuses if s != 200)
    assert [e["version"] for e in api.events(game, operator)] == list(range(1, now + 2))

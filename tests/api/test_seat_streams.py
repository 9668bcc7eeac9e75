"""A seat's live stream while its game waits for players: once the seat is
left, the stream ends with that event, so whoever held the seat sees
nothing of the one who takes it next (their hand, once dealt). On both
wirings."""

from __future__ import annotations

import pytest

from tests.api.test_join import join, open_game, player
from tests.api.test_stream import Reader

pytestmark = pytest.mark.both_wirings


@pytest.fixture
def app(app_for):
    return app_for(STREAM_MAX_SECONDS=5.0, STREAM_POLL_SECONDS=30.0, STREAM_KEEPALIVE_SECONDS=30.0)


@pytest.mark.parametrize("variant", ["cassino", "mass-cool-casino"])
@pytest.mark.parametrize("who", ["guest", "player"])
def test_a_seats_stream_ends_when_the_seat_is_left_and_shows_nothing_of_the_next_holder(app, api, variant, who):
    game = open_game(api, variant, seats=("Host", None), first_dealer=0)
    if who == "guest":
        token = join(api, game, body={"name": "Bob"}).get_json()["token"]
    else:
        token = player(api, "Bob")["token"]
        join(api, game, token)
    joined = api.view(game)["version"]
    # From the join on: the test client returns once the stream has sent something.
    reader = Reader(app.test_client(), f"{game.url}/events/stream?after={joined - 1}",
                    headers={"Authorization": f"Bearer {token}"})

    left = api.post(f"{game.url}/leave", token=token).get_json()["version"]
    cy = join(api, game, body={"name": "Cy"}).get_json()
    assert api.post(f"{game.url}/deal", json={}, token=game.tokens[0]).status_code == 200
    reader.join(timeout=5)

    assert not reader.is_alive()  # it ended: it did not wait for its time to be up
    assert reader.versions() == [joined, left]
    mine = api.view(game, cy["token"])
    assert mine["you"] == 1 and mine["hand"]

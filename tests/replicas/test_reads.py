"""Reads on the hot standby (``CASINO_REPLICA_URL``), never older than what
their client has seen.

The standby is a real one, and a lagging one is real too: its replay is
paused (``pg_wal_replay_pause()``), so that it stays behind the primary for
as long as a test needs."""

from __future__ import annotations

import json
from collections.abc import Iterator

import pytest

from service.ops import cli
from service.web.app import close_app, create_app
from tests.api.conftest import ORDERED_DECK, Api
from tests.api.test_stream_fanout import metric
from tests.conftest import OPERATOR_TOKEN, TEST_SETTINGS

pytestmark = pytest.mark.postgres

ON_REPLICA = 'casino_routed_reads_total{source="replica"}'
ON_PRIMARY = 'casino_routed_reads_total{source="primary"}'


@pytest.fixture
def api(pair) -> Iterator[Api]:
    app = create_app({**TEST_SETTINGS, "DATABASE_URL": pair.url(), "REPLICA_URL": pair.replica_url(),
                      "REPLICA_WAIT": 0.2})
    yield Api(app, app.test_client())
    close_app(app)


@pytest.fixture
def lagging(pair) -> Iterator[None]:
    """The standby, caught up and then kept from replaying anything more."""
    pair.caught_up()
    pair.pause_replay()
    yield
    pair.resume_replay()


def dealt(api):
    game = api.create(first_dealer=1)
    api.deal(game, ORDERED_DECK)
    return game


def counted(api, read) -> tuple[object, float, float]:
    """``read()``, and how many routed reads the replica and the primary answered meanwhile."""
    replica, primary = metric(api, ON_REPLICA), metric(api, ON_PRIMARY)
    found = read()
    return found, metric(api, ON_REPLICA) - replica, metric(api, ON_PRIMARY) - primary


def test_a_spectators_reads_come_from_the_standby(api, pair):
    game = dealt(api)
    pair.caught_up()

    view, on_replica, on_primary = counted(api, lambda: api.get(game.url))
    assert view.status_code == 200 and view.get_json()["version"] == 3
    assert (on_replica, on_primary) == (1, 0)
    assert int(view.headers["Consistency-Token"]) > 0

    log, on_replica, _ = counted(api, lambda: api.get(f"{game.url}/events"))
    assert [e["version"] for e in log.get_json()["events"]] == [1, 2, 3] and on_replica == 1
    listing, on_replica, _ = counted(api, lambda: api.get(f"/v1/games?player={game.created['seats'][0]['name']}",
                                                          token=OPERATOR_TOKEN))
    assert game.id in [g["id"] for g in listing.get_json()["games"]] and on_replica == 1


def test_a_standby_behind_answers_what_it_has_to_a_client_that_says_nothing(api, pair, lagging):
    """How it can be told that the reads go to the standby: one whose replay
    is paused shows the game as it was."""
    game = api.create(first_dealer=1)  # after the pause: the standby does not have it
    assert api.get(game.url).status_code == 200  # not there: the primary answers, never a 404
    version = api.deal(game, ORDERED_DECK).get_json()["version"]
    pair.resume_replay()
    pair.caught_up()
    pair.pause_replay()
    api.play(game, steps=1)

    assert api.get(game.url).get_json()["version"] == version  # the standby's, a command behind


def test_a_read_after_a_command_is_never_older_than_the_command(api, pair, lagging):
    game = dealt(api)
    played = api.post(f"{game.url}/play", json=_first_move(api, game), token=game.tokens[0])
    assert played.status_code == 200
    version, token = played.get_json()["version"], played.headers["Consistency-Token"]

    by_version, on_replica, on_primary = counted(api, lambda: api.get(f"{game.url}?min_version={version}"))
    assert by_version.get_json()["version"] == version and (on_replica, on_primary) == (0, 1)
    unchanged = api.get(game.url, headers={"If-None-Match": f'"{version}"'})
    assert unchanged.status_code == 304 and unchanged.headers["ETag"] == f'"{version}"'
    by_token = api.get(game.url, headers={"Consistency-Token": token})
    assert by_token.get_json()["version"] == version
    page = api.get(f"{game.url}/events?after={version - 1}", headers={"Consistency-Token": token})
    assert [e["version"] for e in page.get_json()["events"]] == [version]
    listed = api.get(f"/v1/games?player={game.created['seats'][0]['name']}", token=OPERATOR_TOKEN,
                     headers={"Consistency-Token": token}).get_json()["games"]
    assert [g["version"] for g in listed if g["id"] == game.id] == [version]

    # Once the standby has replayed the command, it answers the same reads.
    pair.resume_replay()
    pair.caught_up()
    again, on_replica, on_primary = counted(api, lambda: api.get(f"{game.url}?min_version={version}",
                                                                 headers={"Consistency-Token": token}))
    assert again.get_json()["version"] == version and (on_replica, on_primary) == (1, 0)


def test_a_token_from_the_standby_keeps_later_reads_from_going_back(api, pair, lagging):
    """A client shown the game by the primary (the standby was behind what
    it had seen) is never shown it older by the standby afterwards."""
    game = dealt(api)
    seen = api.get(game.url, headers={"If-None-Match": '"3"'})  # the standby has no version 3: the primary's
    assert seen.status_code == 304
    for _ in range(3):
        again = api.get(game.url, headers={"Consistency-Token": seen.headers["Consistency-Token"]})
        assert again.status_code == 200 and again.get_json()["version"] == 3


def test_the_global_log_after_a_command_holds_the_command(api, pair, lagging):
    (marker,) = pair.primary.sql("SELECT max(position) FROM events", database="casino")[0]
    game = api.create(first_dealer=1)
    dealt_ = api.deal(game, ORDERED_DECK)

    page = api.get(f"/v1/events?after={marker}&limit=500", token=OPERATOR_TOKEN,
                   headers={"Consistency-Token": dealt_.headers["Consistency-Token"]})
    assert [e["version"] for e in page.get_json()["events"] if e["game_id"] == game.id] == [1, 2, 3]


def test_a_standby_that_cannot_be_reached_leaves_the_reads_to_the_primary(pair):
    app = create_app({**TEST_SETTINGS, "DATABASE_URL": pair.url(),
                      "REPLICA_URL": f"postgresql://postgres@/casino?host={pair.standby.socket}/nothing-here"})
    api = Api(app, app.test_client())
    try:
        game = dealt(api)
        view, on_replica, on_primary = counted(api, lambda: api.get(game.url))
        assert view.get_json()["version"] == 3 and (on_replica, on_primary) == (0, 1)
    finally:
        close_app(app)


def _first_move(api, game) -> dict:
    moves = api.get(f"{game.url}/moves", token=game.tokens[0]).get_json()["moves"]
    return moves[0]


def test_the_lobby_and_a_players_games_come_from_the_standby_never_older_than_a_join(api, pair, lagging):
    ann = api.post("/v1/players", json={"name": "Ann"}).get_json()
    game = api.post("/v1/games", json={"seats": [{"name": "Host"}, {"open": True}]}).get_json()
    pair.resume_replay()
    pair.caught_up()
    pair.pause_replay()

    lobby, on_replica, on_primary = counted(api, lambda: api.get("/v1/lobby"))
    assert game["id"] in [g["id"] for g in lobby.get_json()["games"]] and (on_replica, on_primary) == (1, 0)
    joined = api.post(f"/v1/games/{game['id']}/join", token=ann["token"])
    assert joined.status_code == 200
    token = joined.headers["Consistency-Token"]

    stale = api.get("/v1/players/me/games", token=ann["token"]).get_json()["games"]
    assert stale == []  # the standby's, from before the join: the client said nothing of it
    mine, on_replica, on_primary = counted(
        api, lambda: api.get("/v1/players/me/games", token=ann["token"], headers={"Consistency-Token": token}))
    assert [g["id"] for g in mine.get_json()["games"]] == [game["id"]] and (on_replica, on_primary) == (0, 1)
    after = api.get("/v1/lobby", headers={"Consistency-Token": token}).get_json()["games"]
    assert game["id"] not in [g["id"] for g in after]  # full now, as the join left it


def test_an_operator_verifies_and_exports_a_game_from_the_standby(api, pair, monkeypatch, capsys, tmp_path):
    """``casino verify`` and ``casino export`` only read: pointed at the
    standby, they audit the primary's games without a query on the primary."""
    game = dealt(api)
    api.play(game, steps=4)
    pair.caught_up()
    exported = {}
    for where, url in (("primary", pair.url()), ("standby", pair.replica_url())):
        with monkeypatch.context() as patched:
            patched.setenv("DATABASE_URL", url)
            patched.setenv("CASINO_OPERATOR_TOKEN", OPERATOR_TOKEN)
            assert cli.main(["verify", game.id]) == 0, capsys.readouterr()
            assert cli.main(["export", game.id, "-o", str(tmp_path / where)]) == 0, capsys.readouterr()
        exported[where] = (tmp_path / where).read_text()
    assert len(json.loads(exported["standby"])["events"]) == api.view(game)["version"]
    assert exported["standby"] == exported["primary"]

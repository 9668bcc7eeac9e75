"""Each caller's share of a worker's live streams (``service.stream_limits``):
past it, 429 with ``Retry-After``, counted in ``/metrics``, and nobody
else's streams are refused for it."""

from __future__ import annotations

import pytest

from service.web.app import create_app
from service.memory import wiring as memory_wiring
from tests.conftest import TEST_SETTINGS
from tests.service.spec_check import check

from .conftest import ORDERED_DECK, OPERATOR_TOKEN, Api
from .test_stream_fanout import metric

LIMITS = {"STREAM_LIMIT_SEAT": 2, "STREAM_LIMIT_OPERATOR": 3, "STREAM_LIMIT_ADDRESS": 2,
          "TRUSTED_PROXIES": "10.0.0.0/8, fd00::1"}


@pytest.fixture
def app(app_for):
    return app_for(STREAM_MAX_SECONDS=10.0, STREAM_POLL_SECONDS=30.0, STREAM_KEEPALIVE_SECONDS=30.0,
                   STREAM_MAX_OPEN=100, **LIMITS)


@pytest.fixture
def game(api):
    game = api.create(first_dealer=1)
    api.deal(game, ORDERED_DECK)
    return game


class Streams:
    """Streams opened and held open, closed at the end of the test."""

    def __init__(self, api: Api):
        self.api = api
        self.held = []

    def open(self, game, *, token=None, peer="127.0.0.1", forwarded=None, query=""):
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        if forwarded is not None:
            headers["X-Forwarded-For"] = forwarded
        response = self.api.client.get(f"{game.url}/events/stream{query}", headers=headers,
                                       environ_base={"REMOTE_ADDR": peer})
        check("GET", "/v1/games/<uuid:game_id>/events/stream", response.status_code, response.headers,
              b"" if response.status_code == 200 else response.get_data())
        if response.status_code == 200:
            self.held.append(response)
        return response

    def close(self, response) -> None:
        self.held.remove(response)
        response.close()

    def close_all(self) -> None:
        for response in self.held:
            response.close()


@pytest.fixture
def streams(api):
    opened = Streams(api)
    yield opened
    opened.close_all()


def refused(response, who: str) -> None:
    assert response.status_code == 429 and response.mimetype == "application/problem+json"
    body = response.get_json()
    assert body["code"] == "too_many_streams" and body["status"] == 429
    assert body["detail"].startswith(who)
    assert int(response.headers["Retry-After"]) > 0


def over_limit(api, kind: str) -> float:
    """Refusals of ``kind`` of caller counted so far (none yet: no series)."""
    series = f'casino_streams_refused_over_caller_limit_total{{caller="{kind}"}}'
    return metric(api, series) if series in api.get("/metrics").get_data(as_text=True) else 0.0


def test_a_seat_past_its_share_is_refused_and_others_are_not(api, game, streams):
    counted = over_limit(api, "seat")
    assert [streams.open(game, token=game.tokens[0]).status_code for _ in range(2)] == [200, 200]
    refused(streams.open(game, token=game.tokens[0]), "This seat has 2 live streams open already")
    assert over_limit(api, "seat") == counted + 1

    # The other seat, the operator and the public each have a share of their own.
    assert streams.open(game, token=game.tokens[1]).status_code == 200
    assert streams.open(game, token=OPERATOR_TOKEN).status_code == 200
    assert streams.open(game).status_code == 200
    # The same seat of another game is another token.
    other = api.create(first_dealer=1)
    assert streams.open(other, token=other.tokens[0]).status_code == 200

    streams.close(streams.held[0])  # one of the seat's streams ends: its share has room again
    assert streams.open(game, token=game.tokens[0]).status_code == 200


def test_the_operator_past_its_share_is_refused(api, game, streams):
    assert [streams.open(game, token=OPERATOR_TOKEN).status_code for _ in range(3)] == [200] * 3
    refused(streams.open(game, token=OPERATOR_TOKEN), "The operator has 3 live streams open already")


def test_callers_without_a_token_share_by_address(api, game, streams):
    assert [streams.open(game).status_code for _ in range(2)] == [200, 200]
    refused(streams.open(game), "Callers without a token at your address have 2")
    assert streams.open(game, peer="192.0.2.7").status_code == 200  # another address
    assert streams.open(game, token=game.tokens[0]).status_code == 200  # a token is its own share


def test_a_stream_opened_with_a_ticket_counts_for_the_tickets_caller(api, game, streams):
    for _ in range(2):
        ticket = api.post(f"{game.url}/stream-tickets", token=game.tokens[0]).get_json()["ticket"]
        assert streams.open(game, query=f"?ticket={ticket}").status_code == 200
    ticket = api.post(f"{game.url}/stream-tickets", token=game.tokens[0]).get_json()["ticket"]
    refused(streams.open(game, query=f"?ticket={ticket}"), "This seat has")
    assert streams.open(game).status_code == 200  # the public at the same address is another share


def test_x_forwarded_for_names_the_client_only_from_a_trusted_proxy(api, game, streams):
    # Not trusted: the header is the client's own claim, and changes nothing.
    for claimed in ("198.51.100.1", "198.51.100.2"):
        assert streams.open(game, peer="203.0.113.9", forwarded=claimed).status_code == 200
    refused(streams.open(game, peer="203.0.113.9", forwarded="198.51.100.3"), "Callers without a token")

    # Through a trusted proxy: each client its own share, whatever it put to the left.
    for _ in range(2):
        assert streams.open(game, peer="10.1.2.3", forwarded="6.6.6.6, 198.51.100.1").status_code == 200
    refused(streams.open(game, peer="10.9.9.9", forwarded="7.7.7.7, 198.51.100.1"), "Callers without a token")
    assert streams.open(game, peer="10.1.2.3", forwarded="198.51.100.1, 198.51.100.2").status_code == 200
    # Two trusted proxies in a row: the client is the first untrusted address from the right.
    assert streams.open(game, peer="fd00::1", forwarded="198.51.100.4, 10.0.0.5").status_code == 200
    assert streams.open(game, peer="fd00::1", forwarded="198.51.100.4, 10.0.0.6").status_code == 200
    refused(streams.open(game, peer="10.0.0.7", forwarded="198.51.100.4"), "Callers without a token")


def test_a_refusal_past_the_workers_limit_or_a_finished_game_takes_no_share(api, app, game, streams):
    app.config["STREAM_MAX_OPEN"] = 0
    for _ in range(3):
        assert streams.open(game, token=game.tokens[0]).status_code == 503
    app.config["STREAM_MAX_OPEN"] = 100
    finished = api.create(first_dealer=1, options={"target": None, "count_out": False})
    api.deal(finished, ORDERED_DECK)
    api.play(finished)
    last = api.view(finished)["version"]
    for _ in range(3):
        assert streams.open(finished, query=f"?after={last}").status_code == 204
    assert [streams.open(game, token=game.tokens[0]).status_code for _ in range(2)] == [200, 200]
    assert streams.open(game).status_code == 200


def test_a_bad_trusted_proxies_setting_stops_the_app_from_starting():
    with pytest.raises(ValueError, match="does not appear to be an IPv4 or IPv6 network"):
        create_app({**TEST_SETTINGS, "TRUSTED_PROXIES": "10.0.0.0/8, proxy"}, wiring=memory_wiring.adapters)

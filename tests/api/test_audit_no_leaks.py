"""The operator's endpoints show no hidden card to anyone else, and the live
stream shows each caller what its event log shows, no more.

As in test_no_leaks: at several moments of real games, every new endpoint's
answer (body and headers) is searched, for each seat and for the public, for
the codes of the cards hidden from that caller.
"""

import random

import pytest

from .conftest import GLOBAL_ORDER_ON_CITUS, ORDERED_DECK
from .masscool import HttpTable, deck_codes
from .test_no_leaks import claims_shown, face_up, hidden_from, never_seen_by, own_claim_only, shown


def answers(api, game, token, after=None):
    """Every new endpoint, as this caller would call it; the streams from the
    start (and from version 1), or from ``after`` alone."""
    ticket = api.post(f"{game.url}/stream-tickets", token=token)
    starts = [0, 1] if after is None else [after]
    return [
        ticket,
        api.get(ticket.get_json()["stream"] + f"&after={starts[0]}&timeout=0.01"),
        *(api.get(f"{game.url}/events/stream?after={start}&timeout=0.01", token=token) for start in starts),
        api.get(f"{game.url}/replay?version={game.created['version']}", token=token),
        api.get(f"{game.url}/verify", token=token),
        api.get("/v1/games", token=token),
        api.get("/v1/events", token=token),
    ]


@pytest.mark.parametrize("variant,players", [("cassino", 3), ("partnership", 4), ("stealing-bundles", 3),
                                             ("african", 3)])
def test_no_new_endpoint_shows_another_hand_or_the_stock(api, operator, variant, players):
    game = api.create(players=players, variant=variant)
    deck = list(ORDERED_DECK)
    random.Random(players).shuffle(deck)
    api.deal(game, deck)
    for step in range(3):
        everything = api.view(game, operator)
        for seat in [None, *range(players)]:
            token = None if seat is None else game.tokens[seat]
            secret = hidden_from(everything, seat)
            for response in answers(api, game, token):
                leaked = shown(response) & secret
                assert not leaked, f"{response.request.full_path} shows {leaked} to seat {seat}"
                assert own_claim_only(response, everything, seat), (response.request.full_path, claims_shown(response))
        api.play(game, steps=4, seed=step)


@pytest.mark.not_on_citus(GLOBAL_ORDER_ON_CITUS)
def test_the_detector_sees_what_the_operator_may_see_on_the_new_endpoints(api, operator, last_position):
    """The search above would catch a leak: the operator's stream, replay and
    global log do show the cards hidden from the others."""
    start = last_position()
    game = api.create()
    dealt = api.deal(game, ORDERED_DECK).get_json()["version"]
    secret = hidden_from(api.view(game, operator), None)
    for path in [f"{game.url}/events/stream?timeout=0.01", f"{game.url}/replay?version={dealt}",
                 f"/v1/events?after={start}"]:
        assert shown(api.get(path, token=operator)) & secret, path


def test_no_new_endpoint_or_stream_shows_a_mass_cool_casino_hand_or_the_stock(api, operator):
    """At every step of a game through a tie to its end: the stream (with a
    ticket and without) from the step before, tickets, replay, verify, the
    list and the global log, for each seat and the public (the search of
    test_no_leaks, for the cards no one but the operator has seen)."""
    t = HttpTable(api, 3, deck_codes(3, 0, 14, stock="KD KC 2D"), options={"money": 14})
    read, steps = 0, 0
    while (everything := t.view())["status"] != "finished":
        seen = face_up(api.events(t.game))
        for seat in [None, 0, 1, 2]:
            secret = never_seen_by(everything, seat, seen)
            for response in answers(api, t.game, None if seat is None else t.game.tokens[seat], after=read):
                leaked = shown(response) & secret
                assert not leaked, f"{response.request.full_path} shows {leaked} to seat {seat}"
        read = everything["version"]
        if everything["status"] == "reshuffle":
            t.reshuffle("QC 9C 8C")
        else:
            assert t.step().status_code == 200
        steps += 1
    assert steps > 15 and any(e["type"] == "PotTied" for e in api.events(t.game, token=None))

"""No response shows a caller a card it could not see at the table.

At every step of real games, for each seat and for the public, every
endpoint's answer (body and headers) is searched for the codes of the cards
hidden from that caller: the other players' hands and the stock.
"""

import json
import random

import pytest

from domain import full_deck, resolve
from domain.cassino.dealing import deck_for

from .conftest import ORDERED_DECK

ALL_CODES = [c.code for c in full_deck()]


def hidden_from(everything: dict, seat: int | None) -> set[str]:
    """Cards the caller (a seat, or None for the public) cannot see now."""
    hidden = set(everything["stock"])
    for i, hand in enumerate(everything["hands"]):
        if i != seat:
            hidden |= set(hand)
    return hidden


def shown(response) -> set[str]:
    text = response.get_data(as_text=True) + json.dumps(dict(response.headers))
    return {code for code in ALL_CODES if f'"{code}"' in text}


def answers(api, game, token):
    paths = [game.url, f"{game.url}/events", f"{game.url}/events?after=1&limit=2"]
    if token is not None:
        paths.append(f"{game.url}/moves")
    return [api.get(p, token=token) for p in paths]


LEAK_CASES = [("cassino", 2), ("cassino", 3), ("cassino", 4), ("partnership", 4)]
LEAK_CASES += [("stealing-bundles", n) for n in (2, 3, 4)]  # bundles' top cards are public, hands are not
LEAK_CASES += [("african", n) for n in (2, 3, 4)]  # pile tops are public; 12-16 cards a hand are not
LEAK_CASES += [(v, n) for v in ("diamond", "callabra", "tablanette") for n in (2, 3, 4)]  # 40 cards; 3 and 5; 6


@pytest.mark.parametrize("variant,players", LEAK_CASES)
def test_no_endpoint_shows_another_hand_or_the_stock(api, operator, variant, players):
    game = api.create(players=players, variant=variant)
    deck = [c.code for c in deck_for(resolve(variant, {}, players))]  # the variant's cards
    random.Random(players).shuffle(deck)
    rng = random.Random(7)
    assert api.deal(game, deck).status_code == 200
    for _ in range(14):
        everything = api.view(game, operator)
        if everything["status"] != "in_progress":
            break
        for seat in [None, *range(players)]:
            token = None if seat is None else game.tokens[seat]
            secret = hidden_from(everything, seat)
            for response in answers(api, game, token):
                assert not shown(response) & secret, f"{response.request.path} shows {shown(response) & secret}"
        turn = everything["turn"]
        moves = api.get(f"{game.url}/moves", token=game.tokens[turn]).get_json()["moves"]
        answer = api.post(f"{game.url}/play", json=rng.choice(moves), token=game.tokens[turn])
        after = api.view(game, operator)
        assert not shown(answer) & hidden_from(after, turn)


def test_the_detector_sees_what_the_operator_may_see(api, operator):
    """The search above would catch a leak: the operator's answers do show hidden cards."""
    game = api.create()
    api.deal(game, ORDERED_DECK)
    everything = api.view(game, operator)
    view, log = api.get(game.url, token=operator), api.get(f"{game.url}/events", token=operator)
    assert shown(view) & hidden_from(everything, None)
    assert shown(log) >= hidden_from(everything, None)


def test_a_seats_deal_answer_shows_only_its_own_hand(api):
    game = api.create(first_dealer=1)
    answer = api.post(f"{game.url}/deal", json={}, token=game.tokens[1]).get_json()
    [dealt] = answer["events"]
    assert dealt["data"]["deck"] is None and dealt["data"]["deck_count"] == 52
    assert dealt["data"]["hands"][0] is None and len(dealt["data"]["hands"][1]) == 4
    assert dealt["data"]["hand_counts"] == [4, 4]

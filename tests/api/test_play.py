"""Whole games through HTTP, for 2, 3 and 4 players and for partners."""

import random

import pytest

from .conftest import ACE_MADE_SURE_OF, ORDERED_DECK


# On both wirings: the HTTP API on PostgreSQL as well as in memory.
pytestmark = pytest.mark.both_wirings


def shuffled(seed):
    deck = list(ORDERED_DECK)
    random.Random(seed).shuffle(deck)
    return deck


def play_game(api, game, seed, max_hands=20):
    """Deal fixed decks and play the first... a seeded choice of each legal move."""
    rng = random.Random(seed)
    hands = 0
    while True:
        view = api.view(game)
        if view["status"] == "finished":
            return view
        if view["status"] in ("waiting", "hand_over"):
            hands += 1
            assert hands <= max_hands
            dealer = game.tokens[view["next_dealer"]]
            answer = api.post(f"{game.url}/deal", json={}, token=dealer)
            assert answer.status_code == 200, answer.get_json()
            continue
        token = game.tokens[view["turn"]]
        moves = api.get(f"{game.url}/moves", token=token).get_json()["moves"]
        answer = api.post(f"{game.url}/play", json=rng.choice(moves), token=token)
        assert answer.status_code == 200, answer.get_json()
        body = answer.get_json()
        assert body["version"] == view["version"] + len(body["events"])
        assert answer.headers["ETag"] == f'"{body["version"]}"'


@pytest.mark.parametrize("variant,players", [("cassino", 2), ("cassino", 3), ("cassino", 4), ("partnership", 4)])
def test_a_whole_game_plays_to_its_end(api, operator, variant, players):
    game = api.create(players=players, variant=variant, options={"target": 11})
    final = play_game(api, game, seed=players)
    assert final["status"] == "finished" and final["result"] in ("target", "count_out")
    assert max(final["scores"]) >= 11 or final["result"] == "count_out"
    events = api.events(game, operator)
    assert [e["version"] for e in events] == list(range(1, final["version"] + 1))
    assert events[-1]["type"] == "GameFinished"


def test_a_fixed_deck_deals_as_the_api_documents(api):
    game = api.create(first_dealer=1)
    answer = api.deal(game, ORDERED_DECK).get_json()
    [dealt] = answer["events"]
    assert dealt["type"] == "HandDealt" and dealt["data"]["fixed"] is True
    assert dealt["data"]["table"] == ["3S", "4S", "9S", "10S"]
    assert answer["game"]["turn"] == 0


def test_a_play_answers_with_the_events_and_the_new_view(api):
    game = api.create(first_dealer=1)
    api.deal(game, ORDERED_DECK)
    answer = api.post(f"{game.url}/play", json={"card": "7s", "action": "capture", "targets": ["3s", "4s"]},
                      token=game.tokens[0])
    body = answer.get_json()
    assert [e["type"] for e in body["events"]] == ["CardsCaptured"]
    assert body["events"][0]["data"]["targets"] == ["3S", "4S"]
    assert body["game"]["hand"] == ["AS", "2S", "8S"]
    assert body["game"]["last_capture"] == {"seat": 0, "cards": ["3S", "4S", "7S"]}


def test_a_build_over_http(api):
    game = api.create(first_dealer=1)
    api.deal(game, ORDERED_DECK)  # seat 0: AS 2S 7S 8S; table 3S 4S 9S 10S
    answer = api.post(f"{game.url}/play", json={"card": "AS", "action": "build", "value": 8,
                                                "targets": ["3S", "4S"]}, token=game.tokens[0])
    assert answer.status_code == 200
    [build] = [it for it in answer.get_json()["game"]["table"] if it["kind"] == "build"]
    assert build == {"kind": "build", "id": "B1", "value": 8, "cards": ["3S", "4S", "AS"],
                     "groups": [["3S", "4S", "AS"]], "multiple": False, "owner": 0}


def test_count_out_over_http(api):
    game = api.create(first_dealer=1)
    api.deal(game, ORDERED_DECK)
    answer = api.post(f"{game.url}/count-out", token=game.tokens[0])
    body = answer.get_json()
    assert answer.status_code == 200
    assert [e["type"] for e in body["events"]] == ["CountedOut", "SeedRevealed", "GameFinished"]
    assert body["game"]["status"] == "finished" and body["game"]["winner"] == 1


def test_a_seat_sees_whether_its_count_out_would_win_and_the_claim_counts_as_it_said(api, operator):
    game = api.create(first_dealer=1, options={"target": 1})
    api.deal(game, ORDERED_DECK)

    def claims() -> list:
        return [api.view(game, token=token)["count_out"] for token in game.tokens]

    nothing = {"secured": 0, "total": 0, "succeeds": False}
    assert claims() == [nothing, nothing]
    for seat, move in ACE_MADE_SURE_OF:
        assert api.post(f"{game.url}/play", json=move, token=game.tokens[seat]).status_code == 200
    ace = {"secured": 1, "total": 1, "succeeds": True}  # the ace of spades is seat 0's whatever comes
    assert claims() == [ace, nothing]
    assert api.view(game, operator)["count_outs"] == [ace, nothing]
    public = api.view(game)
    assert "count_out" not in public and "count_outs" not in public
    answer = api.post(f"{game.url}/count-out", token=game.tokens[0]).get_json()
    [counted] = [e["data"] for e in answer["events"] if e["type"] == "CountedOut"]
    assert counted["total"] == 1 and counted["success"] and answer["game"]["winners"] == [0]
    assert answer["game"]["count_out"] is None  # the game is over: nothing left to claim

"""The fairness script recomputes real games' deals from their logs."""

import copy
import importlib.util
import random
from pathlib import Path

import pytest

from .conftest import ONE_HAND
from .test_play import play_game

SCRIPT = Path(__file__).resolve().parents[2] / "docs" / "verify_deal.py"


@pytest.fixture(scope="module")
def verify_deal():
    spec = importlib.util.spec_from_file_location("verify_deal", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_a_finished_games_public_log_proves_every_deal(api, verify_deal, capsys):
    game = api.create(options={"target": 11})
    for seat, token in enumerate(game.tokens):
        answer = api.post(f"{game.url}/client-seed", json={"seed": f"seat-{seat}-says-hi"}, token=token)
        assert answer.status_code == 200
    final = play_game(api, game, seed=5)
    assert final["status"] == "finished"
    public_log = api.events(game, token=None)  # no token: the log is public once the game is over
    assert all(e["data"].get("deck") for e in public_log if e["type"] == "HandDealt")
    assert verify_deal.check(public_log)
    lines = capsys.readouterr().out.splitlines()
    assert lines and all(line.endswith(": fair") for line in lines)


def test_a_swapped_card_or_a_wrong_seed_is_caught(api, verify_deal):
    game = api.create(options={"target": 11})
    play_game(api, game, seed=6)
    log = api.events(game, token=None)
    dealt = next(e for e in log if e["type"] == "HandDealt")
    forged = copy.deepcopy(log)
    deck = next(e for e in forged if e["type"] == "HandDealt")["data"]["deck"]
    deck[0], deck[1] = deck[1], deck[0]
    assert not verify_deal.check(forged)
    wrong_seed = copy.deepcopy(log)
    revealed = next(e for e in wrong_seed if e["type"] == "SeedRevealed"
                    and e["data"]["hand_number"] == dealt["data"]["hand_number"])
    revealed["data"]["seed"] = "00" * 32
    assert not verify_deal.check(wrong_seed)


def test_during_the_game_a_seat_checks_its_own_cards_once_the_hand_is_over(api, verify_deal, operator):
    game = api.create(options={"target": 1000, "count_out": False})
    rng = random.Random(1)
    while True:
        view = api.view(game)
        if view["status"] == "hand_over":
            break
        if view["status"] == "waiting":
            api.post(f"{game.url}/deal", json={}, token=game.tokens[view["next_dealer"]])
            continue
        token = game.tokens[view["turn"]]
        moves = api.get(f"{game.url}/moves", token=token).get_json()["moves"]
        api.post(f"{game.url}/play", json=rng.choice(moves), token=token)
    seat_log = api.events(game, token=game.tokens[0])
    dealt = next(e for e in seat_log if e["type"] == "HandDealt")
    assert dealt["data"]["deck"] is None and dealt["data"]["hands"][1] is None
    assert verify_deal.check(seat_log)


def test_the_seed_stays_secret_until_its_hand_is_over(api):
    game = api.create()
    committed = next(e for e in api.events(game, token=game.tokens[0]) if e["type"] == "ShuffleCommitted")
    assert committed["data"]["seed"] is None and len(committed["data"]["commitment"]) == 64
    assert api.view(game)["commitment"] == committed["data"]["commitment"]


def test_client_seeds_are_checked_and_set_between_hands(api, operator):
    game = api.create()
    bad = api.post(f"{game.url}/client-seed", json={"seed": "a|b"}, token=game.tokens[0])
    assert bad.status_code == 400
    assert api.post(f"{game.url}/client-seed", json={"seed": "x"}, token=operator).status_code == 403
    api.post(f"{game.url}/deal", json={}, token=game.tokens[1])
    late = api.post(f"{game.url}/client-seed", json={"seed": "late"}, token=game.tokens[0])
    assert late.status_code == 422 and late.get_json()["rule"] == "hand_in_progress"


@pytest.mark.parametrize("variant,players,options", [("california", 2, {"deals_each": 1}),
                                                      ("five-hand", 5, {"target": 11}),
                                                      ("african", 3, ONE_HAND), ("diamond", 3, ONE_HAND),
                                                      ("callabra", 2, ONE_HAND), ("tablanette", 2, ONE_HAND)])
def test_the_script_knows_each_variants_deck_and_deal(api, verify_deal, variant, players, options):
    game = api.create(players=players, variant=variant, options=options)
    assert play_game(api, game, seed=3)["status"] == "finished"
    assert verify_deal.check(api.events(game, token=None))

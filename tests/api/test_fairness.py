"""The fairness script recomputes real games' deals from their logs, for
both games: Cassino's hands, and Mass Cool Casino's deal and reshuffles."""

import copy
import importlib.util
import random
from pathlib import Path

import pytest

from .conftest import ONE_HAND
from .masscool import HttpTable
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


# -- Mass Cool Casino: the deal and every reshuffle of a tied pot -------------------

def game_that_ties(api) -> HttpTable:
    """A game dealt and reshuffled from the service's own seeds, played until
    its first tied pot has been reshuffled. Whether a pot ties is chance (in
    about three games of five at three players), so games are made until one does."""
    for _ in range(30):
        t = HttpTable(api, 3)  # the dealer deals: the committed seed gives the deck
        while t.view(None)["status"] == "betting":
            if t.one_card_each()[0]["type"] == "PotTied":
                return t
    raise AssertionError("thirty games and no tie")


@pytest.fixture
def tied(api) -> HttpTable:
    return game_that_ties(api)


def test_a_finished_mass_cool_casino_games_public_log_proves_every_shuffle(api, verify_deal, tied, capsys):
    tied.finish()
    public_log = api.events(tied.game, token=None)  # the log is public once the game is over
    reshuffles = [e for e in public_log if e["type"] == "DeckReshuffled"]
    assert reshuffles and all(e["data"]["deck"] and not e["data"]["fixed"] for e in reshuffles)
    capsys.readouterr()
    assert verify_deal.check(public_log)
    lines = capsys.readouterr().out.splitlines()
    assert lines == [f"shuffle {n}: fair" for n in range(1, len(reshuffles) + 2)]


def test_during_a_mass_cool_casino_game_the_spent_deck_is_checked_by_anyone(api, verify_deal, tied, capsys):
    """Once a tie has spent the dealt deck, its seed is public: a seat (and the
    public) check the money and every hand seen against it; the reshuffled
    deck waits for its own seed."""
    for token in (tied.game.tokens[1], None):
        log = api.events(tied.game, token=token)
        assert next(e for e in log if e["type"] == "MoneyDealt")["data"]["deck"] is None
        capsys.readouterr()
        assert verify_deal.check(log)
        assert capsys.readouterr().out.splitlines() == [
            "shuffle 1: fair", "shuffle 2: seed not revealed yet (its deck is still in use)"]


def test_a_changed_mass_cool_casino_shuffle_is_caught(api, verify_deal, tied):
    tied.finish()
    log = api.events(tied.game, token=None)
    forgeries = []

    def forged(kind, change):
        copy_ = copy.deepcopy(log)
        change(next(e for e in copy_ if e["type"] == kind)["data"])
        forgeries.append(copy_)

    def swap(cards):
        cards[0], cards[1] = cards[1], cards[0]

    forged("DeckReshuffled", lambda d: swap(d["deck"]))
    forged("MoneyDealt", lambda d: swap(d["deck"]))
    forged("MoneyDealt", lambda d: d["money"].reverse())
    forged("ShuffleRevealed", lambda d: d.update(seed="00" * 32))
    forged("PotTied", lambda d: d["hands"].reverse())  # hands seen elsewhere than they were dealt
    for forgery in forgeries:
        assert not verify_deal.check(forgery)
    assert verify_deal.check(log)

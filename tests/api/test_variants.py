"""Every variant is listed with its options and plays a whole game over HTTP."""

import random

import pytest

from domain import full_deck
from domain.cassino import VARIANTS, resolve
from domain.cassino.dealing import deck_for

from .conftest import ONE_HAND
from .test_play import play_game

#: Options that keep a game at a variant's first seat count to a few hands.
SHORT = {"california": {"deals_each": 1}, "spade": {"target": 21}, "tablanette": {"target": 40}}
SHORT["stealing-bundles"] = {}  # one hand is the game: no target to set
#: At the other seat counts a game is one hand.
ONE_GAME = {"california": {"deals_each": None}, "stealing-bundles": {}}
SEATINGS = [(name, players) for name, v in sorted(VARIANTS.items()) for players in v.players]


@pytest.mark.both_wirings
@pytest.mark.parametrize("variant,players", SEATINGS, ids=[f"{v}-{n}" for v, n in SEATINGS])
def test_a_whole_game_of_each_variant_with_each_seat_count_over_http(api, operator, variant, players):
    """At a variant's first seat count a game to a target (each move picked from
    ``/moves``); at the others, to keep the suite quick, a game of one hand."""
    first = players == VARIANTS[variant].players[0]
    if first:
        game = api.create(players=players, variant=variant, options=SHORT.get(variant, {"target": 11}))
        final = play_game(api, game, seed=len(variant))
    else:
        game = api.create(players=players, variant=variant, options=ONE_GAME.get(variant, ONE_HAND))
        api.play(game, seed=players)
        final = api.view(game)
    assert final["status"] == "finished" and final["variant"] == variant
    assert final["result"] in ("target", "single_hand", "last_deal", "draw")
    events = api.events(game, operator)
    assert [e["version"] for e in events] == list(range(1, final["version"] + 1))
    assert sum(e["type"] == "HandEnded" for e in events) >= 1


#: The presets of shared/RULES.md but mass-cool-casino, its own game type.
RULES_PRESETS = {"cassino", "partnership", "draw", "royal", "buckeye", "spade", "california", "portuguese", "pluck",
                 "trailing-royals", "five-hand", "african", "stealing-bundles", "diamond", "callabra", "tablanette"}


def test_the_variants_list_names_every_preset(api):
    listed = {v["name"]: v for v in api.get("/v1/variants").get_json()["variants"]}
    assert set(listed) == set(VARIANTS) | {"mass-cool-casino"} and set(VARIANTS) == RULES_PRESETS
    assert {v["game_type"] for name, v in listed.items() if name in VARIANTS} == {"cassino"}
    assert listed["mass-cool-casino"]["game_type"] == "mass-cool-casino"
    assert listed["mass-cool-casino"]["players"] == list(range(2, 9))
    assert listed["mass-cool-casino"]["options"] == {"money": 10, "ace_high": True, "undo": "consent"}
    assert listed["royal"]["options"]["ace_high"] is True
    assert listed["california"]["players"] == [2, 3, 4, 6]
    assert listed["diamond"]["options"]["deck"] == "forty" and listed["tablanette"]["players"] == [2, 3, 4]


def test_an_option_a_variant_cannot_use_is_a_422_naming_it(api):
    answer = api.post("/v1/games", json={"variant": "california", "seats": 2, "options": {"sweeps": 1}})
    assert answer.status_code == 422 and answer.get_json()["code"] == "invalid_options"
    assert answer.get_json()["errors"][0]["field"] == "options.sweeps"


def test_a_drawn_card_is_seen_only_by_the_drawer(api, operator):
    game = api.create(variant="draw", first_dealer=1)
    api.deal(game)
    move = api.get(f"{game.url}/moves", token=game.tokens[0]).get_json()["moves"][0]
    mine = api.post(f"{game.url}/play", json=move, token=game.tokens[0]).get_json()
    drawn = next(e for e in mine["events"] if e["type"] == "CardDrawn")
    assert drawn["data"]["card"] is not None
    theirs = next(e for e in api.events(game, game.tokens[1]) if e["type"] == "CardDrawn")
    assert theirs["data"]["card"] is None


def test_the_operator_deals_five_hand_a_fixed_deck_of_its_49_cards(api, operator):
    game = api.create(players=5, variant="five-hand", first_dealer=4)
    full = [c.code for c in full_deck()]
    five_hand = [code for code in full if code not in ("2H", "2D", "2C")]
    assert api.deal(game, full).get_json()["rule"] == "invalid_deck"
    assert api.deal(game, five_hand[:-1] + ["2H"]).get_json()["rule"] == "invalid_deck"
    dealt = api.deal(game, five_hand)
    assert dealt.status_code == 200, dealt.get_json()
    assert api.view(game, operator)["deck_count"] == 49 - 5 * 4 - 4
    cassino = api.create()
    assert api.deal(cassino, five_hand).get_json()["rule"] == "invalid_deck"


def test_the_operator_deals_diamond_a_fixed_deck_of_its_40_cards(api, operator):
    game = api.create(players=3, variant="diamond", first_dealer=2)
    forty = [c.code for c in deck_for(resolve("diamond", {}, 3))]
    assert api.deal(game, [c.code for c in full_deck()]).get_json()["rule"] == "invalid_deck"
    dealt = api.deal(game, forty)
    assert dealt.status_code == 200, dealt.get_json()
    view = api.view(game, operator)
    assert view["deck_count"] == 40 - 3 * 3 - 4 and len(view["table"]) == 4
    assert all(len(h) == 3 for h in view["hands"])


def test_callabras_odd_cards_are_laid_on_the_table_for_all_to_see(api, operator):
    """The last round of a two-player Callabra hand gives five each and lays the 47th card face up."""
    game = api.create(variant="callabra", first_dealer=1)
    api.deal(game, [c.code for c in full_deck()])
    while (view := api.view(game, operator))["deck_count"]:
        seat = view["turn"]
        answer = api.post(f"{game.url}/play", json={"card": view["hands"][seat][0], "action": "trail"},
                          token=game.tokens[seat])
        assert answer.status_code == 200, answer.get_json()
    last = [e for e in api.events(game, game.tokens[1]) if e["type"] == "RoundDealt"][-1]
    assert last["schema_version"] == 2 and last["data"]["last"] and len(last["data"]["table"]) == 1
    assert last["data"]["hands"][0] is None and len(last["data"]["hands"][1]) == 5
    assert last["data"]["table"][0] in [it["card"] for it in api.view(game)["table"]]


# -- Stealing Bundles (003) ------------------------------------------------


def _bundles_turn(api, game, rng):
    """One play of the player to move, a steal or a capture when there is one."""
    view = api.view(game)
    token = game.tokens[view["turn"]]
    moves = api.get(f"{game.url}/moves", token=token).get_json()["moves"]
    steals = [m for m in moves if m["action"] == "steal"]
    taking = [m for m in moves if m["action"] == "capture"]
    move = rng.choice(steals or taking or moves)
    answer = api.post(f"{game.url}/play", json=move, token=token)
    assert answer.status_code == 200, answer.get_json()
    return view["turn"], move, answer.get_json()


@pytest.mark.both_wirings
@pytest.mark.parametrize("players", VARIANTS["stealing-bundles"].players)
def test_a_whole_game_of_stealing_bundles_with_each_seat_count(api, operator, players):
    """Bundles lie face up: every caller's view shows each pile's top card, the
    card that made the seat's latest capture or steal."""
    rng = random.Random(players)
    game = api.create(players=players, variant="stealing-bundles")
    deck = [c.code for c in full_deck()]
    rng.shuffle(deck)  # a fixed deck: the same game every run
    api.deal(game, deck)
    actions = set()
    while api.view(game)["status"] == "in_progress":
        seat, move, _ = _bundles_turn(api, game, rng)
        actions.add(move["action"])
        views = [api.view(game, token) for token in (None, operator, *game.tokens)]
        tops = {tuple(s["pile_top"] for s in v["seats"]) for v in views}
        assert len(tops) == 1, "every caller sees the same pile tops"
        if move["action"] in ("steal", "capture") and views[0]["status"] == "in_progress":
            assert views[0]["seats"][seat]["pile_top"] == move["card"]
    final = api.view(game)
    assert final["status"] == "finished" and final["result"] in ("single_hand", "draw")
    assert sum(final["scores"]) == 52 and "steal" in actions
    stolen = [e for e in api.events(game, game.tokens[0]) if e["type"] == "BundleStolen"]
    assert stolen and all(e["data"]["cards"][-1] == e["data"]["card"] for e in stolen)


def test_piles_lie_face_down_elsewhere(api, operator):
    game = api.create()
    api.deal(game, [c.code for c in full_deck()])
    rng = random.Random(1)
    while not any(e["type"] == "CardsCaptured" for e in api.events(game, operator)):
        _bundles_turn(api, game, rng)
    assert all(s["pile_top"] is None for s in api.view(game)["seats"])


def test_a_steal_names_a_seat_and_a_bad_one_is_a_problem(api):
    game = api.create(variant="stealing-bundles")
    api.deal(game)
    view = api.view(game)
    token = game.tokens[view["turn"]]
    card = api.view(game, token)["hand"][0]
    answer = api.post(f"{game.url}/play", json={"card": card, "action": "steal", "targets": ["seat:1"]},
                      token=token)
    assert answer.status_code == 422 and answer.get_json()["rule"] == "illegal_steal"  # no bundle yet
    bad = api.post(f"{game.url}/play", json={"card": card, "action": "steal", "targets": ["seat:x"]}, token=token)
    assert bad.status_code == 400 and bad.get_json()["errors"][0]["field"].startswith("targets")


# -- African (003) -----------------------------------------------------------


def _african_turn(api, game, rng):
    """One play of the player to move, preferring a build with captured cards."""
    view = api.view(game)
    token = game.tokens[view["turn"]]
    moves = api.get(f"{game.url}/moves", token=token).get_json()["moves"]
    from_piles = [m for m in moves if any(t.startswith("seat:") for t in m.get("targets", []))]
    move = rng.choice(from_piles or moves)
    answer = api.post(f"{game.url}/play", json=move, token=token)
    assert answer.status_code == 200, answer.get_json()
    return view, move


@pytest.mark.both_wirings
@pytest.mark.parametrize("players", VARIANTS["african"].players)
def test_a_whole_game_of_african_with_each_seat_count(api, operator, players):
    """Capture piles lie face up: every caller sees each pile's top card, and a
    build that takes an opponent's top card shows the next one."""
    rng = random.Random(players)
    game = api.create(players=players, variant="african", options={"target": 5})
    augmented = 0
    while (view := api.view(game))["status"] != "finished":
        if view["status"] != "in_progress":
            deck = [c.code for c in full_deck()]
            rng.shuffle(deck)  # fixed decks: the same game every run
            assert api.deal(game, deck).status_code == 200
            continue
        before, move = _african_turn(api, game, rng)
        views = [api.view(game, token) for token in (None, operator, *game.tokens)]
        assert len({tuple(s["pile_top"] for s in v["seats"]) for v in views}) == 1
        if any(t.startswith("seat:") for t in move.get("targets", [])):
            augmented += 1
            victim = int(next(t for t in move["targets"] if t.startswith("seat:"))[5:])
            assert views[0]["seats"][victim]["captured_count"] < before["seats"][victim]["captured_count"]
        if views[0]["status"] == "in_progress" and players == 3:
            assert views[0]["turn"] == (before["turn"] - 1) % 3  # to the right
    assert max(api.view(game)["scores"]) >= 5 and augmented

"""Every variant is listed with its options and plays a whole game over HTTP."""

import pytest

from domain import VARIANTS, full_deck

from .test_play import play_game

SHORT = {"california": {"deals_each": 1}, "spade": {"target": 21}}


@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_a_whole_game_of_each_variant_over_http(api, operator, variant):
    players = VARIANTS[variant].players[0]
    options = SHORT.get(variant, {"target": 11})
    game = api.create(players=players, variant=variant, options=options)
    final = play_game(api, game, seed=len(variant))
    assert final["status"] == "finished" and final["variant"] == variant
    events = api.events(game, operator)
    assert [e["version"] for e in events] == list(range(1, final["version"] + 1))


def test_the_variants_list_names_every_preset(api):
    listed = {v["name"]: v for v in api.get("/v1/variants").get_json()["variants"]}
    assert set(listed) == set(VARIANTS)
    assert listed["royal"]["options"]["ace_high"] is True
    assert listed["california"]["players"] == [2, 3, 4, 6]


def test_an_option_a_variant_cannot_use_is_a_400_naming_it(api):
    answer = api.post("/v1/games", json={"variant": "california", "seats": 2, "options": {"sweeps": 1}})
    assert answer.status_code == 400
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

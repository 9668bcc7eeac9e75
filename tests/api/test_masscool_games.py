"""Whole games of Mass Cool Casino over HTTP (seed 000): 2, 5 and 8 players
on the operator's fixed decks, each with a tie reshuffled, the deck running
out and, where a game goes on after it, a broke player knocked out; and one
client loop, reading ``/moves`` and posting one of them to ``/play``, that
plays either game to its end."""

from __future__ import annotations

import random

import pytest

from .conftest import ONE_HAND
from .masscool import VARIANT, HttpTable, deck_codes


# On both wirings: the HTTP API on PostgreSQL as well as in memory.
pytestmark = pytest.mark.both_wirings

#: The final count, written out from the seed rather than read from the engine.
WORTH = {"A": 1, "J": 11, "Q": 12, "K": 16}


def worth(codes: list[str]) -> int:
    return sum(WORTH.get(code[:-1]) or int(code[:-1]) for code in codes)


def kinds(events: list[dict]) -> list[str]:
    return [e["type"] for e in events]


def leaders(t: HttpTable) -> list[int]:
    return [e["data"]["leader"] for e in t.api.events(t.game, token=None) if e["type"] == "HandsDrawn"]


def assert_counted(t: HttpTable, reason: str) -> dict:
    """The game is over for ``reason``; the money counted as the seed counts
    it, and the highest total among the players still in wins."""
    final = t.view(None)
    assert final["status"] == "finished" and final["result"] == reason and final["turn"] is None
    totals = [worth(s["money"]) for s in final["seats"]]
    assert final["totals"] == totals == [s["money_value"] for s in final["seats"]]
    still_in = [s["seat"] for s in final["seats"] if not s["out"]]
    best = max(totals[s] for s in still_in)
    assert final["winners"] == [s for s in still_in if totals[s] == best]
    [counted] = [e for e in t.api.events(t.game, token=None) if e["type"] == "MoneyCounted"]
    assert counted["data"] == {"totals": totals, "winners": final["winners"], "reason": reason}
    return final


def test_two_players_tie_the_operator_reshuffles_and_the_deck_runs_out(api):
    """"If there are two players, each player recieves 10 cards." "In the event of a tie, all bets and
    hands are shuffled into the deck and the process is restarted." "The game ends when there are not
    enough cards left in the deck for every player to draw a hand.\""""
    t = HttpTable(api, 2, deck_codes(2, 0, 10, stock="KD KC"))
    assert kinds(t.dealt) == ["ShuffleRevealed", "MoneyDealt", "HandsDrawn"]  # the creation's seed, unused
    assert [len(s["money"]) for s in t.view(None)["seats"]] == [10, 10] and t.view()["hands"] == ["KD", "KC"]
    [tied] = t.one_card_each()
    assert tied["type"] == "PotTied" and tied["data"] == {"round": 1, "hands": ["KD", "KC"], "tied": [0, 1]}
    waiting = t.view(None)
    assert waiting["status"] == "reshuffle" and waiting["turn"] is None and waiting["pot_count"] == 0
    # A fixed game has no committed seed: the operator deals the reshuffle, the tied cards back in.
    reshuffled = t.reshuffle("QD 2D")
    assert kinds(reshuffled) == ["DeckReshuffled", "HandsDrawn"]
    assert reshuffled[0]["data"]["fixed"] is True and len(reshuffled[0]["data"]["deck"]) == 32 - 2 + 4
    assert t.view()["hands"] == ["QD", "2D"] and t.view(None)["round"] == 1  # the round played again
    t.finish()
    final = assert_counted(t, "deck_out")
    assert final["deck_count"] < 2
    assert leaders(t)[:4] == [0, 0, 1, 0]  # the tied round is played again by its leader, then clockwise


def test_two_players_one_goes_broke_and_the_other_is_the_last_player(api):
    """"If the player without money does not win that pot, they lose and are out of the game.\""""
    t = HttpTable(api, 2, deck_codes(2, 0, 10, stock="KD KC"))
    t.one_card_each()
    t.reshuffle("AD 2D")
    t.bet(0, t.money(0)[0])
    t.bet(1, t.money(1))  # all nine cards
    assert t.view(None)["turn"] == 0  # seat 1 has no money: skipped
    t.stop(0)
    events = t.bet(0, t.money(0)[:8])
    assert kinds(events) == ["BetPlaced", "PotWon", "MoneyCounted"]
    assert events[1]["data"]["knocked_out"] == [1] and events[1]["data"]["winner"] == 0
    final = assert_counted(t, "last_player")
    assert final["winners"] == [0] and final["seats"][1]["out"] is True and len(final["seats"][0]["money"]) == 18


def test_five_players_tie_four_pots_a_knockout_and_the_deck_runs_out(api):
    """"If there are 4 or more players, each player recieves 6 cards." "In subsequent hands, players take
    turns in clockwise order to begin the betting.\""""
    t = HttpTable(api, 5, deck_codes(5, 0, 6, stock="KD KC 2D 3D 4D"))
    assert [len(s["money"]) for s in t.view(None)["seats"]] == [6] * 5 and t.view(None)["deck_count"] == 22 - 5
    assert t.one_card_each()[0]["data"]["tied"] == [0, 1]
    t.reshuffle("KD 2D 3D 4D 8D  KC 9D 10D JD QD  AC 2C 3C 4C 5C  QC 6C 7C 8C 9C  6H KS 7S JC QH")
    for winner in (0, 1, 2, 3):
        won = t.one_card_each()[0]
        assert won["type"] == "PotWon" and won["data"]["winner"] == winner
    assert [len(s["money"]) for s in t.view(None)["seats"]] == [6, 6, 6, 6, 1]
    assert t.view(None)["turn"] == 4
    events = t.one_card_each()  # seat 4 leads with its last card and loses
    assert kinds(events) == ["PotWon", "MoneyCounted"]
    assert events[0]["data"]["winner"] == 0 and events[0]["data"]["knocked_out"] == [4]
    final = assert_counted(t, "deck_out")
    assert final["deck_count"] == 2 and [s["out"] for s in final["seats"]] == [False] * 4 + [True]
    assert leaders(t) == [0, 0, 1, 2, 3, 4]


def test_eight_players_tie_six_go_broke_at_once_and_the_deck_runs_out(api):
    """"A player who runs out of money is not required to match the number of cards that other players
    have bet, and betting continues as normal, skipping over that player." Eight players get 5 cards
    each, so that the deck holds a hand for everyone (docs/rules.md)."""
    t = HttpTable(api, 8, deck_codes(8, 0, 5, stock="KD KC 2D 3D 4D 5D 6D 7D"))
    assert [len(s["money"]) for s in t.view(None)["seats"]] == [5] * 8 and t.view(None)["deck_count"] == 4
    assert t.one_card_each()[0]["data"]["tied"] == [0, 1]
    t.reshuffle("KD 2D 3D 4D 5D 6D 7D 9C  10C KC JC QC 3H 4C 6S 8H  JS KH  JD AS")
    assert t.one_card_each()[0]["data"]["winner"] == 0
    t.bet(1, t.money(1))  # seat 1 bets all three cards
    for seat in (2, 3, 4, 5, 6, 7, 0):
        t.bet(seat, t.money(seat)[0])
    assert t.view(None)["turn"] == 2  # seat 1, broke, is skipped
    t.stop(2)
    for seat in (3, 4, 5, 6, 7, 0, 2):  # from the stopper's left, the stopper last; seat 1 skipped
        view = t.view(None)
        assert view["turn"] == seat and view["stopped_by"] == 2
        events = t.bet(seat, t.money(seat)[:2])
    won = events[1]["data"]
    assert won["winner"] == 2 and won["knocked_out"] == [1, 3, 4, 5, 6, 7] and len(won["pot"]) == 24
    view = t.view(None)
    assert [s["seat"] for s in view["seats"] if not s["out"]] == [0, 2] and view["leader"] == 2
    assert t.one_card_each()[0]["data"]["winner"] == 0
    events = t.one_card_each()
    assert kinds(events) == ["PotWon", "MoneyCounted"] and events[0]["data"]["winner"] == 2
    final = assert_counted(t, "deck_out")
    assert final["deck_count"] == 0
    assert sum(len(s["money"]) for s in final["seats"]) + final["discard_count"] == 52


def play_by_moves(api, game, rng: random.Random, operator: str) -> dict:
    """A client that knows neither game's rules: each step, the first seat
    whose ``/moves`` lists anything posts one of them to ``/play`` as it is;
    when no seat has a move, the operator deals."""
    steps = 0
    while (view := api.view(game))["status"] != "finished":
        for token in game.tokens:
            moves = api.get(f"{game.url}/moves", token=token).get_json()["moves"]
            if moves:
                answer = api.post(f"{game.url}/play", json=rng.choice(moves), token=token)
                break
        else:
            answer = api.post(f"{game.url}/deal", json={}, token=operator)
        assert answer.status_code == 200, answer.get_json()
        steps += 1
    assert steps > 5
    return view


@pytest.mark.parametrize("variant,players,options", [("cassino", 2, ONE_HAND), (VARIANT, 3, {}),
                                                      (VARIANT, 2, {"ace_high": False})])
def test_one_client_loop_plays_either_game_to_its_end(api, operator, variant, players, options):
    game = api.create(players=players, variant=variant, options=options)
    final = play_by_moves(api, game, random.Random(players), operator)
    assert final["game_type"] == ("cassino" if variant == "cassino" else "mass-cool-casino")
    assert final["result"] is not None

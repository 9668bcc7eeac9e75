"""A client reads what a game awaits and who won the same way in every game
type: ``awaiting``, ``result`` and ``winners`` in the view (the spec check
of every answer holds their shape)."""

from __future__ import annotations

import pytest

from .conftest import ONE_HAND


@pytest.mark.parametrize("variant, players, options", [
    ("cassino", 2, ONE_HAND),
    ("partnership", 4, ONE_HAND),
    ("mass-cool-casino", 3, {"money": 2}),
])
def test_a_client_plays_either_game_type_by_what_it_awaits(api, operator, variant, players, options):
    """Everyone (each seat, the public, the operator) reads the same
    ``awaiting``; the seat it names acts with its command, and once the
    first move has been made its player asks to take it back, which awaits
    the other seats' answers."""
    game = api.create(players=players, variant=variant, options=options)
    commands: list[str] = []
    mover = None  # who asked to take a move back
    for _ in range(500):
        views = [api.view(game, token) for token in (None, operator, *game.tokens)]
        awaiting = views[0]["awaiting"]
        assert all(v["awaiting"] == awaiting for v in views)
        if awaiting is None:
            break
        commands.append(awaiting["command"])
        seat = awaiting["seats"][0]
        token = game.tokens[seat]
        if awaiting["command"] == "deal":
            answer = api.post(f"{game.url}/deal", json={}, token=token)
        elif awaiting["command"] == "answer_undo":
            assert awaiting["seats"] == [s for s in range(players) if s != mover]
            answer = api.post(f"{game.url}/undo/answer", json={"accept": False}, token=token)
        else:
            assert awaiting["seats"] == [views[0]["turn"]]
            moves = api.get(f"{game.url}/moves", token=token).get_json()["moves"]
            answer = api.post(f"{game.url}/play", json=moves[0], token=token)
            if mover is None:
                assert answer.status_code == 200, answer.get_json()
                answer, mover = api.post(f"{game.url}/undo", json={}, token=token), seat
        assert answer.status_code == 200, answer.get_json()
    final = views[0]
    assert final["status"] == "finished" and final["result"] is not None
    assert commands[0] == "deal" and commands[2] == "answer_undo" and "play" in commands
    assert all(v["winners"] == final["winners"] for v in views)
    assert (final["winners"] == []) == (final["result"] == "draw")  # the deals are random: a draw may come
    if "winner" in final:  # Cassino: the winning side's seats
        assert final["winners"] == [s["seat"] for s in final["seats"] if s["team"] == final["winner"]]
    else:
        still_in = [s["seat"] for s in final["seats"] if not s["out"]]  # the seats that count
        best = max(final["totals"][s] for s in still_in)
        assert final["winners"] == [s for s in still_in if final["totals"][s] == best]


def test_a_game_not_yet_over_has_no_result_and_no_winners(api):
    for variant in ("cassino", "mass-cool-casino"):
        view = api.view(api.create(variant=variant, first_dealer=0))
        assert view["awaiting"] == {"command": "deal", "seats": [0]}
        assert view["result"] is None and view["winners"] is None

"""The log of a live ``casino serve`` says what the service did by itself,
as an operator reads it: one JSON object a line, a game that timed out
(whose seat, what followed) and games that finished (result, winners),
the start and the stop with the settings they ran with; and no line of the
whole run shows a card, a token or a seed."""

from __future__ import annotations

import json
import re
import time

from service.postgres.database import shown
from tests.conftest import OPERATOR_TOKEN
from tests.service.serving import Serving, serve_environment
from tests.service.test_two_instances import call

#: A card's code as the API writes it (``7S``, ``10H``, ``KD``).
CARD = re.compile(r"(?<![A-Za-z0-9])(?:[2-9]|10|[AJQK])[SHDC](?![A-Za-z0-9])")


def dealt_game(server: Serving, **clock) -> tuple[str, list[str]]:
    """A two-seat game, dealt by seat 1: its id and the seats' tokens."""
    status, created = call(server, "POST", "/v1/games", {"seats": [{"name": "Ann"}, {"name": "Bob"}],
                                                         "first_dealer": 1, **clock})
    assert status == 201, created
    game, tokens = created["id"], [seat["token"] for seat in created["seats"]]
    status, dealt = call(server, "POST", f"/v1/games/{game}/deal", token=tokens[1])
    assert status == 200, dealt
    return game, tokens


def test_the_log_tells_of_a_time_out_and_of_games_that_ended_and_shows_no_card(tmp_path, database_url):
    environ = serve_environment(DATABASE_URL=database_url, CASINO_DATA_DIR=str(tmp_path / "data"),
                                CASINO_OPERATOR_TOKEN=OPERATOR_TOKEN, CASINO_WORKERS="1", CASINO_THREADS="2")
    server = Serving(tmp_path, environ, "logs")
    try:
        # Each seat's first action has half a minute: Bob dealt, Ann plays, then Bob never does.
        slow, slow_tokens = dealt_game(server, clock={"per_move_seconds": 1})
        move = call(server, "GET", f"/v1/games/{slow}/moves", token=slow_tokens[0])[1]["moves"][0]
        assert call(server, "POST", f"/v1/games/{slow}/play", move, slow_tokens[0])[0] == 200
        resigned, resigned_tokens = dealt_game(server)
        status, hand = call(server, "GET", f"/v1/games/{resigned}", token=resigned_tokens[0])
        assert status == 200 and len(hand["hand"]) == 4
        assert call(server, "POST", f"/v1/games/{resigned}/resign", token=resigned_tokens[0])[0] == 200
        until = time.monotonic() + 10
        while call(server, "GET", f"/v1/games/{slow}")[1]["status"] != "finished" and time.monotonic() < until:
            time.sleep(0.1)
    finally:
        assert server.stop() == 0
    text = server.stderr.read_text()
    lines = [json.loads(line) for line in text.splitlines()]
    said = {(line.get("event"), line.get("game")): line for line in lines if "event" in line}

    timed_out = said["timed_out", slow]
    assert (timed_out["seat"], timed_out["followed"], timed_out["level"]) == (1, "game_over", "info")
    assert 0 <= timed_out["late_seconds"] < 1 and "seat 1 ran out of time" in timed_out["message"]
    assert (said["game_finished", slow]["result"], said["game_finished", slow]["winners"]) == ("timed_out", [0])
    assert (said["game_finished", resigned]["result"], said["game_finished", resigned]["winners"]) == ("resigned", [1])

    started, stopped = said["started", None], said["stopped", None]
    assert started["address"] == f"127.0.0.1:{server.port}" and started["workers"] == 1
    assert started["database"] == shown(database_url)  # its servers and database, no password
    assert {k: v for k, v in stopped.items() if k not in ("time", "message", "event")} == \
        {k: v for k, v in started.items() if k not in ("time", "message", "event")}
    assert lines.index(started) < lines.index(timed_out) < lines.index(stopped)

    assert CARD.findall(text) == []
    assert not any(token in text for token in [*slow_tokens, *resigned_tokens, OPERATOR_TOKEN])
    assert "password" not in text and "seed" not in text.lower()

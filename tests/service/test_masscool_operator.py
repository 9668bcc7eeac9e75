"""``casino verify``, ``export`` and ``replay`` on a Mass Cool Casino game
played over HTTP: its transcript replays into an empty database as the very
same game, and prints step by step."""

from __future__ import annotations

import json
import re
import uuid

import migrations
from service.auth import OPERATOR
from service.cache import StateCache
from service.games import GameService
from service.ops.cli import main
from service.postgres.database import open_pool
from service.postgres.ratings import PostgresRatings
from service.postgres.store import PostgresEventStore
from service.views import game_view
from tests.api.masscool import HttpTable, deck_codes

from tests.service.test_operator_commands import content, stored


def finished_game(api) -> HttpTable:
    """Two players through a tie the operator reshuffles, to the end."""
    t = HttpTable(api, 2, deck_codes(2, 0, 10, stock="KD KC"))
    t.one_card_each()
    t.reshuffle("QD 2D")
    t.finish()
    return t


def test_export_and_replay_reproduce_a_mass_cool_casino_game_exactly(
        api, operator, database_url, scratch_url, tmp_path, monkeypatch, capsys):
    t = finished_game(api)
    path = tmp_path / "game.json"
    monkeypatch.setenv("DATABASE_URL", database_url)
    monkeypatch.setenv("CASINO_OPERATOR_TOKEN", operator)
    assert main(["verify", t.game.id]) == 0
    assert main(["export", t.game.id, "--output", str(path)]) == 0
    transcript = json.loads(path.read_text())
    assert transcript["variant"] == "mass-cool-casino" and transcript["options"]["money"] == 10
    assert transcript["seats"] == [{"seat": 0, "name": "P0", "open": False}, {"seat": 1, "name": "P1", "open": False}]
    migrations.upgrade(scratch_url)
    monkeypatch.setenv("DATABASE_URL", scratch_url)
    capsys.readouterr()

    assert main(["replay", str(path)]) == 0

    assert f"as game {t.game.id}, under its own id" in capsys.readouterr().out
    original, replayed = stored(database_url, t.game.id), stored(scratch_url, t.game.id)
    assert content(replayed) == content(original)
    with open_pool(scratch_url) as pool:
        state = GameService(PostgresEventStore(pool), StateCache()).load(uuid.UUID(t.game.id))
        assert game_view(state, OPERATOR, PostgresRatings(pool).of) == t.view()
    assert main(["verify", t.game.id]) == 0  # its read model row came with it


def test_replay_print_tells_the_game_step_by_step(api, database_url, tmp_path, monkeypatch, capsys):
    t = finished_game(api)
    path = tmp_path / "game.json"
    monkeypatch.setenv("DATABASE_URL", database_url)
    main(["export", t.game.id, "-o", str(path)])
    capsys.readouterr()

    assert main(["replay", str(path), "--print"]) == 0

    lines = capsys.readouterr().out.splitlines()
    count = len(json.loads(path.read_text())["events"])
    assert len(lines) == count + 1 and lines[-1] == f"{count} events replayed: the game is finished."
    assert re.fullmatch(r"\s+1  TableOpened +Mass Cool Casino for P0, P1; seat 0 deals", lines[0])
    assert any(line.endswith("round 1: seat 0, seat 1 tie; the pot goes back into the deck") for line in lines)
    assert any(line.endswith("the deck is reshuffled (fixed by the operator)") for line in lines)
    assert lines[-2].split()[1] == "MoneyCounted" and "(deck_out)" in lines[-2]

"""What the chain and the signed checkpoints catch that the chain alone
did not: a truncated tail, edits of metadata and recorded_at, an event
moved in the global log, a checkpoint forged or removed, and a game put
back to an earlier state, against heads kept outside the database."""

import json

import pytest

from service import checkpoints
from service.cache import StateCache
from service.ops.cli import main
from service.web.current import services

from .test_verify import check, game, last, report  # noqa: F401 (fixtures: a game some ten events long)
from .conftest import GLOBAL_ORDER_ON_CITUS


def test_a_truncated_tail_with_its_row_fixed_is_named_a_truncation(api, operator, game, last, tamper):
    tamper("DELETE FROM events WHERE game_id = %s AND version >= %s", (game.id, last - 1))
    tamper("UPDATE games SET version = %s WHERE id = %s", (last - 2, game.id))
    tamper("UPDATE games SET status = 'in_progress' WHERE id = %s", (game.id,))

    body = report(api, game, operator)

    assert body["ok"] is False and check(body, "hash_chain")["ok"] is True
    found = check(body, "checkpoint")
    assert found["ok"] is False and found["first_bad_version"] == last - 1
    assert found["detail"].startswith("Truncated") and "last 2 event(s) were deleted" in found["detail"]


@pytest.mark.parametrize("worker", ["warm", "cold"])
def test_no_play_signs_a_head_over_a_truncated_game(api, operator, game, last, tamper, worker):
    """Truncate the tail and fix the row: the next ordinary play, by a worker
    that had the game cached or one that reads it afresh, must not re-sign
    what is left (the checkpoint would then vouch for it)."""
    seat = api.view(game)["turn"]
    move = api.get(f"{game.url}/moves", token=game.tokens[seat]).get_json()["moves"][0]
    tamper("DELETE FROM events WHERE game_id = %s AND version >= %s", (game.id, last - 1))
    tamper("UPDATE games SET version = %s WHERE id = %s", (last - 2, game.id))
    if worker == "cold":
        services(api.app).games.cache = StateCache()

    answer = api.post(f"{game.url}/play", json=move, token=game.tokens[seat])

    assert answer.status_code == 500 and answer.get_json()["code"] == "corrupt_game"
    assert answer.get_json()["first_bad_version"] == last - 1
    assert len(api.events(game, operator)) == last - 2  # nothing was appended
    assert check(report(api, game, operator), "checkpoint")["ok"] is False


def test_a_game_whose_checkpoint_was_forged_to_fit_a_truncation_is_not_played_on(api, operator, game, last,
                                                                                  tamper):
    events = api.events(game, operator)
    tamper("DELETE FROM events WHERE game_id = %s AND version = %s", (game.id, last))
    tamper("UPDATE checkpoints SET version = %s, head = %s, signature = %s WHERE game_id = %s",
           (last - 1, events[-2]["hash"], "ab" * 32, game.id))
    services(api.app).games.cache = StateCache()  # a worker that reads the game afresh

    answer = api.get(game.url, token=game.tokens[0])

    assert answer.status_code == 500 and answer.get_json()["code"] == "corrupt_game"


@pytest.mark.parametrize("edit", [
    "UPDATE events SET metadata = jsonb_set(metadata, '{actor}', '\"operator\"')"
    " WHERE game_id = %s AND version = %s",
    "UPDATE events SET recorded_at = '2001-02-03 04:05:06Z' WHERE game_id = %s AND version = %s",
])
def test_metadata_and_recorded_at_are_covered_by_the_chain(api, operator, game, last, tamper, edit):
    tamper(edit, (game.id, last - 2))

    found = check(report(api, game, operator), "hash_chain")

    assert found["ok"] is False and found["first_bad_version"] == last - 2


@pytest.mark.not_on_citus(GLOBAL_ORDER_ON_CITUS)
def test_an_event_moved_later_in_the_global_log_is_caught(api, operator, game, last, tamper):
    tamper("UPDATE events SET position = (SELECT max(position) + 1 FROM events)"
           " WHERE game_id = %s AND version = %s", (game.id, last - 1))

    body = report(api, game, operator)

    assert check(body, "hash_chain")["ok"] is True
    assert check(body, "order")["ok"] is False and check(body, "order")["first_bad_version"] == last


def test_a_checkpoint_signed_without_the_key_is_caught(api, operator, game, last, tamper):
    """Whoever truncates the game and writes a checkpoint for what is left,
    without the key, signs it wrongly."""
    events = api.events(game, operator)
    tamper("DELETE FROM events WHERE game_id = %s AND version = %s", (game.id, last))
    tamper("UPDATE checkpoints SET version = %s, head = %s, signature = %s WHERE game_id = %s",
           (last - 1, events[-2]["hash"], "ab" * 32, game.id))

    found = check(report(api, game, operator), "checkpoint")

    assert found["ok"] is False and "signature is wrong" in found["detail"]


def test_a_deleted_checkpoint_is_caught(api, operator, game, tamper):
    tamper("DELETE FROM checkpoints WHERE game_id = %s", (game.id,))

    found = check(report(api, game, operator), "checkpoint")

    assert found["ok"] is False and "deleted" in found["detail"]


def test_heads_kept_outside_catch_a_game_put_back_as_it_was_earlier(
        api, operator, game, last, tamper, database_url, monkeypatch, tmp_path, capsys):
    """The database put back whole to an earlier moment (its old, genuine
    checkpoint included) looks sound to verify; the heads kept since do not."""
    monkeypatch.setenv("DATABASE_URL", database_url)
    monkeypatch.setenv("CASINO_OPERATOR_TOKEN", operator)
    earlier = [e for e in api.events(game, operator) if e["version"] == last - 1][0]
    kept = tmp_path / "heads.json"
    assert main(["heads", "--output", str(kept)]) == 0
    heads = json.loads(kept.read_text())["heads"]
    assert {"game_id": game.id, "version": last, "head": api.events(game, operator)[-1]["hash"]} in heads

    old = checkpoints.sign(checkpoints.key_for(api.app.config), game.id, last - 1, earlier["hash"])
    tamper("DELETE FROM events WHERE game_id = %s AND version = %s", (game.id, last))
    tamper("UPDATE checkpoints SET version = %s, head = %s, signature = %s WHERE game_id = %s",
           (old.version, old.head, old.signature, game.id))
    tamper("UPDATE games SET version = %s, status = 'in_progress' WHERE id = %s", (last - 1, game.id))
    capsys.readouterr()

    assert check(report(api, game, operator), "checkpoint")["ok"] is True
    assert main(["verify", game.id, "--heads", str(kept)]) == 1
    out = capsys.readouterr().out
    assert f"game {game.id}: kept head at version {last}, but it no longer has that version" in out

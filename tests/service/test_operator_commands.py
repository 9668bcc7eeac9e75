"""``casino verify``, ``export``, ``replay`` and ``rebuild-projections`` on real games.

Games are made through the API. Commands that look at every game run on a
database of their own (``scratch``), so that the shared one's odd test games
do not count.
"""

from __future__ import annotations

import json
import re
import threading
import uuid

import psycopg
import pytest

import migrations
from service.web.app import close_app, create_app
from service.cache import StateCache
from service.auth import OPERATOR
from service.chain import first_break
from service.ops.cli import main
from service.postgres.database import open_pool
from service.postgres.ratings import PostgresRatings
from service.games import GameService
from service.events import refold_checked
from service.projection import expected_row
from service.postgres.readmodel import PostgresReadModel
from service.postgres.store import PostgresEventStore
from service.views import game_view
from tests.api.conftest import ONE_HAND, ORDERED_DECK, Api
from tests.api.test_join import join, open_game, player
from tests.conftest import TEST_SETTINGS, tamper_with


@pytest.fixture
def scratch(scratch_url, monkeypatch):
    """An API over an empty database of its own, which the commands use."""
    migrations.upgrade(scratch_url)
    app = create_app({**TEST_SETTINGS, "DATABASE_URL": scratch_url})
    monkeypatch.setenv("DATABASE_URL", scratch_url)
    yield Api(app, app.test_client())
    close_app(app)


@pytest.fixture
def on_session_database(database_url, monkeypatch):
    monkeypatch.setenv("DATABASE_URL", database_url)


def finished_game(api, seed=0):
    game = api.create(first_dealer=1, options=ONE_HAND)
    api.deal(game, ORDERED_DECK)
    api.play(game, seed=seed)
    return game


def stored(url: str, game_id) -> list:
    with open_pool(url) as pool:
        return PostgresEventStore(pool).load(game_id)


def content(events) -> list[tuple]:
    return [(e.version, e.type, e.schema_version, e.data, e.metadata, e.hash) for e in events]


def games_table(url: str) -> list[tuple]:
    with psycopg.connect(url) as conn:
        return conn.execute("SELECT * FROM games ORDER BY id").fetchall()


# -- verify -----------------------------------------------------------------

def test_verify_reports_every_check_of_one_game(api, tamper, on_session_database, capsys):
    game = api.create(first_dealer=1)
    api.deal(game, ORDERED_DECK)
    api.play(game, steps=4)
    last = api.view(game)["version"]

    assert main(["verify", game.id]) == 0
    out = capsys.readouterr().out
    assert f"game {game.id}: sound (version {last}," in out
    assert "hash_chain: ok" in out and "projection: ok" in out

    tamper("UPDATE events SET data = data || '{\"forged\": true}' WHERE game_id = %s AND version = %s",
           (game.id, last - 1))
    assert main(["verify", game.id]) == 1
    assert f"hash_chain: FAILED: Version {last - 1} does not match its hash" in capsys.readouterr().out


def test_verify_says_so_when_there_is_no_such_game(on_session_database, capsys):
    assert main(["verify", str(uuid.uuid4())]) == 1
    out, err = capsys.readouterr()
    assert out == "" and "casino: there is no game" in err


def test_verify_shows_the_full_head_hash_and_prints_json_on_request(api, on_session_database, capsys):
    game = api.create(first_dealer=1)
    api.deal(game, ORDERED_DECK)
    head = stored(api.app.config["DATABASE_URL"], game.id)[-1].hash

    assert main(["verify", game.id]) == 0
    assert f"head {head})" in capsys.readouterr().out

    assert main(["verify", game.id, "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["game_id"] == game.id and report["ok"] is True and report["head"] == head
    assert [c["name"] for c in report["checks"]] == ["hash_chain", "order", "checkpoint", "projection", "shuffles"]


def test_verify_json_of_every_game_lists_every_report(scratch, scratch_url, capsys):
    games = [scratch.create() for _ in range(2)]
    tamper_with(scratch_url, "DELETE FROM events WHERE game_id = %s AND version = 1", (games[1].id,))

    assert main(["verify", "--json"]) == 1

    reports = {r["game_id"]: r for r in json.loads(capsys.readouterr().out)}
    assert reports.keys() == {g.id for g in games}
    assert reports[games[0].id]["ok"] is True and reports[games[1].id]["ok"] is False


def test_verify_checks_every_game_and_names_the_broken_ones(scratch, scratch_url, capsys):
    games = [scratch.create() for _ in range(3)]
    for game in games:
        scratch.deal(game, ORDERED_DECK)

    assert main(["verify"]) == 0
    assert capsys.readouterr().out.strip() == "3 games checked: all sound."

    tamper_with(scratch_url, "DELETE FROM events WHERE game_id = %s AND version = 1", (games[1].id,))
    assert main(["verify"]) == 1
    out = capsys.readouterr().out
    assert f"game {games[1].id}: PROBLEMS" in out and "Version 1 is missing" in out
    assert games[0].id not in out and out.strip().endswith("3 games checked: 1 with problems.")


def test_operator_commands_refuse_a_database_behind_the_code(scratch_url, monkeypatch, capsys):
    migrations.upgrade(scratch_url, "0001")
    monkeypatch.setenv("DATABASE_URL", scratch_url)
    assert main(["verify"]) == 1
    assert "run `casino migrate` first" in capsys.readouterr().err


# -- rebuild-projections ----------------------------------------------------

def test_rebuilding_the_read_model_from_the_events_gives_back_what_the_service_kept(scratch, scratch_url,
                                                                                    capsys):
    finished = finished_game(scratch)
    playing = scratch.create(players=3)
    scratch.deal(playing, ORDERED_DECK)
    scratch.play(playing, steps=5)
    waiting = scratch.create(variant="partnership", players=4)
    kept = games_table(scratch_url)
    with psycopg.connect(scratch_url) as conn:
        conn.execute("DELETE FROM games WHERE id = %s", (finished.id,))
        conn.execute("UPDATE games SET status = 'finished', version = 1, created_at = now(),"
                     " player_names = '{Mallory}' WHERE id = %s", (playing.id,))
        conn.execute("INSERT INTO games (id, variant, status, version) VALUES (%s, 'cassino', 'waiting', 1)",
                     (uuid.uuid4(),))
    assert games_table(scratch_url) != kept

    assert main(["rebuild-projections"]) == 0

    assert games_table(scratch_url) == kept
    assert "3 of 3 games rebuilt; 1 rows without events removed." in capsys.readouterr().out
    assert {row[0] for row in kept} == {uuid.UUID(g.id) for g in (finished, playing, waiting)}


def player_seats_table(url: str) -> list[tuple]:
    with psycopg.connect(url) as conn:
        return conn.execute("SELECT * FROM player_seats ORDER BY player_id, game_id").fetchall()


def test_the_lobby_and_the_seats_players_hold_are_verified_and_rebuilt(scratch, scratch_url, capsys):
    ann, bob = player(scratch, "Ann"), player(scratch, "Bob")
    waiting = open_game(scratch, seats=("Host", None, None))  # listed, with Ann and a seat still open
    join(scratch, waiting, ann["token"])
    started = open_game(scratch, "mass-cool-casino", seats=("Host", None), listed=False)
    join(scratch, started, bob["token"])
    scratch.post(f"{started.url}/deal", json={}, token=started.tokens[0])
    kept, seats = games_table(scratch_url), player_seats_table(scratch_url)
    assert main(["verify"]) == 0
    capsys.readouterr()
    with psycopg.connect(scratch_url) as conn:
        conn.execute("DELETE FROM player_seats WHERE game_id = %s", (waiting.id,))
        conn.execute("UPDATE games SET lobby = NULL WHERE id = %s", (waiting.id,))
        conn.execute("UPDATE games SET awaiting = '{}', deadline = now() WHERE id = %s", (started.id,))

    assert main(["verify"]) == 1
    out = capsys.readouterr().out
    assert f"game {waiting.id}: PROBLEMS" in out and f"game {started.id}: PROBLEMS" in out
    assert "disagrees with the events on lobby, player_seats" in out
    assert "disagrees with the events on awaiting, deadline" in out

    assert main(["rebuild-projections"]) == 0
    assert games_table(scratch_url) == kept and player_seats_table(scratch_url) == seats
    assert main(["verify"]) == 0


def test_a_game_whose_events_do_not_fold_keeps_its_row_and_is_reported(scratch, scratch_url, capsys):
    game = scratch.create()
    scratch.deal(game, ORDERED_DECK)
    before = games_table(scratch_url)
    tamper_with(scratch_url, "UPDATE events SET type = 'Nonsense' WHERE game_id = %s AND version = 2",
                (game.id,))

    assert main(["rebuild-projections"]) == 1

    assert f"game {game.id}: not rebuilt: Version 2 (Nonsense) cannot be applied" in capsys.readouterr().out
    assert games_table(scratch_url) == before


def test_an_append_waits_for_a_rebuild_of_its_game_so_the_row_never_goes_back(api, pool, operator):
    """The rebuild locks the game's row before it reads the events; an
    append (which updates the row first) waits, then writes the newer row."""
    name = f"Rebuilt-{uuid.uuid4().hex[:8]}"
    game = api.create(first_dealer=1, first_name=name)
    dealt = api.deal(game, ORDERED_DECK).get_json()["version"]
    read, release = threading.Event(), threading.Event()

    def project(events):
        read.set()
        release.wait(5)
        return expected_row(events, refold_checked(events))

    rebuild = threading.Thread(target=PostgresReadModel(pool).rebuild, args=(uuid.UUID(game.id), project))
    rebuild.start()
    read.wait(5)
    play = threading.Thread(target=api.play, args=(game, 1))
    play.start()
    play.join(0.3)
    assert play.is_alive()  # waiting for the game's row

    release.set()
    rebuild.join()
    play.join()

    [row] = api.get(f"/v1/games?player={name}", token=operator).get_json()["games"]
    assert row["version"] == api.view(game)["version"] > dealt


# -- export and replay ------------------------------------------------------

def test_replaying_an_export_into_an_empty_database_reproduces_the_game_exactly(
        api, operator, database_url, scratch_url, tmp_path, monkeypatch, capsys):
    game = finished_game(api, seed=5)
    path = tmp_path / "game.json"
    monkeypatch.setenv("DATABASE_URL", database_url)
    monkeypatch.setenv("CASINO_OPERATOR_TOKEN", operator)  # replay signs the game's head with it
    assert main(["export", game.id, "--output", str(path)]) == 0
    migrations.upgrade(scratch_url)
    monkeypatch.setenv("DATABASE_URL", scratch_url)

    assert main(["replay", str(path)]) == 0

    assert f"as game {game.id}, under its own id" in capsys.readouterr().out
    original, replayed = stored(database_url, game.id), stored(scratch_url, game.id)
    assert content(replayed) == content(original) and len(original) > 50
    with open_pool(scratch_url) as pool:
        state = GameService(PostgresEventStore(pool), StateCache()).load(uuid.UUID(game.id))
        assert game_view(state, OPERATOR, PostgresRatings(pool).of) == api.view(game, operator)
    assert main(["verify", game.id]) == 0  # its read model row came with it


def test_export_of_a_game_that_fails_verification_is_refused_unless_forced(
        api, tamper, on_session_database, tmp_path, capsys):
    game = finished_game(api)
    tamper("UPDATE events SET data = data || '{\"forged\": true}' WHERE game_id = %s AND version = 3",
           (game.id,))
    path = tmp_path / "game.json"

    assert main(["export", game.id, "-o", str(path)]) == 1
    out, err = capsys.readouterr()
    assert out == "" and not path.exists()
    assert f"game {game.id} fails verification (hash_chain" in err and "--force" in err

    assert main(["export", game.id, "-o", str(path), "--force"]) == 0
    assert "exported anyway" in capsys.readouterr().err
    assert json.loads(path.read_text())["events"][2]["data"]["forged"] is True


@pytest.mark.parametrize("where", ["missing/dir/game.json", "."])
def test_export_to_a_path_it_cannot_write_says_so_without_a_traceback(
        api, on_session_database, tmp_path, where, capsys):
    game = api.create(first_dealer=1)

    assert main(["export", game.id, "-o", str(tmp_path / where)]) == 1

    out, err = capsys.readouterr()
    assert out == "" and err.splitlines()[-1].startswith(f"casino: cannot write {tmp_path / where}: ")
    assert "Traceback" not in err


def test_the_transcript_holds_the_options_and_every_event_as_stored(api, on_session_database, capsys):
    game = finished_game(api)
    assert main(["export", game.id]) == 0
    transcript = json.loads(capsys.readouterr().out)
    assert transcript["game_id"] == game.id and transcript["variant"] == "cassino"
    assert transcript["options"]["target"] is None and [s["name"] for s in transcript["seats"]] == ["P0", "P1"]
    events = stored(api.app.config["DATABASE_URL"], game.id)
    assert [e["hash"] for e in transcript["events"]] == [e.hash for e in events]
    assert transcript["head"] == events[-1].hash
    dealt = next(e for e in events if e.type == "HandDealt")
    assert transcript["events"][dealt.version - 1] == {
        "version": dealt.version, "type": "HandDealt", "schema_version": dealt.schema_version, "data": dealt.data,
        "metadata": dealt.metadata, "recorded_at": dealt.recorded_at.isoformat(), "hash": dealt.hash,
        "chain": 2}


def test_replaying_into_the_database_it_came_from_makes_a_new_game_with_new_tokens(
        api, operator, database_url, on_session_database, tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("CASINO_OPERATOR_TOKEN", operator)  # the settings `casino serve` has: the same checkpoint key
    game = api.create(first_dealer=1)
    api.deal(game, ORDERED_DECK)
    api.play(game, steps=3)
    path = tmp_path / "game.json"
    main(["export", game.id, "-o", str(path)])
    capsys.readouterr()

    assert main(["replay", str(path)]) == 0

    out = capsys.readouterr().out
    new_id = re.search(r"as game ([0-9a-f-]{36}), under a new id", out).group(1)
    tokens = re.findall(r"seat \d: (\S+)", out)
    replayed = stored(database_url, new_id)
    assert first_break(new_id, replayed) is None
    assert [c[:5] for c in content(replayed)] == [c[:5] for c in content(stored(database_url, game.id))]
    copy = api.get(f"/v1/games/{new_id}", token=operator).get_json()
    assert copy == api.view(game, operator)
    seat_view = api.get(f"/v1/games/{new_id}", token=tokens[0]).get_json()
    assert seat_view["you"] == 0 and seat_view["hand"] == api.view(game, game.tokens[0])["hand"]


def test_replay_print_shows_each_step_and_needs_no_database(api, on_session_database, tmp_path,
                                                             monkeypatch, capsys):
    game = finished_game(api)
    path = tmp_path / "game.json"
    main(["export", game.id, "-o", str(path)])
    capsys.readouterr()
    monkeypatch.setenv("DATABASE_URL", "postgresql://nobody@127.0.0.1:1/none?connect_timeout=1")

    assert main(["replay", str(path), "--print"]) == 0

    lines = capsys.readouterr().out.splitlines()
    count = len(json.loads(path.read_text())["events"])
    assert len(lines) == count + 1
    assert re.fullmatch(r"\s+1  GameCreated +cassino for P0, P1; seat 1 deals first", lines[0])
    [dealt] = [line for line in lines if line.split()[1] == "HandDealt"]
    assert dealt.endswith("hand 1 dealt by seat 1; table 3S 4S 9S 10S (deck fixed by the operator)")
    assert lines[-2].split()[1] == "GameFinished"
    assert lines[-1] == f"{count} events replayed: the game is finished."
    starts = {len(re.match(r"\s*\d+  \S+ +", line).group()) for line in lines[:-1]}
    assert len(starts) == 1, "every step's summary starts in one column, whatever its type's name"


@pytest.mark.parametrize("change,message", [
    (lambda t: t["events"][4]["data"].update(forged=True), "breaks at version 5"),
    (lambda t: t["events"].pop(2), "breaks at version 3: Version 3 is missing"),
    (lambda t: t.update(head="0" * 64), "head"),
    (lambda t: t.pop("events"), "This transcript is damaged: a field is missing"),
    (lambda t: t.clear(), "not a casino-transcript version 1 document"),
])
def test_a_transcript_that_was_changed_is_refused(api, on_session_database, tmp_path, capsys, change,
                                                   message):
    game = api.create(first_dealer=1)
    api.deal(game, ORDERED_DECK)
    api.play(game, steps=4)
    path = tmp_path / "game.json"
    main(["export", game.id, "-o", str(path)])
    transcript = json.loads(path.read_text())
    change(transcript)
    path.write_text(json.dumps(transcript))

    assert main(["replay", str(path), "--print"]) == 1
    assert message in capsys.readouterr().err


@pytest.mark.parametrize("where", ["missing/dir/heads.json", "."])
def test_heads_to_a_path_it_cannot_write_say_so_without_a_traceback(on_session_database, tmp_path, where, capsys):
    assert main(["heads", "-o", str(tmp_path / where)]) == 1

    out, err = capsys.readouterr()
    assert out == "" and err.splitlines()[-1].startswith(f"casino: cannot write {tmp_path / where}: ")
    assert "Traceback" not in err


@pytest.mark.parametrize("document,why", [
    ("[1, 2]", "its format is not named"),
    ('{"format": "casino-heads"}', "it has no list of heads"),
    ('{"format": "casino-heads", "heads": [{"game_id": "not-a-uuid", "version": 1, "head": "ab"}]}',
     "head 1 lacks a game id, version or hash"),
    ('{"format": "casino-heads", "heads": [{"game_id": "' + str(uuid.uuid4()) + '", "head": "ab"}]}',
     "head 1 lacks a game id, version or hash"),
    ('{"format": "casino-heads", "heads": [{"game_id": "' + str(uuid.uuid4()) + '", "version": "7", "head": "ab"}]}',
     "head 1 has a version or hash of the wrong kind"),
])
def test_a_heads_file_that_casino_heads_did_not_write_is_refused_in_one_line(
        on_session_database, tmp_path, capsys, document, why):
    kept = tmp_path / "heads.json"
    kept.write_text(document)

    assert main(["verify", "--heads", str(kept)]) == 1

    err = capsys.readouterr().err
    assert err.splitlines()[-1] == f"casino: this is not a casino-heads document that `casino heads` wrote: {why}"
    assert "Traceback" not in err

"""What client generators make of openapi.yaml: mobile and web apps
integrate through them, so a warning there is a fault of the spec.

A Python client made by a pinned ``openapi-python-client`` plays whole hands
of Cassino, and a whole game of Mass Cool Casino, against a live ``casino
serve``, through the generated code only: the moves it plays are the very
objects ``/moves`` answered with, and it tells the two games' views and
every event apart by the classes the generator made. A Kotlin client made
as docs/kotlin_client.py makes it (openapi-generator, Jackson) decodes the
views, move lists and logs of both games that a live server answered, each
union into the class its discriminator names, with the values the JSON holds.
"""

from __future__ import annotations

import hashlib
import importlib
import json
import re
import os
import shutil
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path
from uuid import UUID

import pytest

from tests.conftest import OPERATOR_TOKEN
from tests.service.npm_tools import NpmMissing, npm_tools, tool_cache
from tests.service.serving import Serving, serve_environment
from tests.service.spec_check import spec

pytestmark = pytest.mark.toolchain  # runs the client generators and compilers

ROOT = Path(__file__).resolve().parents[2]
SPEC = ROOT / "openapi.yaml"

#: The generator's settings, as the README tells client developers to use
#: them: no formatter run afterwards, and the spec's own YAML answer read as text.
PYTHON_CONFIG = ROOT / "docs" / "openapi-python-client.yaml"

#: The live server's operator token: the tests', as the server shares their database (``serve_environment``).
OPERATOR = OPERATOR_TOKEN


def _generate_python_client(where: Path):
    config = PYTHON_CONFIG
    generator = Path(sys.executable).with_name("openapi-python-client")
    done = subprocess.run([str(generator), "generate", "--path", str(SPEC), "--meta", "none",
                           "--output-path", str(where / "casino_client"), "--config", str(config)],
                          capture_output=True, text=True, timeout=300, cwd=where)
    output = done.stdout + done.stderr
    assert done.returncode == 0, output
    assert "warning" not in output.lower(), output
    sys.path.insert(0, str(where))
    try:
        return importlib.import_module("casino_client")
    finally:
        sys.path.remove(str(where))


@pytest.fixture(scope="module")
def casino_client(tmp_path_factory):
    """The generated package (``casino_client``), fresh from the current spec."""
    yield _generate_python_client(tmp_path_factory.mktemp("python-client"))
    for name in [m for m in sys.modules if m == "casino_client" or m.startswith("casino_client.")]:
        del sys.modules[name]


@pytest.fixture(scope="module")
def server(tmp_path_factory, database_url):
    where = tmp_path_factory.mktemp("server")
    environ = serve_environment(DATABASE_URL=database_url, CASINO_DATA_DIR=str(where / "data"),
                                CASINO_OPERATOR_TOKEN=OPERATOR,
                                CASINO_WORKERS="1", CASINO_THREADS="2")
    serving = Serving(where, environ, "clients")
    yield serving
    serving.stop()


def _play_one_hand(casino_client, base_url: str, variant: str, players: int) -> list:
    """Create a game, deal it and play the first listed move at each turn
    until the hand is over, every request through the generated client."""
    from casino_client import AuthenticatedClient, Client
    from casino_client.api.commands import deal, play
    from casino_client.api.games import create_game, get_game, list_moves
    from casino_client.models import (CassinoGame, CommandResult, CreateGame, CreatedGame, GameStatus, MoveList,
                                      SeatName)

    body = CreateGame(variant=variant, seats=[SeatName(name=f"P{i}") for i in range(players)],
                      first_dealer=players - 1)
    created = create_game.sync(client=Client(base_url=base_url), body=body)
    assert isinstance(created, CreatedGame), created
    game_id = UUID(str(created.id))
    seats = [AuthenticatedClient(base_url=base_url, token=s.token) for s in created.seats]
    dealt = deal.sync(game_id, client=seats[players - 1])
    assert isinstance(dealt, CommandResult), dealt
    view, played = dealt.game, []
    while view.status == GameStatus.IN_PROGRESS:
        listed = list_moves.sync(game_id, client=seats[view.turn])
        assert isinstance(listed, MoveList) and listed.moves, listed
        move = listed.moves[0]
        done = play.sync(game_id, client=seats[view.turn], body=move)
        assert isinstance(done, CommandResult), done
        played.append(move)
        view = get_game.sync(game_id, client=seats[0])
        assert isinstance(view, CassinoGame), view
    assert view.status in (GameStatus.HAND_OVER, GameStatus.FINISHED)
    assert len(view.seats) == players and len(view.scores) == (2 if players == 4 else players)
    return played


@pytest.mark.parametrize(("variant", "players"), [("cassino", 2), ("partnership", 4)])
def test_the_generated_python_client_plays_a_whole_hand(casino_client, server, variant, players):
    played = _play_one_hand(casino_client, server.url, variant, players)
    assert len(played) == 48  # every card but the four first laid on the table


def test_the_generated_python_client_plays_a_whole_game_of_mass_cool_casino(casino_client, server):
    from casino_client import AuthenticatedClient, Client
    from casino_client.api.audit import list_game_events
    from casino_client.api.commands import deal, play
    from casino_client.api.games import create_game, get_game, list_moves
    from casino_client.models import (BetMove, BetPlacedEvent, CommandResult, CreateGame, CreatedGame, MassCoolGame,
                                      MassCoolStatus, MoneyCountedEvent, MoveList, SeatName, StopMove)

    body = CreateGame(variant="mass-cool-casino", seats=[SeatName(name=f"P{i}") for i in range(3)], first_dealer=0)
    created = create_game.sync(client=Client(base_url=server.url), body=body)
    assert isinstance(created, CreatedGame) and isinstance(created.game, MassCoolGame), created
    game_id = UUID(str(created.id))
    seats = [AuthenticatedClient(base_url=server.url, token=s.token) for s in created.seats]
    view = deal.sync(game_id, client=seats[0]).game
    kinds = set()
    while view.status != MassCoolStatus.FINISHED:
        listed = list_moves.sync(game_id, client=seats[view.turn])
        assert isinstance(listed, MoveList) and listed.moves, listed
        move = listed.moves[0]  # the stop when it is allowed, else the cheapest bet
        kinds.add(type(move))
        assert isinstance(play.sync(game_id, client=seats[view.turn], body=move), CommandResult)
        view = get_game.sync(game_id, client=seats[1])
        assert isinstance(view, MassCoolGame), view
    assert kinds == {BetMove, StopMove}
    assert view.winners and view.result is not None and len(view.totals) == 3
    log = list_game_events.sync(game_id, client=seats[1], limit=500)
    assert any(isinstance(e, BetPlacedEvent) for e in log.events)
    [counted] = [e for e in log.events if isinstance(e, MoneyCountedEvent)]
    assert counted.data.winners == view.winners


def test_two_players_find_a_game_in_the_lobby_join_it_and_play_it_through_the_generated_client(
        casino_client, server):
    """Two registered players, each with a client of their own: the host's
    game with two open seats is in the lobby, both join it there, one deals
    and they play the hand out; each finds the game among their own."""
    from casino_client import AuthenticatedClient, Client
    from casino_client.api.commands import deal, play
    from casino_client.api.games import create_game, get_game, list_moves
    from casino_client.api.players import join_game, list_lobby, list_my_games, register_player
    from casino_client.models import (CassinoGame, CommandResult, CreateGame, CreatedGame, GameStatus, GameType,
                                      Joined, LobbyPage, MoveList, MyGamePage, NewPlayer, OpenSeat, Options,
                                      RegisteredPlayer)

    anyone = Client(base_url=server.url)
    players = []
    for name in ("Ann", "Bob"):
        registered = register_player.sync(client=anyone, body=NewPlayer(name=name))
        assert isinstance(registered, RegisteredPlayer), registered
        players.append(AuthenticatedClient(base_url=server.url, token=registered.token))
    created = create_game.sync(client=anyone, body=CreateGame(
        variant="cassino", seats=[OpenSeat(open_=True), OpenSeat(open_=True)], first_dealer=1,
        options=Options.from_dict({"target": None, "count_out": False})))
    assert isinstance(created, CreatedGame), created
    game_id = UUID(str(created.id))

    lobby = list_lobby.sync(client=anyone, game_type=[GameType.CASSINO])
    assert isinstance(lobby, LobbyPage) and any(UUID(str(g.id)) == game_id for g in lobby.games)
    seats = {}
    for client in players:
        joined = join_game.sync(game_id, client=client)
        assert isinstance(joined, Joined), joined
        seats[joined.seat] = client
    assert sorted(seats) == [0, 1]
    assert all(UUID(str(g.id)) != game_id for g in list_lobby.sync(client=anyone).games)  # no seat open now

    view = deal.sync(game_id, client=seats[1]).game
    while view.status == GameStatus.IN_PROGRESS:
        listed = list_moves.sync(game_id, client=seats[view.turn])
        assert isinstance(listed, MoveList) and listed.moves, listed
        assert isinstance(play.sync(game_id, client=seats[view.turn], body=listed.moves[0]), CommandResult)
        view = get_game.sync(game_id, client=seats[0])
        assert isinstance(view, CassinoGame), view
    assert view.status == GameStatus.FINISHED
    for seat, client in seats.items():
        mine = list_my_games.sync(client=client)
        assert isinstance(mine, MyGamePage)
        [game] = [g for g in mine.games if UUID(str(g.id)) == game_id]
        assert game.seat == seat and not game.your_turn


def test_the_generated_python_client_reads_a_game_without_a_token(casino_client, server):
    """A spectator's reads take a plain ``Client`` (the spec's security is
    optional there), and show no hand; a seat's token still shows its own."""
    import inspect
    import typing

    from casino_client import AuthenticatedClient, Client
    from casino_client.api.audit import list_game_events, replay_game
    from casino_client.api.commands import count_out
    from casino_client.api.games import create_game, get_game
    from casino_client.models import CassinoGame, CreateGame, CreatedGame, EventPage, SeatName

    def takes(operation) -> set[str]:
        annotation = inspect.signature(operation).parameters["client"].annotation
        return {kind.__name__ for kind in typing.get_args(annotation) or [annotation]}

    for operation in (get_game.sync, list_game_events.sync, replay_game.sync):
        assert takes(operation) == {"AuthenticatedClient", "Client"}
    assert takes(count_out.sync) == {"AuthenticatedClient"}
    anyone = Client(base_url=server.url)
    created = create_game.sync(client=anyone, body=CreateGame(
        variant="cassino", seats=[SeatName(name="Ann"), SeatName(name="Bob")], first_dealer=1))
    assert isinstance(created, CreatedGame)
    game_id = UUID(str(created.id))
    watched = get_game.sync(game_id, client=anyone)
    assert isinstance(watched, CassinoGame) and "you" not in watched.to_dict()
    seated = get_game.sync(game_id, client=AuthenticatedClient(base_url=server.url, token=created.seats[0].token))
    assert seated.to_dict()["you"] == 0
    assert isinstance(list_game_events.sync(game_id, client=anyone), EventPage)


def test_the_generated_python_client_reads_the_spec_as_json(casino_client, server):
    from casino_client import Client
    from casino_client.api.service import get_spec_json

    document = get_spec_json.sync(client=Client(base_url=server.url))
    assert document.additional_properties["openapi"] == "3.1.0"


def _snake(name: str) -> str:
    return re.sub(r"(?<!^)(?=[A-Z])", "_", name).lower()


def test_every_generated_type_is_named_by_the_spec(casino_client):
    """A type the generator names after where it found it (an operation's
    parameter, ``ListGamesStatusItem``; a union's branch, ``...Type1``) is
    one the spec forgot to name: each must be a schema of the spec, or one
    of its properties' own enum (``OptionsDeck``)."""
    schemas = spec()["components"]["schemas"]
    named = {_snake(name) for name in schemas}
    named |= {f"{_snake(name)}_{prop}" for name, schema in schemas.items()
              for prop in schema.get("properties", {})}
    made = {path.stem for path in (Path(casino_client.__file__).parent / "models").glob("*.py")} - {"__init__"}
    assert made - named == set()
    assert "any_game_status" in made and "strikes_to_lose" in made


# -- TypeScript -----------------------------------------------------------------

#: Pinned tools, installed once into a cache of their own (``CASINO_TOOL_CACHE``,
#: default ~/.cache/casino-tests) and reused by later runs.
NPM_TOOLS = {"openapi-typescript": "7.13.0", "typescript": "5.9.3"}

#: A small client written against the generated types: it must type-check
#: under --strict. It plays a listed move as it is (one Move schema), tells
#: the games' views apart by `game_type`, table items by `kind` and events
#: by `type`, and reads the nullable `result` enums.
TYPESCRIPT_CLIENT = """\
import type { components, paths } from "./schema";

type Schemas = components["schemas"];
type MoveList = paths["/v1/games/{game_id}/moves"]["get"]["responses"]["200"]["content"]["application/json"];
type PlayBody = NonNullable<paths["/v1/games/{game_id}/play"]["post"]["requestBody"]>["content"]["application/json"];

export async function playFirstMove(base: string, game: string, token: string): Promise<Schemas["CommandResult"]> {
  const headers = { Authorization: `Bearer ${token}`, "Content-Type": "application/json" };
  const listed = (await (await fetch(`${base}/v1/games/${game}/moves`, { headers })).json()) as MoveList;
  const move: PlayBody = listed.moves[0];
  const answer = await fetch(`${base}/v1/games/${game}/play`, { method: "POST", headers, body: JSON.stringify(move) });
  return (await answer.json()) as Schemas["CommandResult"];
}

export function describeTable(game: Schemas["Game"]): string[] {
  if (game.game_type === "mass-cool-casino") {
    return game.seats.map((seat) => `${seat.name}: ${seat.money_value}`);
  }
  return game.table.map((item) => (item.kind === "build" ? `${item.id}=${item.value}` : item.card));
}

export function outcome(game: Schemas["Game"]): Schemas["GameResult"] | Schemas["MassCoolResult"] | "playing" {
  return game.result === null ? "playing" : game.result;
}

export function cardsBet(events: Schemas["Event"][]): string[] {
  return events.flatMap((event) => (event.type === "BetPlaced" ? event.data.cards : []));
}
"""


def _npm_tools(tools: dict[str, str], purpose: str) -> Path:
    try:
        return npm_tools(tools)
    except NpmMissing:
        pytest.skip(f"node and npm are needed {purpose}; not found on PATH")


def test_a_typescript_client_type_checks_strictly_against_generated_types(tmp_path):
    tools = _npm_tools(NPM_TOOLS, "to type-check a TypeScript client") / "node_modules" / ".bin"
    generated = subprocess.run([str(tools / "openapi-typescript"), str(SPEC), "-o", str(tmp_path / "schema.d.ts")],
                               capture_output=True, text=True, timeout=120)
    output = generated.stdout + generated.stderr
    assert generated.returncode == 0, output
    assert "warn" not in output.lower() and "⚠" not in output, output
    (tmp_path / "client.ts").write_text(TYPESCRIPT_CLIENT)
    checked = subprocess.run([str(tools / "tsc"), "--strict", "--noEmit", "--target", "es2022", "--lib",
                              "es2022,dom", "--module", "es2022", "--moduleResolution", "bundler",
                              str(tmp_path / "client.ts")], capture_output=True, text=True, timeout=180)
    assert checked.returncode == 0, checked.stdout + checked.stderr


# -- Kotlin and Swift (openapi-generator) -----------------------------------------

#: Notices openapi-generator gives on this spec that are no fault of it: the
#: first on every OpenAPI 3.1 document; the second on any 3.1 document with an
#: object schema that says ``additionalProperties: false`` (a spec of bare
#: ``{type: object}`` schemas and one such gives it too), which this spec
#: says on purpose: answers hold no fields it does not name.
KNOWN_NOTICES = (
    "OpenAPI 3.1 support is still in beta",
    "ModelUtils - Failed to get the schema name: null",
)


def _complaints(log: str) -> list[str]:
    """The generator's warnings, errors and unsupported-feature messages, but the known notices."""
    flagged = [line for line in log.splitlines()
               if re.search(r"\b(WARN|ERROR)\b|unsupported|not supported", line, re.IGNORECASE)]
    return [line for line in flagged if not any(notice in line for notice in KNOWN_NOTICES)]


def test_kotlin_and_swift_clients_generate_without_warnings(tmp_path):
    if shutil.which("java") is None:
        pytest.skip("java is needed to run openapi-generator for Kotlin and Swift; not found on PATH")
    generator = Path(sys.executable).with_name("openapi-generator-cli")
    runs = {language: subprocess.Popen([str(generator), "generate", "-i", str(SPEC), "-g", language,
                                        "-o", str(tmp_path / language)],
                                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
            for language in ("kotlin", "swift6")}
    for language, run in runs.items():
        log, _ = run.communicate(timeout=300)
        assert run.returncode == 0, log
        assert _complaints(log) == [], f"{language}:\n" + "\n".join(_complaints(log))
    assert (tmp_path / "kotlin" / "src/main/kotlin/org/openapitools/client/models/TableItem.kt").exists()
    assert list((tmp_path / "swift6").rglob("GameResult.swift"))


# -- Kotlin, as docs/kotlin_client.py generates it --------------------------------

#: The Kotlin compiler, from npm (its package holds the whole JVM compiler and
#: the standard library), installed once into the tool cache.
KOTLIN_TOOLS = {"kotlin-compiler": "2.4.20"}

#: Debian's Jackson (``libjackson2-databind-java``, which brings the core and
#: the annotations): what the generated models need to decode JSON.
#: ``make test`` installs it when it runs as root.
JACKSON_JARS = [Path("/usr/share/java") / f"jackson-{part}.jar" for part in ("databind", "core", "annotations")]

#: Decodes answers with the generated models and prints what they hold.
DESCRIBE_KT = Path(__file__).with_name("kotlin") / "Describe.kt"

#: Compiled classes are kept this long since their last use (one set per
#: content of the sources, so worktrees with different specs share the cache).
KOTLIN_CLASSES_KEPT_DAYS = 7


def _kotlin_compiler() -> Path:
    """The compiler's home (bin/kotlinc, lib/kotlin-stdlib.jar)."""
    if shutil.which("java") is None:
        pytest.skip("java is needed to run openapi-generator and the Kotlin compiler; not found on PATH")
    missing = [str(jar) for jar in JACKSON_JARS if not jar.exists()]
    if missing:
        pytest.skip(f"Jackson is needed to decode with the Kotlin client ({', '.join(missing)} missing): "
                    "apt-get install libjackson2-databind-java (make test does it as root)")
    return _npm_tools(KOTLIN_TOOLS, "to install the Kotlin compiler") / "node_modules" / "kotlin-compiler"


def _compile(kotlin: Path, sources: list[Path], classes: Path) -> None:
    """kotlinc, with the JIT's first tier only: half the CPU time of its default for this one-off run."""
    listed = classes.with_name("sources.txt")
    listed.write_text("\n".join(str(source) for source in sources))
    done = subprocess.run([str(kotlin / "bin" / "kotlinc"), "-nowarn", "-J-XX:TieredStopAtLevel=1",
                           "-cp", os.pathsep.join(map(str, JACKSON_JARS)), "-d", str(classes), f"@{listed}"],
                          capture_output=True, text=True, timeout=900)
    assert done.returncode == 0, done.stdout + done.stderr


def _compiled(kotlin: Path, sources: list[Path]) -> Path:
    """The classes of ``sources``, compiled once for their content, the
    compiler's version and the libraries', and kept in the tool cache."""
    digest = hashlib.sha256()
    for part in [*KOTLIN_TOOLS.items(), *((str(jar.resolve()), jar.stat().st_size) for jar in JACKSON_JARS)]:
        digest.update(repr(part).encode())
    for source in sources:
        digest.update(source.name.encode() + b"\0" + source.read_bytes() + b"\0")
    cache = tool_cache()
    classes = cache / f"kotlin-classes-{digest.hexdigest()[:24]}"
    if not classes.exists():
        building = Path(tempfile.mkdtemp(prefix="kotlin-building-", dir=cache))
        try:
            _compile(kotlin, sources, building / "classes")
            (building / "classes").rename(classes)
        except OSError:  # another run put the same classes there first
            assert classes.exists()
        finally:
            shutil.rmtree(building)
    os.utime(classes)
    stale = time.time() - KOTLIN_CLASSES_KEPT_DAYS * 86400
    for old in cache.glob("kotlin-classes-*"):
        if old != classes and old.stat().st_mtime < stale:
            shutil.rmtree(old, ignore_errors=True)
    return classes


@pytest.fixture(scope="module")
def kotlin_describe(tmp_path_factory):
    """Runs Describe.kt, compiled with the models of a Kotlin client that
    docs/kotlin_client.py generated from the current spec, on answers given
    as {name: (kind, answer)}; returns its description of each."""
    kotlin = _kotlin_compiler()
    where = tmp_path_factory.mktemp("kotlin-client")
    done = subprocess.run([sys.executable, str(ROOT / "docs" / "kotlin_client.py"), str(where / "client")],
                          capture_output=True, text=True, timeout=600)
    log = done.stdout + done.stderr
    assert done.returncode == 0, log
    assert _complaints(log) == [], "\n".join(_complaints(log))
    models = sorted((where / "client" / "src" / "main" / "kotlin").rglob("models/*.kt"))
    assert models, log
    classes = _compiled(kotlin, [*models, DESCRIBE_KT])

    def describe(answers: dict[str, tuple[str, dict]]) -> dict[str, object]:
        arguments = []
        for name, (kind, answer) in answers.items():
            (where / name).write_text(json.dumps(answer))
            arguments += [kind, name]
        classpath = os.pathsep.join(map(str, [classes, *JACKSON_JARS, kotlin / "lib" / "kotlin-stdlib.jar"]))
        ran = subprocess.run(["java", "-cp", classpath, "DescribeKt", *arguments], cwd=where,
                             capture_output=True, text=True, timeout=120)
        assert ran.returncode == 0, ran.stdout + ran.stderr
        return json.loads(ran.stdout)

    return describe


def _call(server, method: str, path: str, token: str | None = None, body: dict | None = None) -> dict:
    request = urllib.request.Request(f"{server.url}{path}", method=method,
                                     data=None if body is None else json.dumps(body).encode())
    if body is not None:
        request.add_header("Content-Type", "application/json")
    if token is not None:
        request.add_header("Authorization", f"Bearer {token}")
    with urllib.request.urlopen(request, timeout=10) as answer:
        return json.loads(answer.read())


# What Describe.kt prints, read here from the JSON itself: the class the
# spec's discriminator names, and the same fields.

def _table_item(item: dict) -> list:
    if item["kind"] == "card":
        return ["TableCard", item["card"]]
    return ["Build", item["id"], item["value"], item["cards"]]


def _awaiting(game: dict) -> list | None:
    return None if game["awaiting"] is None else [game["awaiting"]["command"], game["awaiting"]["seats"]]


def _claim(claim: dict | None) -> list | None:
    return None if claim is None else [claim["secured"], claim["total"], claim["succeeds"]]


def _game(game: dict) -> dict:
    common = {"status": game["status"], "version": game["version"], "turn": game["turn"], "you": game.get("you"),
              "hand": game.get("hand"), "hands": game.get("hands"), "awaiting": _awaiting(game),
              "result": game["result"], "winners": game["winners"]}
    if game["game_type"] == "cassino":
        last = game["last_capture"]
        return {**common, "class": "CassinoGame", "table": [_table_item(item) for item in game["table"]],
                "seats": [[s["name"], s["score"], s["hand_count"]] for s in game["seats"]], "scores": game["scores"],
                "last_capture": None if last is None else [last["seat"], last["cards"]],
                "undo_request": None if game["undo_request"] is None else game["undo_request"]["seat"],
                "count_out": _claim(game.get("count_out")),
                "count_outs": None if game.get("count_outs") is None else [_claim(c) for c in game["count_outs"]]}
    return {**common, "class": "MassCoolGame", "totals": game["totals"],
            "seats": [[s["name"], s["money_value"], s["out"]] for s in game["seats"]]}


def _move(move: dict) -> list:
    fields = {"trail": ["card"], "capture": ["card", "targets"], "build": ["card", "value", "targets"],
              "pluck": ["card"], "steal": ["card", "targets"], "bet": ["cards"], "stop": []}[move["action"]]
    return [move["action"].capitalize() + "Move", *(move[field] for field in fields)]


def _event(event: dict) -> list:
    data = event["data"]
    details = {"CardTrailed": lambda: [data["card"]], "CardsCaptured": lambda: [data["card"], data["cards"]],
               "BuildMade": lambda: [data["build"]["id"], data["build"]["value"]],
               "BetPlaced": lambda: [data["cards"]], "MoneyCounted": lambda: [data["winners"], data["reason"]]}
    return [event["type"] + "Event", event["type"], *details.get(event["type"], list)()]


def _described_from_json(kind: str, answer: dict) -> object:
    if kind == "game":
        return _game(answer)
    if kind == "moves":
        return {"moves": [_move(move) for move in answer["moves"]], "sent": answer["moves"]}
    return [_event(event) for event in answer["events"]]


def _cassino_answers(server) -> dict[str, tuple[str, dict]]:
    """A Cassino game dealt from a known deck, in which seat 0 builds twice
    and captures one of its builds; the answers of every kind, seen by a
    seat, a spectator and the operator."""
    from domain import full_deck

    created = _call(server, "POST", "/v1/games", body={
        "variant": "cassino", "seats": [{"name": "Ann"}, {"name": "Bob"}], "first_dealer": 1})
    url, tokens = f"/v1/games/{created['id']}", [seat["token"] for seat in created["seats"]]
    _call(server, "POST", f"{url}/deal", OPERATOR, {"deck": [card.code for card in full_deck()]})
    answers = {"cassino-moves-0.json": ("moves", _call(server, "GET", f"{url}/moves", tokens[0]))}
    preferred = {"build": 0, "capture": 1, "trail": 2}
    for _ in range(5):  # build, trail, build, trail, capture the second build
        turn = _call(server, "GET", url)["turn"]
        listed = _call(server, "GET", f"{url}/moves", tokens[turn])["moves"]
        _call(server, "POST", f"{url}/play", tokens[turn], min(listed, key=lambda m: preferred[m["action"]]))
    answers.update({
        "cassino-seat.json": ("game", _call(server, "GET", url, tokens[1])),
        "cassino-public.json": ("game", _call(server, "GET", url)),
        "cassino-operator.json": ("game", _call(server, "GET", url, OPERATOR)),
        "cassino-moves-1.json": ("moves", _call(server, "GET", f"{url}/moves", tokens[1])),
        "cassino-events.json": ("events", _call(server, "GET", f"{url}/events?limit=500", tokens[0])),
    })
    return answers


def _mass_cool_answers(server) -> dict[str, tuple[str, dict]]:
    """A whole game of Mass Cool Casino, each seat playing its first listed
    move: a move list with a bet and one with a stop, the finished game and its log."""
    created = _call(server, "POST", "/v1/games", body={
        "variant": "mass-cool-casino", "seats": [{"name": f"P{i}"} for i in range(3)], "first_dealer": 0})
    url, tokens = f"/v1/games/{created['id']}", [seat["token"] for seat in created["seats"]]
    view = _call(server, "POST", f"{url}/deal", tokens[0])["game"]
    answers = {}
    while view["status"] != "finished":
        listed = _call(server, "GET", f"{url}/moves", tokens[view["turn"]])
        answers.setdefault(f"mass-cool-moves-{listed['moves'][0]['action']}.json", ("moves", listed))
        view = _call(server, "POST", f"{url}/play", tokens[view["turn"]], listed["moves"][0])["game"]
    answers["mass-cool-seat.json"] = ("game", _call(server, "GET", url, tokens[1]))
    answers["mass-cool-events.json"] = ("events", _call(server, "GET", f"{url}/events?limit=500", tokens[1]))
    return answers


def test_the_generated_kotlin_client_decodes_views_moves_and_events_of_both_games(kotlin_describe, server):
    answers = {**_cassino_answers(server), **_mass_cool_answers(server)}
    described = kotlin_describe(answers)
    for name, (kind, answer) in answers.items():
        assert described[name] == _described_from_json(kind, answer), name
    # The scenario reached what the comparison is meant to cover.
    assert {move[0] for move in described["cassino-moves-0.json"]["moves"]} == {"TrailMove", "CaptureMove", "BuildMove"}
    seat = described["cassino-seat.json"]
    assert seat["you"] == 1 and len(seat["hand"]) == 2 and seat["hands"] is None
    assert ["Build", "B1", 8, ["3S", "4S", "AS"]] in seat["table"] and seat["last_capture"][0] == 0
    assert seat["result"] is None and seat["undo_request"] is None and seat["awaiting"] == ["play", [1]]
    assert seat["count_out"] is not None and seat["count_outs"] is None
    assert len(described["cassino-operator.json"]["count_outs"]) == 2
    assert described["cassino-public.json"]["you"] is None and described["cassino-public.json"]["hand"] is None
    assert len(described["cassino-operator.json"]["hands"]) == 2
    events = [event[0] for event in described["cassino-events.json"]]
    assert events.count("BuildMadeEvent") == 2 and "CardsCapturedEvent" in events and events[0] == "GameCreatedEvent"
    assert {"mass-cool-moves-bet.json", "mass-cool-moves-stop.json"} <= set(described)
    assert described["mass-cool-moves-stop.json"]["moves"][0] == ["StopMove"]
    finished = described["mass-cool-seat.json"]
    assert finished["class"] == "MassCoolGame" and finished["status"] == "finished" and finished["result"] is not None
    counted = [event for event in described["mass-cool-events.json"] if event[0] == "MoneyCountedEvent"]
    assert counted == [["MoneyCountedEvent", "MoneyCounted", finished["winners"], finished["result"]]]

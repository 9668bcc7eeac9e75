"""The web client's files as the service serves them (no browser needed)."""

from __future__ import annotations

import re
import tomllib
from collections.abc import Iterable, Iterator
from pathlib import Path

import yaml

from domain import kernel_events
from domain.codec import public_name
from domain.game_types import GAME_TYPES
from domain.cassino.scoring import CATEGORIES
from service.web.client import ROOT
from tests.imports import in_cycles

REPO = Path(__file__).resolve().parents[2]


def test_the_lobby_is_served_with_a_same_origin_only_policy(api):
    assert api.get("/play").headers["Location"].endswith("/play/")
    page = api.get("/play/")
    assert page.status_code == 200 and page.mimetype == "text/html"
    assert "lobby.js" in page.get_data(as_text=True)
    assert page.headers["Content-Security-Policy"].startswith("default-src 'self'")
    assert page.headers["Referrer-Policy"] == "no-referrer"
    script = api.get("/play/table.js")
    assert script.status_code == 200 and "javascript" in script.mimetype


def test_a_file_that_is_not_there_is_a_404_problem(api):
    for path in ("/play/nothing.js", "/play/..%2Fweb.py"):
        response = api.get(path)
        assert response.status_code == 404 and response.mimetype == "application/problem+json"


def test_nothing_is_loaded_from_outside_the_service():
    svg_namespace = "http://www.w3.org/2000/svg"  # a name in the DOM API, not an address fetched
    for path in ROOT.iterdir():
        text = path.read_text(encoding="utf-8").replace(svg_namespace, "")
        assert not re.search(r"https?://|//[a-z0-9.-]+\.[a-z]{2,}/", text, re.I), path.name
        assert "@import" not in text and "url(" not in text, path.name


def _registry() -> dict[str, str]:
    """Each game type's entry in the GAME_TYPES of games.js, by game type."""
    text = (ROOT / "games.js").read_text()
    listed = re.search(r"GAME_TYPES = \{(.*?)\n\};", text, re.S).group(1)
    return dict(re.findall(r'^  "?([\w-]+)"?: \{(.*?)\n  \},$', listed, re.M | re.S))


def _names(text: str, name: str) -> list[str]:
    """The names in the list or object literal ``name`` of ``text`` (``name: [...]`` or ``const NAME = ...``)."""
    found = re.search(rf"(?:\b{name}: |const {name} = )([\[{{].*?[\]}}])", text, re.S)
    return re.findall(r'"(\w+)"', found.group(1))


def test_the_client_knows_every_event_type_of_every_game():
    """The table listens for its game's event names (a named message reaches
    only a listener for its name): games.js lists each game's own by game
    type, and kernel.js the kernel's once, by their public names; events.js says each in words."""
    games = _registry()
    text = (ROOT / "kernel.js").read_text()
    assert set(games) == set(GAME_TYPES)
    for name, game in GAME_TYPES.items():
        assert _names(games[name], "events") == [public_name(t) for t in game.EVENT_TYPES], name
    assert _names(text, "KERNEL_EVENTS") == [public_name(t) for t in kernel_events.EVENT_TYPES]
    words = (ROOT / "events.js").read_text()
    every = {public_name(t) for g in GAME_TYPES.values() for t in g.EVENT_TYPES} | set(_names(text, "KERNEL_EVENTS"))
    assert {t for t in every if f'case "{t}":' in words} == every
    assert set(re.findall(r'case "(\w+)":', words)) - every <= {"resigned", "timed_out"}  # no name of no event


def test_the_client_knows_each_games_moves_by_event_types_the_game_has():
    """What the table shows as just played, and when it offers a take-back,
    it reads from the log by these types (``plays`` and ``fresh`` in
    games.js, the game's own; UNDO in kernel.js, the kernel's)."""
    games = _registry()
    text = (ROOT / "kernel.js").read_text()
    for name, game in GAME_TYPES.items():
        own = {public_name(t) for t in game.EVENT_TYPES}
        assert _names(games[name], "plays") and set(_names(games[name], "plays")) <= own, name
        assert _names(games[name], "fresh") and set(_names(games[name], "fresh")) <= own, name
        shuffles = dict(re.findall(r'(committed|revealed): "(\w+)"', games[name]))
        assert set(shuffles) == {"committed", "revealed"} and set(shuffles.values()) <= own, name
    undo = dict(re.findall(r"(\w+): \[(.*?)\]", re.search(r"const UNDO = \{(.*?)\};", text).group(1)))
    assert set(undo) == {"undone", "asking"}
    assert {t for v in undo.values() for t in re.findall(r'"(\w+)"', v)} <= set(_names(text, "KERNEL_EVENTS"))


def test_the_client_tells_early_endings_by_the_kernels_event_types():
    """Who resigned, ran out of time or called the game off, the table reads
    from the log by these types (ENDINGS in kernel.js), one for each such
    ``result``: the kernel's events, the same in every game."""
    text = (ROOT / "kernel.js").read_text()
    endings = dict(re.findall(r'(\w+): "(\w+)"', re.search(r"const ENDINGS = \{(.*?)\};", text).group(1)))
    assert set(endings) == {"resigned", "timed_out", "aborted"}
    assert set(endings.values()) <= set(_names(text, "KERNEL_EVENTS"))


def test_the_client_names_every_scoring_category_in_words():
    """A hand's score shows each category by name (tableview.js), whatever the variant's points table."""
    text = (ROOT / "tableview.js").read_text()
    labelled = re.search(r"const CATEGORY = \{(.*?)\n\};", text, re.S).group(1)
    assert set(re.findall(r"(\w+): \"", labelled)) == set(CATEGORIES)


def test_the_client_ships_in_the_package():
    data = tomllib.loads((REPO / "pyproject.toml").read_text())["tool"]["setuptools"]["package-data"]["service"]
    suffixes = {path.suffix for path in ROOT.iterdir()}
    assert "static/web/*" in data and suffixes <= {".html", ".js", ".css"}


def _keys(path: str, name: str) -> list[str]:
    listed = re.search(rf"export const {name} = \{{(.*?)\}};", (ROOT / path).read_text(), re.S).group(1)
    return re.findall(r"^\s*(\w+):", listed, re.M)


def test_the_pages_know_the_statuses_the_spec_lists():
    """Each table names its game's statuses (STATUS in tableview.js, MCC_STATUS
    in mccview.js), and the operator's filter offers those the spec lets
    ``GET /v1/games`` filter by (every game's), in the spec's order."""
    spec = yaml.safe_load((REPO / "openapi.yaml").read_text())
    assert _keys("tableview.js", "STATUS") == spec["components"]["schemas"]["GameStatus"]["enum"]
    assert _keys("mccview.js", "MCC_STATUS") == spec["components"]["schemas"]["MassCoolStatus"]["enum"]
    listing = next(p for p in spec["paths"]["/v1/games"]["get"]["parameters"] if p["name"] == "status")
    assert listing["schema"]["items"] == {"$ref": "#/components/schemas/AnyGameStatus"}
    offered = re.search(r"const STATUSES = \[(.*?)\];", (ROOT / "operator.js").read_text(), re.S).group(1)
    assert re.findall(r'"(\w+)"', offered) == spec["components"]["schemas"]["AnyGameStatus"]["enum"]


# -- one registry of game types -------------------------------------------------
#
# A page tells the game types apart by the one registry of games.js
# (GAME_TYPES, keyed by a view's ``game_type``: which table to open, its
# events, its name, how the replay draws it), never by a map of its own nor by
# comparing with one game type's name, which would leave every other game to
# a default. So a third game is its package, one line in the domain's
# GAME_TYPES and an entry in games.js, and a registry without it is caught here.


def _skip_string(text: str, i: int) -> int:
    """The index just past the string literal that opens at ``i``."""
    j = i + 1
    while text[j] != text[i]:
        j += 2 if text[j] == "\\" else 1
    return j + 1


def _top_level_keys(text: str, i: int) -> list[str]:
    """The keys of the object literal whose ``{`` is just before ``i``."""
    keys: list[str] = []
    depth, key, expecting_key = 0, "", True
    while True:
        ch = text[i]
        if text.startswith("//", i):
            i = text.index("\n", i)
            continue
        if ch in "\"'`":
            end = _skip_string(text, i)
            key = text[i + 1:end - 1] if depth == 0 and expecting_key else key
            i = end
            continue
        if ch in "{[(":
            depth += 1
        elif ch in "}])":
            if depth == 0:
                return keys
            depth -= 1
        elif depth == 0 and ch == ":" and expecting_key:
            keys.append(key.strip())
            expecting_key = False
        elif depth == 0 and ch == ",":
            expecting_key, key = True, ""
        elif depth == 0 and expecting_key and (ch.isalnum() or ch in "_$"):
            key += ch
        i += 1


def game_type_maps(game_types: Iterable[str]) -> Iterator[tuple[str, set[str]]]:
    """Each object literal of the client with a game type among its keys, as
    ``("file NAME", keys)``."""
    known = set(game_types)
    for path in sorted(ROOT.glob("*.js")):
        text = path.read_text(encoding="utf-8")
        for found in re.finditer(r"\b(?:const|let|var) (\w+) = \{", text):
            keys = set(_top_level_keys(text, found.end()))
            if keys & known:
                yield f"{path.name} {found.group(1)}", keys


#: The one map of the client keyed by game type.
REGISTRY = "games.js GAME_TYPES"

#: A comparison of a game type with one game type's name (``names``: the names, as alternatives).
_BRANCH = r'game_?type\w*\)?\s*[!=]==?\s*"({names})"|"({names})"\s*[!=]==?\s*[\w.]*game_?type'


def pages_missing(game_types: Iterable[str]) -> list[str]:
    """What the client's pages lack for ``game_types``: the registry without
    one of them (or with another), a map keyed by game type beside the
    registry, and a branch on one game type's name."""
    wanted = set(game_types)
    maps = dict(game_type_maps(wanted))
    problems = [f"{where} has {sorted(keys)}" for where, keys in maps.items() if keys != wanted or where != REGISTRY]
    if REGISTRY not in maps:
        problems.append(f"{REGISTRY} has none of them")
    names = "|".join(re.escape(t) for t in sorted(wanted))
    for path in sorted(ROOT.glob("*.js")):
        for line in path.read_text(encoding="utf-8").splitlines():
            if re.search(_BRANCH.format(names=names), line, re.I):
                problems.append(f"{path.name} compares with a game type: {line.strip()}")
    return problems


def test_every_page_reads_the_one_registry_of_game_types():
    assert set(dict(game_type_maps(GAME_TYPES))) == {REGISTRY}
    assert pages_missing(GAME_TYPES) == []
    registry = (ROOT / "games.js").read_text()
    assert all((ROOT / page).is_file() for page in re.findall(r'import\("\./([\w.]+)"\)', registry))
    for page in ("table.js", "replay.js", "lobby.js"):
        assert 'from "./games.js"' in (ROOT / page).read_text(), page
    for view in re.findall(r'view: \(\) => import\("\./([\w.]+)"\)', registry):
        assert "export const REPLAY = " in (ROOT / view).read_text(), view


def test_a_game_type_the_registry_does_not_know_is_caught():
    """A third game registered without its entry in games.js: the registry
    says so; so does a page's own map of game types, and a branch on a game
    type's name."""
    assert pages_missing([*GAME_TYPES, "third-game"]) == [f"{REGISTRY} has {sorted(GAME_TYPES)}"]
    assert pages_missing(["cassino"]) == [f"{REGISTRY} has {sorted(GAME_TYPES)}"]
    branches = ['if (gameType === "mass-cool-casino") {', 'return "cassino" !== view.game_type;']
    assert all(re.search(_BRANCH.format(names="cassino|mass-cool-casino"), b, re.I) for b in branches)


# -- imports in one direction ---------------------------------------------------


def client_imports(root: Path) -> dict[str, set[str]]:
    """Each module of the client (``*.js`` in ``root``) and the modules beside
    it that it imports: at its top (``from "./name.js"``) or when it runs
    (``import("./name.js")``, as the registry loads a game's table and view)."""
    modules = {path.name: path.read_text(encoding="utf-8") for path in sorted(root.glob("*.js"))}
    named = r'\b(?:from|import)\s*\(?\s*"\./([\w.-]+\.js)"'
    return {name: set(re.findall(named, text)) & set(modules) - {name} for name, text in modules.items()}


def test_the_clients_modules_import_one_way():
    """No module of the client imports, directly or through others, one that
    imports it back: the pages read the registry (games.js), which loads each
    game's table and view; these, and what they share (seat.js, events.js,
    kernel.js), never import the registry back."""
    graph = client_imports(ROOT)
    assert {"cassinotable.js", "mcctable.js", "tableview.js", "mccview.js"} <= graph["games.js"]
    assert in_cycles(graph) == []


def test_a_circle_through_a_module_loaded_when_it_runs_is_found(tmp_path):
    """The reading of imports the test above relies on: a module loaded by
    ``import()`` counts as imported, and a module only imported is no circle."""
    (tmp_path / "top.js").write_text('export const PAGES = { page: () => import("./low.js") };\n')
    (tmp_path / "low.js").write_text('import {\n  PAGES,\n} from "./top.js";\nimport { x } from "./gone.js";\n')
    (tmp_path / "apart.js").write_text('import { PAGES } from "./top.js";\n')
    graph = client_imports(tmp_path)
    assert graph == {"apart.js": {"top.js"}, "low.js": {"top.js"}, "top.js": {"low.js"}}
    assert in_cycles(graph) == ["low.js", "top.js"]

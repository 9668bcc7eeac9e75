"""The layers of ``service/`` stay apart: the service layer runs without
Flask, no module imports one that imports it back, and blueprints import
the service layer, never one another or the app (docs/design.md, Layers)."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

SERVICE = Path(__file__).resolve().parents[2] / "service"


def imports() -> dict[str, set[str]]:
    """Each module of ``service`` and the modules of ``service`` it imports,
    at its top or inside a function (which only hides a cycle)."""
    modules = {_name(path): path for path in SERVICE.rglob("*.py")}
    found: dict[str, set[str]] = {}
    for name, path in modules.items():
        named: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom) and node.module:
                named |= {node.module, *(f"{node.module}.{alias.name}" for alias in node.names)}
            elif isinstance(node, ast.Import):
                named |= {alias.name for alias in node.names}
        found[name] = {other for other in named if other in modules and other != name}
    return found


def _name(path: Path) -> str:
    parts = path.relative_to(SERVICE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def test_the_service_layer_and_the_memory_wiring_import_no_web_framework():
    code = ("import sys, service.bootstrap, service.memory.wiring;"
            " print(sorted({m.split('.')[0] for m in sys.modules} & {'flask', 'werkzeug'}))")
    shown = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=SERVICE.parent)
    assert shown.stdout.strip() == "[]"


def test_no_module_of_the_service_imports_one_that_imports_it_back():
    graph = imports()

    def reaches(start: str) -> set[str]:
        seen, todo = set(), [start]
        while todo:
            for other in graph[todo.pop()] - seen:
                seen.add(other)
                todo.append(other)
        return seen

    assert [name for name in sorted(graph) if name in reaches(name)] == []


def test_blueprints_import_neither_one_another_nor_the_app():
    graph = imports()
    web = {name for name in graph if name.startswith("service.web.")}
    blueprints = {name for name in web if "bp = Blueprint(" in (SERVICE.parent / (name.replace(".", "/") + ".py"))
                  .read_text()}

    assert len(blueprints) >= 10
    assert {name: sorted(graph[name] & (blueprints | {"service.web.app"})) for name in blueprints
            if graph[name] & (blueprints | {"service.web.app"})} == {}

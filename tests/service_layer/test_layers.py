"""The layers of ``service/`` stay apart: the service layer runs without
Flask, no module imports one that imports it back, and blueprints import
the service layer, never one another or the app (docs/design.md, Layers)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from tests.imports import imports, in_cycles

SERVICE = Path(__file__).resolve().parents[2] / "service"


def test_the_service_layer_and_the_memory_wiring_import_no_web_framework():
    code = ("import sys, service.bootstrap, service.memory.wiring;"
            " print(sorted({m.split('.')[0] for m in sys.modules} & {'flask', 'werkzeug'}))")
    shown = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=SERVICE.parent)
    assert shown.stdout.strip() == "[]"


def test_no_module_of_the_service_imports_one_that_imports_it_back():
    assert in_cycles(imports(SERVICE)) == []


def test_blueprints_import_neither_one_another_nor_the_app():
    graph = imports(SERVICE)
    web = {name for name in graph if name.startswith("service.web.")}
    blueprints = {name for name in web if "bp = Blueprint(" in (SERVICE.parent / (name.replace(".", "/") + ".py"))
                  .read_text()}

    assert len(blueprints) >= 10
    assert {name: sorted(graph[name] & (blueprints | {"service.web.app"})) for name in blueprints
            if graph[name] & (blueprints | {"service.web.app"})} == {}

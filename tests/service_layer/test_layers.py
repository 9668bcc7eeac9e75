"""The layers of ``service/`` stay apart: the service layer imports no
adapter and runs without Flask, psycopg or cryptography (so does the memory
wiring), no module imports one that imports it back, and blueprints import
the service layer, never one another or the app (docs/design.md, Layers)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from tests.imports import imports, in_cycles

SERVICE = Path(__file__).resolve().parents[2] / "service"


#: The service layer: the modules of ``service/`` itself, beside the adapters' packages.
LAYER = sorted(f"service.{path.stem}" for path in SERVICE.glob("*.py") if path.stem != "__init__")
ADAPTERS = ("service.postgres", "service.memory", "service.web", "service.ops")
#: What neither the service layer nor the memory wiring may load: the web
#: framework, the PostgreSQL driver, and the cipher that seals its notifications.
FORBIDDEN = {"flask", "werkzeug", "psycopg", "psycopg_pool", "cryptography"}


def test_the_service_layer_and_the_memory_wiring_load_no_web_framework_database_driver_or_cipher():
    code = (f"import sys, {', '.join(LAYER)}, service.memory.wiring;"
            f" print(sorted({{m.split('.')[0] for m in sys.modules}} & set({sorted(FORBIDDEN)!r})))")
    shown = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=SERVICE.parent)
    assert shown.stdout.strip() == "[]"


def test_the_service_layer_imports_no_adapter():
    graph = imports(SERVICE)
    assert len(LAYER) >= 30 and set(LAYER) <= set(graph)
    assert {name: sorted(other for other in graph[name] if other.startswith(ADAPTERS)) for name in LAYER
            if any(other.startswith(ADAPTERS) for other in graph[name])} == {}


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

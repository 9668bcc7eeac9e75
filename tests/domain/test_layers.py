"""The modules of ``domain/`` import in one direction: none imports one that
imports it back, not even for type checking only; and the rules of a turn
are layered (docs/design.md, The rules of a turn): what cards are worth and
what a play does, then what the generators share (``listing``), then the
kinds of move, then ``rules``, which plugs the kinds in."""

from __future__ import annotations

from pathlib import Path

from tests.imports import imports, in_cycles

DOMAIN = Path(__file__).resolve().parents[2] / "domain"
PLAY = "domain.cassino.play"
KINDS = {f"{PLAY}.{name}" for name in ("trail", "capture", "court", "build", "piles", "pluck", "steal")}


def test_no_module_of_the_domain_imports_one_that_imports_it_back():
    assert in_cycles(imports(DOMAIN)) == []


def test_the_rules_of_a_turn_import_from_the_bottom_up():
    graph = imports(DOMAIN)
    below_kinds = {f"{PLAY}.{name}" for name in ("values", "turn", "duty", "listing")}
    assert {name: sorted(graph[name] & (KINDS | {f"{PLAY}.kind", f"{PLAY}.rules"})) for name in below_kinds} == {
        name: [] for name in below_kinds}
    assert [name for name in sorted(KINDS | {f"{PLAY}.kind"}) if f"{PLAY}.rules" in graph[name]] == []
    assert {f"{PLAY}.listing", f"{PLAY}.kind"} <= graph[f"{PLAY}.trail"]


def test_a_cycle_hidden_in_a_function_or_behind_type_checking_is_found(tmp_path):
    """The reading of imports that the tests above rely on: relative imports,
    imports inside a function and imports for type checking only all count."""
    pkg = tmp_path / "pkg"
    (pkg / "sub").mkdir(parents=True)
    (pkg / "__init__.py").write_text("")
    (pkg / "sub" / "__init__.py").write_text("")
    (pkg / "low.py").write_text("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from .sub.high import H\n")
    (pkg / "sub" / "high.py").write_text("from ..low import L\n")
    (pkg / "a.py").write_text("def f():\n    from . import b\n")
    (pkg / "b.py").write_text("import pkg.a\n")
    (pkg / "c.py").write_text("from .low import L\n")
    graph = imports(pkg)
    assert graph["pkg.sub.high"] == {"pkg.low"} and graph["pkg.low"] == {"pkg.sub.high"}
    assert in_cycles(graph) == ["pkg.a", "pkg.b", "pkg.low", "pkg.sub.high"]

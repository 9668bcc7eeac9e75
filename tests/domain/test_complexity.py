"""The rules and the service stay in small pieces: no function of
``domain/`` or ``service/`` has a cyclomatic complexity above 15, and the
modules that list and check moves keep maintainability grade A (radon's
measures).

An option that brings a new kind of move is a new class in ``play/`` and a
line in ``play/rules.py`` (docs/design.md); these limits catch a rule that
is instead tested deep inside a shared function. In the service, a use
case reads as its steps (``GameService.execute``: the cache, ``If-Match``,
the retries, the replay of a retry), each a method of its own.
"""

from __future__ import annotations

from pathlib import Path

import pytest

radon_complexity = pytest.importorskip("radon.complexity")
radon_metrics = pytest.importorskip("radon.metrics")

ROOT = Path(__file__).resolve().parents[2]
DOMAIN = ROOT / "domain"
SERVICE = ROOT / "service"
MOST = 15
GRADE_A = 20  # radon's maintainability index: grade A is 20 and above
GRADE_A_MODULES = ["cassino/legal.py",
                   *(f"cassino/play/{p.name}" for p in sorted((DOMAIN / "cassino" / "play").glob("*.py")))]


def _over(top: Path) -> list[str]:
    """The functions and methods under ``top`` above complexity ``MOST``."""
    return [f"{path.relative_to(ROOT)}:{block.lineno} {block.fullname} {block.complexity}"
            for path in sorted(top.rglob("*.py"))
            for block in radon_complexity.cc_visit(path.read_text())
            if block.letter in "FM" and block.complexity > MOST]


@pytest.mark.parametrize("top", [DOMAIN, SERVICE], ids=["domain", "service"])
def test_no_function_is_above_complexity_15(top):
    assert _over(top) == []


@pytest.mark.parametrize("module", GRADE_A_MODULES)
def test_the_modules_of_the_rules_of_a_turn_keep_maintainability_grade_a(module):
    assert radon_metrics.mi_visit((DOMAIN / module).read_text(), multi=True) >= GRADE_A

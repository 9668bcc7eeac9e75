"""The rules stay in small pieces: no function of ``domain/`` has a
cyclomatic complexity above 15, and the modules that list and check moves
keep maintainability grade A (radon's measures).

An option that brings a new kind of move is a new class in ``play/`` and a
line in ``play/rules.py`` (docs/design.md); these limits catch a rule that
is instead tested deep inside a shared function.
"""

from __future__ import annotations

from pathlib import Path

import pytest

radon_complexity = pytest.importorskip("radon.complexity")
radon_metrics = pytest.importorskip("radon.metrics")

DOMAIN = Path(__file__).resolve().parents[2] / "domain"
MOST = 15
GRADE_A = 20  # radon's maintainability index: grade A is 20 and above
GRADE_A_MODULES = ["cassino/legal.py",
                   *(f"cassino/play/{p.name}" for p in sorted((DOMAIN / "cassino" / "play").glob("*.py")))]


def _sources() -> list[Path]:
    return sorted(DOMAIN.rglob("*.py"))


def test_no_function_of_the_domain_is_above_complexity_15():
    over = [f"{path.relative_to(DOMAIN)}:{block.lineno} {block.fullname} {block.complexity}"
            for path in _sources()
            for block in radon_complexity.cc_visit(path.read_text())
            if block.letter in "FM" and block.complexity > MOST]
    assert over == []


@pytest.mark.parametrize("module", GRADE_A_MODULES)
def test_the_modules_of_the_rules_of_a_turn_keep_maintainability_grade_a(module):
    assert radon_metrics.mi_visit((DOMAIN / module).read_text(), multi=True) >= GRADE_A

"""openapi.yaml passes a real OpenAPI linter: redocly's CLI, pinned
(tests/service/npm_tools.py), with its recommended rules as
tests/service/redocly.yaml settles them, and no problem of any level."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest

from tests.service.npm_tools import LINTER, NpmMissing, npm_tools

pytestmark = pytest.mark.toolchain  # runs a tool from npm

ROOT = Path(__file__).resolve().parents[2]
CONFIG = Path(__file__).with_name("redocly.yaml")

#: The linter sends nothing anywhere and looks for no newer version of itself.
QUIET = {"REDOCLY_TELEMETRY": "off", "REDOCLY_SUPPRESS_UPDATE_NOTICE": "true"}


def test_redocly_finds_nothing_wrong_with_the_spec():
    try:
        redocly = npm_tools(LINTER) / "node_modules" / ".bin" / "redocly"
    except NpmMissing as missing:
        pytest.skip(f"{missing}: the OpenAPI linter cannot run")
    done = subprocess.run([str(redocly), "lint", "openapi.yaml", f"--config={CONFIG}", "--format=json",
                           "--max-problems=50"],
                          cwd=ROOT, env={**os.environ, **QUIET}, capture_output=True, text=True, timeout=120)
    report = json.loads(done.stdout)
    assert report["version"] == LINTER["@redocly/cli"]
    assert report["problems"] == [] and done.returncode == 0, json.dumps(report["problems"], indent=1)
    assert report["totals"] == {"errors": 0, "warnings": 0, "ignored": 3}

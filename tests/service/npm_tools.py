"""Pinned tools from npm, each set installed once into a cache of its own,
outside the virtualenv (``CASINO_TOOL_CACHE``, default ~/.cache/casino-tests),
and reused by later runs and by every worktree.

``python -m tests.service.npm_tools`` installs the OpenAPI linter ahead of
the tests (``make test`` does), so that no test waits on npm for it.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

#: redocly's OpenAPI linter (tests/service/test_spec_lint.py).
LINTER = {"@redocly/cli": "2.77.0"}


class NpmMissing(Exception):
    """node or npm is not on PATH."""


def tool_cache() -> Path:
    return Path(os.environ.get("CASINO_TOOL_CACHE") or Path.home() / ".cache" / "casino-tests")


def npm_tools(tools: dict[str, str]) -> Path:
    """A folder whose node_modules holds ``tools`` (name: version), installed into the cache on first use."""
    if shutil.which("node") is None or shutil.which("npm") is None:
        raise NpmMissing("node and npm are not on PATH")
    named = "-".join(f"{k}{v}" for k, v in sorted(tools.items())).replace("/", "+")
    where = tool_cache() / f"npm-{named}"
    if not (where / "installed").exists():
        where.mkdir(parents=True, exist_ok=True)
        (where / "package.json").write_text(json.dumps({"private": True, "dependencies": tools}))
        done = subprocess.run(["npm", "install", "--no-audit", "--no-fund", "--silent"], cwd=where,
                              capture_output=True, text=True, timeout=300)
        if done.returncode != 0:
            raise RuntimeError(f"npm install {tools} failed:\n{done.stdout}{done.stderr}")
        (where / "installed").touch()
    return where


if __name__ == "__main__":
    try:
        print(f"the OpenAPI linter is in {npm_tools(LINTER)}")
    except NpmMissing as missing:
        sys.exit(print(f"{missing}: the OpenAPI linter's test will be skipped") or 0)

"""The wheel, installed on its own, serves the contract, the docs, the front page and the rules; the
lock files pin everything the project asks for.

Built with ``pip wheel`` (not an editable install) and installed into a fresh
virtual environment as the Dockerfile installs it (requirements.lock, then
the wheel with no dependencies of its own), so that nothing from the source
tree can stand in for a file the wheel forgot, and a dependency missing from
the lock shows. Dependencies come from pip's cache or index.
"""

from __future__ import annotations

import re
import shutil
import tomllib
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from tests.service.serving import Serving, serve_environment

pytestmark = pytest.mark.toolchain  # builds and installs the wheel

ROOT = Path(__file__).resolve().parents[2]
#: What the Dockerfile copies to install the package: the package's sources.
SOURCES = ("pyproject.toml", "README.md", "openapi.yaml", "docs/rules.md", "domain", "service", "migrations")


def _run(*command: str, cwd: Path, timeout: float) -> None:
    done = subprocess.run(command, cwd=cwd, check=False, capture_output=True, text=True, timeout=timeout)
    if done.returncode != 0:
        pytest.fail(f"{' '.join(command)} failed:\n{done.stdout}\n{done.stderr}")


@pytest.fixture(scope="module")
def installed(tmp_path_factory) -> tuple[Path, Path]:
    """The wheel built from this checkout, and a fresh venv's ``casino`` installed from it."""
    where = tmp_path_factory.mktemp("wheel")
    # From a copy of what is committed to be packaged: setuptools leaves a
    # build/ directory in the tree it builds, whose stale files would ride along.
    source = where / "source"
    for name in SOURCES:
        if (ROOT / name).is_dir():
            shutil.copytree(ROOT / name, source / name, symlinks=True,
                            ignore=shutil.ignore_patterns("__pycache__"))
        else:
            (source / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(ROOT / name, source / name)
    _run(sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "-w", str(where / "dist"),
         str(source), cwd=where, timeout=300)
    wheel = next((where / "dist").glob("casino-*.whl"))
    _run(sys.executable, "-m", "venv", str(where / "venv"), cwd=where, timeout=120)
    # As the Dockerfile installs it: the locked dependencies, then the wheel alone.
    pip = (str(where / "venv" / "bin" / "python"), "-m", "pip", "install", "--quiet", "--no-compile")
    _run(*pip, "--require-hashes", "-r", str(ROOT / "requirements.lock"), cwd=where, timeout=600)
    _run(*pip, "--no-deps", str(wheel), cwd=where, timeout=600)
    return wheel, where / "venv" / "bin" / "casino"


def test_the_wheel_holds_the_contract_as_a_file(installed):
    wheel, _ = installed
    with zipfile.ZipFile(wheel) as archive:
        packaged = archive.read("service/openapi.yaml").decode()
    assert packaged == (ROOT / "openapi.yaml").read_text(encoding="utf-8")


def test_casino_serve_from_the_wheel_serves_the_contract_and_the_docs(installed, tmp_path, database_url):
    _, casino = installed
    environ = serve_environment(DATABASE_URL=database_url, CASINO_DATA_DIR=str(tmp_path / "data"),
                                CASINO_WORKERS="1", CASINO_THREADS="2")
    server = Serving(tmp_path, environ, "wheel", casino=casino)
    try:
        spec = server.fetch("/openapi.yaml")
        page = server.fetch("/docs")
        script = server.fetch("/docs/swagger-ui-bundle.js")
        front, rules, icon = server.fetch("/"), server.fetch("/rules/cassino"), server.fetch("/favicon.ico")
    finally:
        assert server.stop() == 0
    # The front page, the rules (docs/rules.md, shipped as service/rules.md) and the icon ship too.
    assert front[0] == 200 and b"/play/" in front[2]
    assert rules[0] == 200 and b'id="counting-out"' in rules[2]
    assert icon[0] == 200 and icon[1] == "image/vnd.microsoft.icon"
    assert spec[0] == 200 and spec[2].decode() == (ROOT / "openapi.yaml").read_text(encoding="utf-8")
    assert page[0] == 200 and page[1].startswith("text/html") and b"/openapi.yaml" in page[2]
    assert script[0] == 200 and len(script[2]) > 100_000


def _pins(lock: str) -> dict[str, str]:
    """A lock file's pins, name (normalised) to version."""
    text = (ROOT / lock).read_text()
    return {re.sub(r"[-_.]+", "-", name).lower(): version
            for name, version in re.findall(r"^([A-Za-z0-9][A-Za-z0-9._-]*)==([^ ;\\]+)", text, re.M)}


def _names(requirements: list[str]) -> set[str]:
    return {re.sub(r"[-_.]+", "-", re.match(r"[A-Za-z0-9._-]+", r).group()).lower() for r in requirements}


def test_the_locks_pin_every_dependency_and_agree_with_each_other():
    """After a change to pyproject.toml's dependencies, ``make lock`` must run
    again: a dependency the lock lacks would be missing from a deployment.
    The test lock holds the runtime's pins as they are, so the tests run the
    code that deploys."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    runtime, testing = _pins("requirements.lock"), _pins("requirements-test.lock")
    assert _names(project["dependencies"]) <= runtime.keys()
    assert _names(project["optional-dependencies"]["test"]) <= testing.keys()
    assert {name: testing.get(name) for name in runtime} == runtime

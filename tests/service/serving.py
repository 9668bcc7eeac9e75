"""``casino serve`` as a real subprocess, for tests that need a live server."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from tests.conftest import OPERATOR_TOKEN


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def serve_environment(**settings: str) -> dict[str, str]:
    """This process's environment without the service's own settings, plus
    ``settings``. A server on a database the tests share (``DATABASE_URL``)
    runs with the tests' operator token, as every ``casino serve`` of one
    deployment must (README): it signs the games' heads with the tests' key.
    With a token of its own it would leave games every other test's service
    finds damaged, and a time keeper that claims one (its clock's deadline
    still kept) cannot time it out."""
    if "DATABASE_URL" in settings:
        settings = {"CASINO_OPERATOR_TOKEN": OPERATOR_TOKEN, **settings}
        if settings["CASINO_OPERATOR_TOKEN"] != OPERATOR_TOKEN:
            raise ValueError("a server on a database the tests share must sign with their key: use OPERATOR_TOKEN")
    environ = {k: v for k, v in os.environ.items()
               if k not in ("DATABASE_URL", "CASINO_OPERATOR_TOKEN", "CASINO_PORT",
                            "PROMETHEUS_MULTIPROC_DIR")}
    environ.update(settings)
    return environ


class Serving:
    """``casino serve`` running in a subprocess, its output in files.

    ``casino`` is the executable to run (default: the one beside this
    Python); the server gets ready within ``ready_within`` seconds or the
    test fails.
    """

    def __init__(self, tmp_path: Path, environ: dict[str, str], name: str,
                 casino: Path | None = None, ready_within: float = 60):
        self.port = free_port()
        self.stdout = tmp_path / f"{name}.out"
        self.stderr = tmp_path / f"{name}.err"
        casino = casino or Path(sys.executable).with_name("casino")
        with self.stdout.open("w") as out, self.stderr.open("w") as err:
            # A process group of its own, as a command started in a terminal
            # has: ``interrupt`` sends what Ctrl-C sends.
            self.process = subprocess.Popen(
                [str(casino), "serve", "--port", str(self.port)],
                env=environ, stdout=out, stderr=err, cwd=tmp_path, process_group=0,
            )
        self._wait_until_ready(ready_within)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def get(self, path: str) -> tuple[int, str]:
        status, _, body = self.fetch(path)
        return status, body.decode()

    def fetch(self, path: str) -> tuple[int, str, bytes]:
        """Status, content type and body of ``GET path``."""
        try:
            with urllib.request.urlopen(f"{self.url}{path}", timeout=5) as r:
                return r.status, r.headers.get("Content-Type", ""), r.read()
        except urllib.error.HTTPError as error:
            return error.code, error.headers.get("Content-Type", ""), error.read()

    def stop(self) -> int:
        self.process.send_signal(signal.SIGTERM)
        try:
            return self.process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            self.process.kill()
            pytest.fail(f"casino serve did not stop:\n{self.output()}")

    def interrupt(self) -> int:
        """Ctrl-C, as a terminal sends it: SIGINT to the whole foreground process group."""
        os.killpg(self.process.pid, signal.SIGINT)
        try:
            return self.process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            self.process.kill()
            pytest.fail(f"casino serve did not stop on Ctrl-C:\n{self.output()}")

    def output(self) -> str:
        return f"{self.stdout.read_text()}\n{self.stderr.read_text()}"

    def _wait_until_ready(self, seconds: float) -> None:
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                pytest.fail(f"casino serve exited:\n{self.output()}")
            try:
                if self.get("/readyz")[0] == 200:
                    return
            except OSError:
                pass
            time.sleep(0.1)
        self.stop()
        pytest.fail(f"casino serve never got ready:\n{self.output()}")

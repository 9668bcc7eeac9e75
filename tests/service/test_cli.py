"""The ``casino`` command: migrate in-process, serve as a real gunicorn."""

from __future__ import annotations

import json
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

import migrations
from service.cli import main
from service.tokens import OPERATOR_TOKEN_FILE


def test_migrate_brings_the_database_to_the_head_revision(database_url, monkeypatch, capsys):
    monkeypatch.setenv("DATABASE_URL", database_url)
    assert main(["migrate"]) == 0
    assert f"revision {migrations.head()}" in capsys.readouterr().out


def test_migrate_says_so_when_the_database_is_unreachable(monkeypatch, capsys):
    monkeypatch.setenv("DATABASE_URL", "postgresql://casino@127.0.0.1:1/casino?connect_timeout=1")
    assert main(["migrate"]) == 1
    assert "cannot use the database" in capsys.readouterr().err


class Serving:
    """``casino serve`` running in a subprocess, its output in files."""

    def __init__(self, tmp_path: Path, environ: dict[str, str], name: str):
        self.port = _free_port()
        self.stdout = tmp_path / f"{name}.out"
        self.stderr = tmp_path / f"{name}.err"
        casino = Path(sys.executable).with_name("casino")
        with self.stdout.open("w") as out, self.stderr.open("w") as err:
            self.process = subprocess.Popen(
                [str(casino), "serve", "--port", str(self.port)],
                env=environ, stdout=out, stderr=err, cwd=tmp_path,
            )
        self._wait_until_ready()

    def get(self, path: str) -> tuple[int, str]:
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{self.port}{path}", timeout=5) as r:
                return r.status, r.read().decode()
        except urllib.error.HTTPError as error:
            return error.code, error.read().decode()

    def stop(self) -> int:
        self.process.send_signal(signal.SIGTERM)
        try:
            return self.process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            self.process.kill()
            pytest.fail(f"casino serve did not stop:\n{self.output()}")

    def output(self) -> str:
        return f"{self.stdout.read_text()}\n{self.stderr.read_text()}"

    def _wait_until_ready(self) -> None:
        deadline = time.monotonic() + 60
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
        pytest.fail("casino serve never got ready")


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_serve_runs_an_embedded_database_that_outlives_a_restart(tmp_path, postgres_dir):
    data = postgres_dir / "data"
    environ = {k: v for k, v in os.environ.items()
               if k not in ("DATABASE_URL", "CASINO_OPERATOR_TOKEN", "PROMETHEUS_MULTIPROC_DIR")}
    environ.update(CASINO_DATA_DIR=str(data), CASINO_WORKERS="2", CASINO_THREADS="2")

    first = Serving(tmp_path, environ, "first")
    try:
        for _ in range(6):
            assert first.get("/healthz")[0] == 200
        status, text = first.get("/metrics")
    finally:
        assert first.stop() == 0

    # The workers' counts are added up, whichever worker answers the scrape.
    assert status == 200
    assert 'casino_http_requests_total{method="GET",route="/healthz",status="200"} 6.0' in text
    token = (data / OPERATOR_TOKEN_FILE).read_text().strip()
    out = first.stdout.read_text()
    assert token in out and f"http://127.0.0.1:{first.port}/" in out
    access = [json.loads(line) for line in first.stderr.read_text().splitlines()
              if '"casino.access"' in line]
    assert {"method", "path", "status", "duration_ms", "request_id"} <= access[0].keys()
    # The embedded server stopped with its last user.
    assert not (data / "pgdata" / "postmaster.pid").exists()

    second = Serving(tmp_path, environ, "second")
    try:
        assert second.get("/readyz")[0] == 200
    finally:
        assert second.stop() == 0
    out = second.stdout.read_text()
    assert token not in out and "Operator token: kept in" in out

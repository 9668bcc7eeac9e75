"""The ``casino`` command: migrate in-process, serve as a real gunicorn."""

from __future__ import annotations

import http.client
import json
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

import migrations
from service.ops.cli import main
from service.auth import OPERATOR_TOKEN_FILE
from tests.conftest import OPERATOR_TOKEN
from tests.service.serving import Serving, serve_environment


def test_migrate_brings_the_database_to_the_head_revision(database_url, monkeypatch, capsys):
    monkeypatch.setenv("DATABASE_URL", database_url)
    assert main(["migrate"]) == 0
    assert f"revision {migrations.head()}" in capsys.readouterr().out


def test_migrate_says_so_when_the_database_is_unreachable(monkeypatch, capsys):
    monkeypatch.setenv("DATABASE_URL", "postgresql://casino@127.0.0.1:1/casino?connect_timeout=1")
    assert main(["migrate"]) == 1
    assert "cannot use the database" in capsys.readouterr().err


def test_serve_on_a_taken_port_says_so_in_one_line_and_how_to_choose_another(tmp_path):
    with socket.socket() as holder:
        holder.bind(("127.0.0.1", 0))
        holder.listen()
        port = holder.getsockname()[1]
        environ = serve_environment(CASINO_PORT=str(port), CASINO_DATA_DIR=str(tmp_path / "data"))
        casino = Path(sys.executable).with_name("casino")
        started = time.monotonic()
        done = subprocess.run([str(casino), "serve"], env=environ, check=False, capture_output=True, text=True,
                              timeout=60, cwd=tmp_path)
    assert done.returncode == 1
    assert time.monotonic() - started < 10
    assert done.stdout == ""
    lines = done.stderr.splitlines()
    assert len(lines) == 1, done.stderr
    assert f"127.0.0.1:{port}" in lines[0] and "taken" in lines[0]
    assert "--port" in lines[0] and "CASINO_PORT" in lines[0]
    # Nothing was started: no embedded database was made.
    assert not (tmp_path / "data").exists()


@pytest.mark.parametrize("value", ["eighty", "0", "70000"])
def test_serve_refuses_a_port_that_is_no_port(value, monkeypatch, capsys):
    monkeypatch.setenv("CASINO_PORT", value)
    with pytest.raises(SystemExit) as exit:
        main(["serve"])
    assert exit.value.code == 2
    assert "is not a port number" in capsys.readouterr().err


def test_serve_runs_an_embedded_database_that_outlives_a_restart(tmp_path, postgres_dir):
    data = postgres_dir / "data"
    environ = serve_environment(CASINO_DATA_DIR=str(data), CASINO_WORKERS="2", CASINO_THREADS="2")

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


def test_ctrl_c_stops_serve_quietly_and_at_once_even_with_a_live_stream_open(tmp_path, database_url):
    environ = serve_environment(DATABASE_URL=database_url, CASINO_DATA_DIR=str(tmp_path / "data"),
                                CASINO_WORKERS="2")
    serving = Serving(tmp_path, environ, "interrupted")
    created = urllib.request.urlopen(urllib.request.Request(
        f"{serving.url}/v1/games", method="POST", headers={"Content-Type": "application/json"},
        data=json.dumps({"variant": "cassino", "seats": [{"name": "A"}, {"name": "B"}]}).encode()), timeout=10)
    stream = http.client.HTTPConnection("127.0.0.1", serving.port, timeout=10)
    stream.request("GET", f"/v1/games/{json.load(created)['id']}/events/stream")
    assert stream.getresponse().status == 200  # open, and would stay open for minutes
    started = time.monotonic()
    assert serving.interrupt() == 0
    assert time.monotonic() - started < 10
    stream.close()
    assert "Shutting down" in serving.stderr.read_text()
    assert "Traceback" not in serving.output() and "SIGQUIT" not in serving.output(), serving.output()


def test_a_reader_that_goes_away_ends_a_command_quietly(tmp_path, database_url):
    """``casino verify --json | head``: once the reader has gone, the command
    stops with no traceback (its output here goes to a pipe already closed)."""
    reader, writer = os.pipe()
    os.close(reader)
    environ = serve_environment(DATABASE_URL=database_url)
    casino = Path(sys.executable).with_name("casino")
    with open(writer, "wb") as closed_pipe:
        done = subprocess.run([str(casino), "verify", "--json"], env=environ, stdout=closed_pipe,
                              stderr=subprocess.PIPE, text=True, timeout=120, cwd=tmp_path)
    assert done.returncode == 128 + signal.SIGPIPE
    assert done.stderr.splitlines() == ["Database: DATABASE_URL"], done.stderr


def test_a_server_on_the_tests_database_signs_with_their_key():
    """Else the games it leaves there are damaged to every other test's
    service, and a time keeper that claims one of them cannot time it out."""
    assert serve_environment(DATABASE_URL="postgresql:///shared")["CASINO_OPERATOR_TOKEN"] == OPERATOR_TOKEN
    with pytest.raises(ValueError, match="sign with their key"):
        serve_environment(DATABASE_URL="postgresql:///shared", CASINO_OPERATOR_TOKEN="a token of its own")

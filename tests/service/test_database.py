"""Locating the database: DATABASE_URL, or the embedded PostgreSQL."""

from __future__ import annotations

import subprocess
import sys

import psycopg
from flask import Flask

from service.postgres import database
from service.postgres.database import EmbeddedPostgres, data_dir, resolve_database_url, with_database
from service.web import problems


def test_database_url_wins_over_the_embedded_server(tmp_path):
    url = "postgresql://someone@db.internal/casino"
    environ = {"DATABASE_URL": url, "CASINO_DATA_DIR": str(tmp_path)}
    assert resolve_database_url(environ) == url
    assert not any(tmp_path.iterdir())


def test_the_data_directory_defaults_to_dot_casino_data(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert data_dir({}) == tmp_path / ".casino-data"
    assert data_dir({"CASINO_DATA_DIR": "elsewhere"}) == tmp_path / "elsewhere"


def test_with_database_swaps_only_the_database_name():
    assert (
        with_database("postgresql://postgres:@/postgres?host=/run/pg", "casino")
        == "postgresql://postgres:@/casino?host=/run/pg"
    )
    assert with_database("postgresql://u:p@h:5432/a", "b") == "postgresql://u:p@h:5432/b"


def test_the_embedded_server_is_shared_and_keeps_its_data_across_restarts(postgres_dir):
    server = EmbeddedPostgres(postgres_dir)
    try:
        url = server.database_url()
        with psycopg.connect(url, autocommit=True) as conn:
            conn.execute("CREATE TABLE kept (x integer)")
            conn.execute("INSERT INTO kept VALUES (42)")

        # Another process finds the server running and uses it, and leaving
        # does not stop it under us.
        other = subprocess.run(
            [sys.executable, "-c",
             "import sys; from service.postgres.database import resolve_database_url;"
             " print(resolve_database_url({'CASINO_DATA_DIR': sys.argv[1]}))",
             str(postgres_dir)],
            capture_output=True, text=True, check=True, timeout=60,
        )
        assert other.stdout.strip() == url
        with psycopg.connect(url) as conn:
            assert conn.execute("SELECT x FROM kept").fetchone() == (42,)
    finally:
        server.stop()
    assert not (postgres_dir / "pgdata" / "postmaster.pid").exists()

    again = EmbeddedPostgres(postgres_dir)
    try:
        with psycopg.connect(again.database_url()) as conn:
            assert conn.execute("SELECT x FROM kept").fetchone() == (42,)
    finally:
        again.stop()


def test_a_citus_worker_lost_is_told_from_other_internal_errors():
    lost = psycopg.errors.InternalError_("failure on connection marked as essential: /run/worker1:5432")
    relayed = psycopg.errors.InternalError_("terminating connection due to unexpected postmaster exit")
    at_commit = psycopg.errors.InternalError_("could not commit transaction for shard 102020 on at least one"
                                              " active node")
    other = psycopg.errors.InternalError_("could not open relation with OID 1234")
    assert database.worker_lost(lost) and database.worker_lost(relayed) and database.worker_lost(at_commit)
    assert not database.worker_lost(other)


def test_an_error_unavailable_only_when_its_test_says_so_answers_503_else_500():
    app = Flask(__name__)
    problems.init_app(app, unavailable_when={psycopg.errors.InternalError_: database.worker_lost})

    @app.get("/<what>")
    def fail(what):
        raise psycopg.errors.InternalError_(
            "failure on connection marked as essential: w1:5432" if what == "lost" else "something else")

    lost, other = app.test_client().get("/lost"), app.test_client().get("/other")
    assert lost.status_code == 503 and lost.headers["Retry-After"].isdigit()
    assert lost.get_json()["code"] == "unavailable"
    assert other.status_code == 500 and other.get_json()["code"] == "internal_error"

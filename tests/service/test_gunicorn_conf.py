from __future__ import annotations

import subprocess
import sys

import pytest

from service.ops.serve import Logger, default_workers, options, stream_capacity


def test_defaults_suit_a_small_machine():
    settings = options("127.0.0.1", 8000, {})
    assert settings["bind"] == "127.0.0.1:8000"
    assert 1 <= settings["workers"] <= 4
    assert settings["worker_class"] == "gevent" and settings["threads"] == 4
    assert settings["timeout"] == 30 and settings["preload_app"] is False
    # Thousands of live streams per worker, and room for requests besides.
    assert 1000 <= stream_capacity(settings) < settings["worker_connections"]


@pytest.mark.parametrize("cores,gevent,gthread", [(1, 1, 3), (2, 2, 4), (4, 4, 4), (16, 8, 4)])
def test_gevent_runs_a_worker_per_core_and_gthread_more_to_cover_waits(cores, gevent, gthread):
    assert default_workers("gevent", cores) == gevent
    assert default_workers("gthread", cores) == gthread


def test_gthread_workers_keep_half_their_threads_for_requests():
    settings = options("127.0.0.1", 8000, {"CASINO_WORKER_CLASS": "gthread", "CASINO_THREADS": "8"})
    assert settings["worker_class"] == "gthread" and stream_capacity(settings) == 4


def test_an_unknown_worker_class_is_refused_by_name():
    with pytest.raises(ValueError, match="CASINO_WORKER_CLASS"):
        options("127.0.0.1", 8000, {"CASINO_WORKER_CLASS": "eventlet"})


def test_the_environment_sizes_the_server():
    settings = options(
        "::1", 9000, {"CASINO_WORKERS": "3", "CASINO_THREADS": "8", "CASINO_TIMEOUT": "60"}
    )
    assert settings["bind"] == "[::1]:9000"
    assert (settings["workers"], settings["threads"], settings["timeout"]) == (3, 8, 60)


@pytest.mark.parametrize("value", ["0", "-1", "many"])
def test_a_bad_size_is_refused_by_name(value):
    with pytest.raises(ValueError, match="CASINO_WORKERS"):
        options("127.0.0.1", 8000, {"CASINO_WORKERS": value})


def test_gunicorn_formats_no_access_lines_the_app_writes_itself():
    assert options("127.0.0.1", 8000, {})["logger_class"] == "service.ops.serve.Logger"
    assert Logger.access(object.__new__(Logger), None, None, {}, 0) is None


def test_gunicorns_master_imports_neither_psycopg_nor_the_app():
    # gevent patches each worker when it starts; psycopg and its pool take
    # their wait function and locks when imported, so only after that.
    code = ("import sys, service.ops.serve; "
            "print(sorted(m for m in sys.modules if m.split('.')[0] in ('psycopg', 'psycopg_pool', 'flask')"
            " or m in ('service.web.app', 'service.postgres.database')))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"

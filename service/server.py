"""gunicorn, configured in code, serving the app.

``casino serve`` prepares the database in its own process, then runs
gunicorn's master in a fresh interpreter (``python -m service.server``)
that imports neither psycopg nor the app. A gevent worker patches the
standard library when it starts, and whatever takes a lock, an event or a
wait function from it at import must be imported after that: psycopg picks
its wait function, and psycopg_pool its locks and conditions, when first
imported. Imported in the master, they would be the blocking ones in every
worker, and one waiting stream would stop a whole worker. So the app is
built in ``Server.load``, which runs in each worker after the patching.
"""

from __future__ import annotations

import json
import resource
import signal
import subprocess
import sys
from collections.abc import Mapping
from typing import Any

from gunicorn.app.base import BaseApplication

#: Signals gunicorn's master acts on: the ``casino serve`` process passes them on.
FORWARDED = (signal.SIGTERM, signal.SIGINT, signal.SIGQUIT, signal.SIGHUP, signal.SIGTTIN,
             signal.SIGTTOU, signal.SIGUSR1, signal.SIGUSR2, signal.SIGWINCH)


class Server(BaseApplication):
    """Runs gunicorn with ``options``; each worker serves ``create_app(app_config)``."""

    def __init__(self, options: Mapping[str, Any], app_config: Mapping[str, Any]):
        self._options = dict(options)
        self._app_config = dict(app_config)
        super().__init__()

    def load_config(self) -> None:
        for key, value in self._options.items():
            self.cfg.set(key, value)

    def load(self):
        from service.app import create_app
        from service.logs import skip_unused_record_fields

        skip_unused_record_fields()
        return create_app(self._app_config)


def run(options: Mapping[str, Any], app_config: Mapping[str, Any], env: Mapping[str, str]) -> int:
    """Run gunicorn's master in a fresh interpreter with ``env``, passing it
    the signals this process gets; its exit status."""
    child = subprocess.Popen([sys.executable, "-m", "service.server"], stdin=subprocess.PIPE, env=dict(env))
    # On stdin, not argv or the environment: the operator token is in it.
    child.stdin.write(json.dumps({"options": dict(options), "app": dict(app_config)}).encode())
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
    Server(settings["options"], settings["app"]).run()
    return 0


if __name__ == "__main__":
    sys.exit(main())

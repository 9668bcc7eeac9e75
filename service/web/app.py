"""The application factory: the one place where the web app is put together.

``create_app`` reads the configuration (defaults, then the environment, then
the caller's overrides, as Flask's tutorial does), has its ``wiring`` make
the adapters (PostgreSQL's by default, over a pool it opens; the tests'
fast tier passes ``service.memory.wiring.adapters``), builds the service
over them (``service.bootstrap``) and registers every blueprint and error
handler. Nothing is built at import: each gunicorn worker calls
``create_app`` after it forks.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping
from typing import Any

from flask import Flask

from service import checkpoints
from service.bootstrap import Adapters, Settings, bootstrap
from service.postgres import wiring as postgres_wiring
from service.web import (allowances, audit, client, commands, cors, current, events, front, games, headers, health,
                         listing, lobby, observability, pairing, players, problems, ratings, requests, rules, seats,
                         spec, sse, stream, variants)

DEFAULTS: dict[str, Any] = {
    "DATABASE_URL": None,
    "OPERATOR_TOKEN": None,
    # Signs each game's head (service.checkpoints); None: one made from OPERATOR_TOKEN.
    "CHECKPOINT_KEY": None,
    "DB_POOL_MIN_SIZE": 1,
    "DB_POOL_MAX_SIZE": 4,
    # Seconds a request waits for a pooled connection before a 503.
    "DB_POOL_TIMEOUT": 10.0,
    # Seconds a statement may wait for a lock, and run, before it is
    # cancelled and the request answers 503 (service.postgres.database.Limits).
    "DB_LOCK_TIMEOUT": 5.0,
    "DB_STATEMENT_TIMEOUT": 20.0,
    # Seconds /readyz waits for a connection before answering 503.
    "READY_TIMEOUT": 2.0,
    # Every request body is small JSON; refuse big ones before parsing.
    "MAX_CONTENT_LENGTH": 64 * 1024,
    # Live event streams (service.streams). A worker keeps at most
    # STREAM_MAX_OPEN open (`casino serve` sets it from its worker class);
    # each buffers at most STREAM_BUFFER_EVENTS events for a slow reader
    # before it is closed; they look every STREAM_POLL_SECONDS while
    # notifications are down.
    "STREAM_MAX_SECONDS": 300.0,
    "STREAM_KEEPALIVE_SECONDS": 15.0,
    "STREAM_POLL_SECONDS": 2.0,
    "STREAM_MAX_OPEN": 2,
    "STREAM_BUFFER_EVENTS": 128,
    # Standbys for the reads that may come from one (service.replicas): one
    # libpq URL, several servers in its multi-host form; None: every read
    # goes to the primary. A read waits up to REPLICA_WAIT seconds for a
    # standby behind what its client has seen, then the primary answers.
    "REPLICA_URL": None,
    "REPLICA_WAIT": 0.1,
    # Each caller's share of a worker's streams (service.stream_limits): a
    # seat's, the operator's, and those of callers without a token at one
    # client address. Past it, 429.
    "STREAM_LIMIT_SEAT": 4,
    "STREAM_LIMIT_PLAYER": 16,
    "STREAM_LIMIT_OPERATOR": 32,
    "STREAM_LIMIT_ADDRESS": 32,
    # How many players one client address may register, how many games it
    # may join and call off as a guest, in any RATE_WINDOW_SECONDS, in each
    # worker (service.rates). Past it, 429.
    "RATE_WINDOW_SECONDS": 600.0,
    "REGISTRATIONS_PER_ADDRESS": 10,
    "GUEST_JOINS_PER_ADDRESS": 10,
    "GUEST_ABORTS_PER_ADDRESS": 3,
    # Proxies whose X-Forwarded-For names the client (service.web.clients):
    # addresses or networks, comma-separated.
    "TRUSTED_PROXIES": "",
    # Keep the games' deadlines in a thread (a greenlet) of this process
    # (service.timeouts): `casino serve` turns it on in every worker.
    "KEEP_DEADLINES": False,
    # The computer seats act after the command that calls on them is
    # answered: the time keeper claims them (service.turns). Without
    # KEEP_DEADLINES, it starts when this process first awaits a computer.
    "PLAY_COMPUTERS": True,
    # Pair the players waiting for a game in a thread (a greenlet) of this
    # process (service.pairing): `casino serve` turns it on in every worker.
    "PAIR_PLAYERS": False,
    # Origins whose pages may call the API (service.web.cors): "*" any, a
    # comma-separated list, or "none".
    "CORS_ORIGINS": "*",
}

# Configuration key: (environment variable, type).
ENVIRONMENT = {
    "DATABASE_URL": ("DATABASE_URL", str),
    "OPERATOR_TOKEN": ("CASINO_OPERATOR_TOKEN", str),
    "CHECKPOINT_KEY": ("CASINO_CHECKPOINT_KEY", str),
    "DB_POOL_MIN_SIZE": ("CASINO_DB_POOL_MIN_SIZE", int),
    "DB_POOL_MAX_SIZE": ("CASINO_DB_POOL_MAX_SIZE", int),
    "DB_POOL_TIMEOUT": ("CASINO_DB_POOL_TIMEOUT", float),
    "DB_LOCK_TIMEOUT": ("CASINO_DB_LOCK_TIMEOUT", float),
    "DB_STATEMENT_TIMEOUT": ("CASINO_DB_STATEMENT_TIMEOUT", float),
    "STREAM_MAX_SECONDS": ("CASINO_STREAM_MAX_SECONDS", float),
    "STREAM_MAX_OPEN": ("CASINO_STREAM_MAX_OPEN", int),
    "STREAM_BUFFER_EVENTS": ("CASINO_STREAM_BUFFER_EVENTS", int),
    "REPLICA_URL": ("CASINO_REPLICA_URL", str),
    "REPLICA_WAIT": ("CASINO_REPLICA_WAIT", float),
    "STREAM_LIMIT_SEAT": ("CASINO_STREAM_LIMIT_SEAT", int),
    "STREAM_LIMIT_PLAYER": ("CASINO_STREAM_LIMIT_PLAYER", int),
    "STREAM_LIMIT_OPERATOR": ("CASINO_STREAM_LIMIT_OPERATOR", int),
    "STREAM_LIMIT_ADDRESS": ("CASINO_STREAM_LIMIT_ADDRESS", int),
    "RATE_WINDOW_SECONDS": ("CASINO_RATE_WINDOW_SECONDS", float),
    "REGISTRATIONS_PER_ADDRESS": ("CASINO_REGISTRATIONS_PER_ADDRESS", int),
    "GUEST_JOINS_PER_ADDRESS": ("CASINO_GUEST_JOINS_PER_ADDRESS", int),
    "GUEST_ABORTS_PER_ADDRESS": ("CASINO_GUEST_ABORTS_PER_ADDRESS", int),
    "TRUSTED_PROXIES": ("CASINO_TRUSTED_PROXIES", str),
    "CORS_ORIGINS": ("CASINO_CORS_ORIGINS", str),
}


#: Makes the adapters from the app's configuration and the checkpoint key.
Wiring = Callable[[Mapping[str, Any], bytes | None], Adapters]

#: Every resource the app serves, one blueprint each.
BLUEPRINTS = (health.bp, observability.bp, spec.bp, front.bp, rules.bp, client.bp, variants.bp, games.bp, listing.bp,
              commands.bp, events.bp, stream.bp, audit.bp, players.bp, seats.bp, lobby.bp, ratings.bp,
              pairing.bp)


def create_app(overrides: Mapping[str, Any] | None = None, *, wiring: Wiring = postgres_wiring.adapters) -> Flask:
    """Build the app: defaults, then the environment, then ``overrides``;
    its adapters from ``wiring``."""
    app = Flask(__name__, static_folder=None)  # the web client has its own route (service.web.client)
    app.json = requests.OrjsonProvider(app)
    app.config.from_mapping(DEFAULTS)
    app.config.from_mapping(settings_from_environment(os.environ))
    app.config.from_mapping(overrides or {})

    observability.init_app(app)
    headers.init_app(app)
    cors.init_app(app)
    requests.init_app(app)
    sse.init_app(app)
    allowances.init_app(app)
    checkpoint_key = checkpoints.key_for(app.config)
    adapters = wiring(app.config, checkpoint_key)
    settings = Settings(app.config.get("OPERATOR_TOKEN"), checkpoint_key, app.config["STREAM_BUFFER_EVENTS"],
                        app.config["REPLICA_WAIT"])
    current.init_app(app, bootstrap(adapters, settings))
    problems.init_app(app, unavailable=adapters.unavailable, unavailable_when=adapters.unavailable_when)
    for blueprint in BLUEPRINTS:
        app.register_blueprint(blueprint)
    if app.config["KEEP_DEADLINES"]:
        current.services(app).keeper.start()
    elif app.config["PLAY_COMPUTERS"]:
        current.services(app).keeper.start_when_woken()
    if app.config["PAIR_PLAYERS"]:
        current.services(app).pairer.start()
    return app


def close_app(app: Flask) -> None:
    """Close what the app opened (its pool) now rather than at exit: tests make many apps."""
    current.services(app).close()


def settings_from_environment(environ: Mapping[str, str]) -> dict[str, Any]:
    settings = {}
    for key, (variable, kind) in ENVIRONMENT.items():
        if environ.get(variable):
            try:
                settings[key] = kind(environ[variable])
            except ValueError:
                raise ValueError(
                    f"{variable}={environ[variable]!r} is not a valid {kind.__name__}"
                ) from None
    return settings

"""The application factory: the one place where the service is put together.

``create_app`` reads the configuration (defaults, then the environment, then
the caller's overrides, as Flask's tutorial does), opens the database pool,
builds the service's parts over it (``Services``) and registers every
blueprint and error handler. Nothing is built at import: each gunicorn
worker calls ``create_app`` after it forks.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from flask import Flask, current_app

from service import auth, checkpoints
from service.cache import StateCache, snapshot_key_from
from service.computer import ComputerSeats
from service.games import GameService
from service.postgres import database
from service.postgres.readmodel import ReadModel
from service.postgres.store import PostgresEventStore
from service.postgres.tickets import TicketUses
from service.streams import Hub
from service.web import observability, problems, requests

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
}


@dataclass(frozen=True)
class Services:
    """The parts of the service one app uses, built once by ``create_app``."""

    games: GameService
    read_model: ReadModel
    computers: ComputerSeats
    hub: Hub
    checkpoint_key: bytes | None


_SERVICES = "casino.services"


def services() -> Services:
    """The current app's ``Services``."""
    return current_app.extensions[_SERVICES]


def create_app(overrides: Mapping[str, Any] | None = None) -> Flask:
    """Build the app: defaults, then the environment, then ``overrides``."""
    app = Flask(__name__, static_folder=None)  # the web client has its own route (service.web.client)
    app.json = requests.OrjsonProvider(app)
    app.config.from_mapping(DEFAULTS)
    app.config.from_mapping(settings_from_environment(os.environ))
    app.config.from_mapping(overrides or {})

    problems.init_app(app)
    observability.init_app(app)
    requests.init_app(app)
    pool = database.init_app(app)
    token = app.config.get("OPERATOR_TOKEN")
    checkpoint_key = checkpoints.key_for(app.config)
    store = PostgresEventStore(pool, checkpoint_key)
    hub = Hub(database.primary_url(app.config["DATABASE_URL"]), store, capacity=app.config["STREAM_BUFFER_EVENTS"])
    games = GameService(store, StateCache(),
                        snapshot_key=snapshot_key_from(token) if token else None,
                        seat_key=auth.seat_key_from(token) if token else None, checkpoint_key=checkpoint_key,
                        appended=hub.publish)
    pool.on_new_server(games.cache.clear)  # it may hold what a failover or a restore lost
    auth.init_app(app, auth.Authenticator(token, store, TicketUses(pool)))
    app.extensions[_SERVICES] = Services(
        games=games,
        read_model=ReadModel(pool),
        computers=ComputerSeats(games),
        hub=hub,
        checkpoint_key=checkpoint_key,
    )
    for blueprint in blueprints():
        app.register_blueprint(blueprint)
    return app


def blueprints() -> list[Any]:
    """Every resource the app serves, one blueprint each."""
    from service.web import audit, client, commands, events, games, health, listing, spec, stream, variants

    return [health.bp, observability.bp, spec.bp, client.bp, variants.bp, games.bp, listing.bp, commands.bp,
            events.bp, stream.bp, audit.bp]


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

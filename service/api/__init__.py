"""The games API under ``/v1``: one blueprint per resource, and the mapping
from service and domain errors to problem responses."""

from __future__ import annotations

from flask import Flask, request

from domain import NotationError, OptionError, RuleViolation
from service import checkpoints, snapshots, tokens
from service.cache import StateCache
from service.computer import ComputerSeats
from service.database import get_pool
from service.games import (CorruptGame, GameNotFound, GameService, KeyReused, PreconditionFailed, TokensLost,
                           VersionConflict)
from service.metrics import VERSION_CONFLICTS
from service.problems import ApiProblem, problem
from service.readmodel import ReadModel
from service.store import EventStore


def init_app(app: Flask) -> None:
    from service.api import audit, commands, events, games, listing, log, spec, stream, variants

    token = app.config.get("OPERATOR_TOKEN")
    store = EventStore(get_pool(app), checkpoints.key_for(app.config))
    app.extensions["casino.games"] = GameService(store, StateCache(),
                                                 snapshot_key=snapshots.key_from(token) if token else None,
                                                 seat_key=tokens.seat_key_from(token) if token else None)
    app.extensions["casino.readmodel"] = ReadModel(get_pool(app))
    app.extensions["casino.computers"] = ComputerSeats(app.extensions["casino.games"])
    stream.init_app(app)
    for bp in (games.bp, listing.bp, commands.bp, events.bp, stream.bp, audit.bp, log.bp, variants.bp,
               spec.bp):
        app.register_blueprint(bp)
    app.before_request(_one_value_each)
    app.register_error_handler(RuleViolation, _rule_violation)
    app.register_error_handler(OptionError, _option_error)
    app.register_error_handler(NotationError, _notation_error)
    app.register_error_handler(GameNotFound, _not_found)
    app.register_error_handler(CorruptGame, _corrupt_game)
    app.register_error_handler(PreconditionFailed, _precondition_failed)
    app.register_error_handler(VersionConflict, _conflict)
    app.register_error_handler(KeyReused, _key_reused)
    app.register_error_handler(TokensLost, _tokens_lost)


def _one_value_each() -> None:
    """Refuse a query parameter given twice, unless the endpoint reads every
    value: reading one of them quietly would act on half of what was asked."""
    from service.api import listing

    repeatable = listing.REPEATABLE if request.endpoint == "listing.index" else frozenset()
    for name, values in request.args.lists():
        if len(values) > 1 and name not in repeatable:
            raise ApiProblem(400, "malformed", f"Give '{name}' once.",
                             errors=[{"field": name, "message": "Given more than once."}])


def _rule_violation(error: RuleViolation):
    return problem(422, "rule_violation", error.message, rule=error.rule)


def _option_error(error: OptionError):
    field = f"options.{error.name}" if error.name and error.name != "first_dealer" else error.name
    return problem(400, "malformed", str(error), errors=[{"field": field, "message": str(error)}])


def _notation_error(error: NotationError):
    return problem(400, "malformed", str(error), errors=[{"field": None, "message": str(error)}])


def _not_found(error: GameNotFound):
    return problem(404, "not_found", "There is no game with this id.")


def _corrupt_game(error: CorruptGame):
    verify = f"/v1/games/{error.game_id}/verify"
    return problem(500, "corrupt_game",
                   f"This game's stored history is damaged from version {error.version} on, so it cannot be"
                   f" shown. The operator can see what is wrong at {verify}.",
                   first_bad_version=error.version, verify=verify)


def _precondition_failed(error: PreconditionFailed):
    return problem(412, "precondition_failed",
                   f"The game has moved on: it is now at version {error.current}. Reload it and try again.",
                   headers={"ETag": f'"{error.current}"'}, version=error.current)


def _conflict(error: VersionConflict):
    VERSION_CONFLICTS.inc()
    return problem(409, "version_conflict",
                   "Another move was made at the same moment. Reload the game and try again.")


def _key_reused(error: KeyReused):
    return problem(422, "idempotency_key_reused",
                   "This Idempotency-Key was already used for a different request.")


def _tokens_lost(error: TokensLost):
    return problem(409, "idempotency_key_stale",
                   "A game was created under this Idempotency-Key, but its seats' tokens can no longer be "
                   "given again: the service's secret has been replaced since. Create a new game.")

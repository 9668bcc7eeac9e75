"""Errors as RFC 9457 problem details (``application/problem+json``).

Every error the service answers has ``type``, ``title``, ``status``,
``detail`` (a sentence for a person) and ``code`` (a stable name for
programs), plus any extension members a caller adds (``errors``, ``rule``).
Views raise ``ApiProblem``. Everything else that can go wrong is turned into
a problem here, in one place: the rules' refusals, the service layer's
errors, who may not ask (``service.auth``), Werkzeug's own HTTP errors, a
lost database connection (what the adapters name ``unavailable``, or
``unavailable_when`` for errors whose type alone does not say it), and
unexpected exceptions.
"""

from __future__ import annotations

import functools
import json
import logging
import sys
from collections.abc import Callable, Mapping
from http import HTTPStatus
from typing import Any

from flask import Flask, Response, current_app, g, request
from werkzeug.exceptions import HTTPException, InternalServerError, NotFound

from domain.errors import NotationError, OptionError, RuleViolation, UnknownOption
from service.auth import Forbidden, Unauthenticated
from service.games import (CorruptGame, GameNotFound, KeyReused, NoSuchVersion, PreconditionFailed, TokensLost,
                           VersionConflict)
from service.metrics import VERSION_CONFLICTS
from service.names import NameRefused

MIMETYPE = "application/problem+json"
# `type` is a URI reference naming the problem; relative, so that it is
# resolved against the service that answered.
TYPE_PREFIX = "/problems/"

TITLES = {
    "malformed": "Malformed request",
    "unauthenticated": "Authentication required",
    "forbidden": "Not allowed",
    "not_found": "Not found",
    "method_not_allowed": "Method not allowed",
    "version_conflict": "Version conflict",
    "precondition_failed": "Precondition failed",
    "payload_too_large": "Payload too large",
    "rule_violation": "Against the rules",
    "idempotency_key_reused": "Idempotency key reused",
    "idempotency_key_stale": "Idempotency key stale",
    "range_not_satisfiable": "Range not satisfiable",
    "too_many_streams": "Too many live streams",
    "invalid_options": "Not a game the rules allow",
    "idempotency_key_not_random": "Idempotency key not random",
    "invalid_transfer_code": "Transfer code not valid",
    "invalid_name": "Not a name that can be used",
    "too_many_requests": "Too many requests",
    "already_waiting": "Waiting already",
    "already_paired": "Paired already",
    # Sent by the HTTP server before the app sees the request (service.ops.refusals).
    "uri_too_long": "Request line too long",
    "headers_too_large": "Request headers too large",
    "internal_error": "Internal error",
    "corrupt_game": "Damaged game",
    "unavailable": "Service unavailable",
}

# Codes for the HTTP errors Flask and Werkzeug raise by themselves; any
# other status gets a code made from its reason phrase.
_HTTP_CODES = {
    400: "malformed",
    404: "not_found",
    405: "method_not_allowed",
    413: "payload_too_large",
    416: "range_not_satisfiable",
    500: "internal_error",
}

_log = logging.getLogger("casino.errors")


class ApiProblem(Exception):
    """Raise in a view to answer with a problem; ``extra`` becomes members of the body."""

    def __init__(
        self,
        status: int,
        code: str,
        detail: str,
        *,
        title: str | None = None,
        headers: Mapping[str, str] | None = None,
        **extra: Any,
    ):
        super().__init__(detail)
        self.status = status
        self.code = code
        self.detail = detail
        self.title = title
        self.headers = dict(headers or {})
        self.extra = extra

    def response(self) -> Response:
        return problem(
            self.status,
            self.code,
            self.detail,
            title=self.title,
            headers=self.headers,
            **self.extra,
        )


def problem(
    status: int,
    code: str,
    detail: str,
    *,
    title: str | None = None,
    headers: Mapping[str, str] | None = None,
    **extra: Any,
) -> Response:
    """A ``application/problem+json`` response."""
    body = {
        "type": TYPE_PREFIX + code,
        "title": title or TITLES.get(code) or HTTPStatus(status).phrase,
        "status": status,
        "detail": detail,
        "code": code,
        **extra,
    }
    return Response(json.dumps(body), status=status, headers=headers, mimetype=MIMETYPE)


def init_app(app: Flask, *, unavailable: tuple[type[Exception], ...] = (),
             unavailable_when: Mapping[type[Exception], Callable[[Exception], bool]] | None = None) -> None:
    """Answer every error with a problem; ``unavailable`` are the errors of a
    database that cannot be reached just now (``service.bootstrap.Adapters``),
    and so is an error of a type in ``unavailable_when`` that its test passes."""
    app.register_error_handler(ApiProblem, ApiProblem.response)
    app.register_error_handler(HTTPException, _http_error)
    for error in unavailable:
        app.register_error_handler(error, _database_unavailable)
    for error, test in (unavailable_when or {}).items():
        app.register_error_handler(error, functools.partial(_unavailable_if, test))
    for error, handler in _HANDLERS.items():
        app.register_error_handler(error, handler)


def _http_error(error: HTTPException) -> Response:
    status = error.code or 500
    code = _HTTP_CODES.get(status) or HTTPStatus(status).phrase.lower().replace(" ", "_")
    # Keep what Werkzeug says in headers (Allow on a 405, say), not its HTML type.
    headers = {k: v for k, v in error.get_headers() if k.lower() != "content-type"}
    if isinstance(error, InternalServerError):
        # Flask has logged the exception; the client gets a handle on it.
        return problem(
            500,
            code,
            "Something went wrong on our side. If it happens again, "
            f"quote request id {g.get('request_id', 'unknown')}.",
            headers=headers,
        )
    if isinstance(error, NotFound) and error.description == NotFound.description:
        # Werkzeug's own sentence talks of URLs entered by hand and spelling.
        return problem(404, code, f"Nothing is served at {request.path}: the API's paths are listed at /docs.",
                       headers=headers)
    return problem(status, code, error.description or HTTPStatus(status).description,
                   headers=headers)


def _database_unavailable(error: Exception) -> Response:
    """A lost or saturated database is transient: 503, so clients retry."""
    _log.warning("database unavailable: %s", error)
    return problem(
        503,
        "unavailable",
        "The game database cannot be reached right now. Please try again shortly.",
        headers={"Retry-After": "1"},
    )


def _unavailable_if(test: Callable[[Exception], bool], error: Exception) -> Response:
    """A 503 if ``test`` says ``error`` is the database out of reach for now;
    else what any unexpected error gets: logged whole, and a 500."""
    if test(error):
        return _database_unavailable(error)
    current_app.log_exception(sys.exc_info())
    return _http_error(InternalServerError(original_exception=error))


# -- the rules, the service layer, and who is asking --------------------------

_REALM = 'Bearer realm="casino"'


def _unauthenticated(error: Unauthenticated) -> Response:
    challenge = _REALM + (', error="invalid_token"' if error.invalid_token else "")
    return problem(401, "unauthenticated", error.detail, headers={"WWW-Authenticate": challenge})


def _forbidden(error: Forbidden) -> Response:
    return problem(403, "forbidden", error.detail)


def _rule_violation(error: RuleViolation) -> Response:
    return problem(422, "rule_violation", error.message, rule=error.rule)


def _option_error(error: OptionError) -> Response:
    """An option the game does not have is malformed (400), as the spec's
    schema says; a game the rules cannot make of valid parts (options that
    do not go together, an unknown variant, a first dealer who is not a
    seat) is refused for what it asks (422)."""
    field = f"options.{error.name}" if error.name and error.name != "first_dealer" else error.name
    status, code = (400, "malformed") if isinstance(error, UnknownOption) else (422, "invalid_options")
    return problem(status, code, str(error), errors=[{"field": field, "message": str(error)}])


def _notation_error(error: NotationError) -> Response:
    where = f"'{error.field}': " if error.field else ""
    return problem(400, "malformed", f"The request is not valid: {where}{error}",
                   errors=[{"field": error.field, "message": str(error)}])


def _not_found(error: GameNotFound) -> Response:
    return problem(404, "not_found", "There is no game with this id.")


def _no_such_version(error: NoSuchVersion) -> Response:
    return problem(404, "not_found", str(error))


def _corrupt_game(error: CorruptGame) -> Response:
    verify = f"/v1/games/{error.game_id}/verify"
    return problem(500, "corrupt_game",
                   f"This game's stored history is damaged from version {error.version} on, so it cannot be"
                   f" shown. The operator can see what is wrong at {verify}.",
                   first_bad_version=error.version, verify=verify)


def _precondition_failed(error: PreconditionFailed) -> Response:
    return problem(412, "precondition_failed",
                   f"The game has moved on: it is now at version {error.current}. Reload it and try again.",
                   headers={"ETag": f'"{error.current}"'}, version=error.current)


def _conflict(error: VersionConflict) -> Response:
    VERSION_CONFLICTS.inc()
    return problem(409, "version_conflict",
                   "Another move was made at the same moment. Reload the game and try again.")


def _key_reused(error: KeyReused) -> Response:
    return problem(422, "idempotency_key_reused",
                   "This Idempotency-Key was already used for a different request.")


def _name_refused(error: NameRefused) -> Response:
    return problem(422, "invalid_name", error.detail)


def _tokens_lost(error: TokensLost) -> Response:
    return problem(409, "idempotency_key_stale", error.detail)


_HANDLERS: dict[type[Exception], Any] = {
    Unauthenticated: _unauthenticated,
    Forbidden: _forbidden,
    RuleViolation: _rule_violation,
    OptionError: _option_error,
    NotationError: _notation_error,
    GameNotFound: _not_found,
    NoSuchVersion: _no_such_version,
    CorruptGame: _corrupt_game,
    PreconditionFailed: _precondition_failed,
    VersionConflict: _conflict,
    KeyReused: _key_reused,
    TokensLost: _tokens_lost,
    NameRefused: _name_refused,
}

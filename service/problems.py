"""Errors as RFC 9457 problem details (``application/problem+json``).

Every error the service answers has ``type``, ``title``, ``status``,
``detail`` (a sentence for a person) and ``code`` (a stable name for
programs), plus any extension members a caller adds (``errors``, ``rule``).
Views raise ``ApiProblem``; Werkzeug's own HTTP errors, lost database
connections and unexpected exceptions are turned into problems here too.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Mapping
from http import HTTPStatus
from typing import Any

import psycopg
from flask import Flask, Response, g
from werkzeug.exceptions import HTTPException, InternalServerError

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
    "precondition_required": "Precondition required",
    "internal_error": "Internal error",
    "unavailable": "Service unavailable",
}

# Codes for the HTTP errors Flask and Werkzeug raise by themselves; any
# other status gets a code made from its reason phrase.
_HTTP_CODES = {
    400: "malformed",
    404: "not_found",
    405: "method_not_allowed",
    413: "payload_too_large",
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


def init_app(app: Flask) -> None:
    app.register_error_handler(ApiProblem, ApiProblem.response)
    app.register_error_handler(HTTPException, _http_error)
    app.register_error_handler(psycopg.OperationalError, _database_unavailable)


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
    return problem(status, code, error.description or HTTPStatus(status).description,
                   headers=headers)


def _database_unavailable(error: psycopg.OperationalError) -> Response:
    """A lost or saturated database is transient: 503, so clients retry."""
    _log.warning("database unavailable: %s", error)
    return problem(
        503,
        "unavailable",
        "The game database cannot be reached right now. Please try again shortly.",
        headers={"Retry-After": "1"},
    )

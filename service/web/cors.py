"""Cross-origin requests (CORS): a web app served from another site may call
the API from its visitors' browsers.

Tokens travel in ``Authorization``, never in cookies, so a page elsewhere
can act only with a token its user gave it, and answering every origin
(``Access-Control-Allow-Origin: *``, no credentials) opens nothing more than
curl already can: that is the default. ``CORS_ORIGINS``
(``CASINO_CORS_ORIGINS``) narrows it to a list of origins, comma-separated
(``https://app.example,https://other.example``), or turns it off (``none``).

It covers the API (``/v1/...``) and the specification (``/openapi.yaml``,
``/openapi.json``), not the web client's own pages. A preflight
(``OPTIONS`` with ``Access-Control-Request-Method``) to a path the API
serves is answered 204 here, before any other check: it carries no token.
Answers expose every header the API's answers carry (``ETag``,
``Consistency-Token``, ``Location``, ``Retry-After`` ...), and a page may
send every header the API reads (``If-None-Match``, ``Consistency-Token``
...): tests/web/test_cors.py holds both lists to openapi.yaml. Other headers
(nosniff, the pages' CSP) are set elsewhere and left as they are.
"""

from __future__ import annotations

from flask import Flask, Response, current_app, request

#: Where cross-origin calls are answered.
PREFIXES = ("/v1/", "/openapi.")

#: Request headers a page may send beyond the ones every browser allows.
ALLOWED_HEADERS = ("Authorization, Consistency-Token, Content-Type, Idempotency-Key, If-Match, If-None-Match,"
                   " Last-Event-ID, X-Request-Id")

#: Answer headers a page may read beyond the ones every browser shows.
EXPOSED_HEADERS = "Consistency-Token, Content-Range, ETag, Location, Retry-After, X-Request-Id, WWW-Authenticate"

#: Seconds a browser may keep a preflight's answer (Chromium keeps two hours at most).
MAX_AGE = "7200"


def init_app(app: Flask) -> None:
    app.before_request(_preflight)
    app.after_request(_allow)


def allowed_origin(origins: str, origin: str | None) -> str | None:
    """What ``Access-Control-Allow-Origin`` says to ``origin``: ``*`` for
    any, the origin itself when listed, None when it is not allowed."""
    setting = origins.strip()
    if not origin or setting.lower() in ("", "none"):
        return None
    if setting == "*":
        return "*"
    listed = {o.strip().rstrip("/") for o in setting.split(",") if o.strip()}
    return origin if origin in listed else None


def _covered() -> bool:
    return request.path.startswith(PREFIXES)


def _preflight() -> Response | None:
    """A preflight to a path the API serves: 204, with what may be sent."""
    if request.method != "OPTIONS" or "Access-Control-Request-Method" not in request.headers:
        return None
    if not _covered() or request.url_rule is None:
        return None  # Flask answers: 404 for a path not served
    response = Response(status=204)
    if allowed_origin(current_app.config["CORS_ORIGINS"], request.headers.get("Origin")):
        methods = sorted((request.url_rule.methods or set()) - {"HEAD"})
        response.headers["Access-Control-Allow-Methods"] = ", ".join(methods)
        response.headers["Access-Control-Allow-Headers"] = ALLOWED_HEADERS
        response.headers["Access-Control-Max-Age"] = MAX_AGE
    return response


def _allow(response: Response) -> Response:
    if not _covered():
        return response
    origins = current_app.config["CORS_ORIGINS"]
    allowed = allowed_origin(origins, request.headers.get("Origin"))
    if origins.strip() not in ("*", "", "none"):
        response.vary.add("Origin")  # the answer depends on who asks
    if allowed:
        response.headers["Access-Control-Allow-Origin"] = allowed
        if request.method != "OPTIONS":
            response.headers["Access-Control-Expose-Headers"] = EXPOSED_HEADERS
    return response

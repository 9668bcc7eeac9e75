"""Per-request bookkeeping (a request id, metrics, and one access-log line),
and ``GET /metrics``.

The request id is the client's ``X-Request-Id`` when it looks like an id
(so a proxy's id carries through), else a new one. It is in ``g.request_id``
while the request is served and is sent back in ``X-Request-Id``.
"""

from __future__ import annotations

import logging
import re
import time
import uuid

from flask import Blueprint, Flask, Response, g, request

from service import metrics

REQUEST_ID_HEADER = "X-Request-Id"
_SANE_REQUEST_ID = re.compile(r"[A-Za-z0-9._:/+=-]{1,128}")
UNMATCHED_ROUTE = "<unmatched>"

access_log = logging.getLogger("casino.access")


bp = Blueprint("metrics", __name__)


def init_app(app: Flask) -> None:
    metrics.check_multiprocess()
    app.before_request(_begin)
    app.after_request(_finish)


@bp.get("/metrics")
def scrape() -> Response:
    body, content_type = metrics.exposition()
    return Response(body, content_type=content_type)


def _begin() -> None:
    g.request_started = time.perf_counter()
    incoming = request.headers.get(REQUEST_ID_HEADER, "")
    g.request_id = incoming if _SANE_REQUEST_ID.fullmatch(incoming) else uuid.uuid4().hex


def _finish(response: Response) -> Response:
    """Runs for every response, error responses included.

    Durations are to the moment the response is handed to the server, so a
    streamed body's own time is not in them.
    """
    seconds = time.perf_counter() - g.get("request_started", time.perf_counter())
    # Each look at `request` goes through a context-local proxy: once each.
    req = request._get_current_object()  # type: ignore[attr-defined]  # a LocalProxy's
    method, path, status = req.method, req.path, response.status_code
    # Label by route template, not path: /v1/games/<id> is one series.
    route = req.url_rule.rule if req.url_rule else UNMATCHED_ROUTE
    request_id = g.get("request_id")
    if request_id is not None:
        response.headers[REQUEST_ID_HEADER] = request_id
    metrics.observe_request(method, route, status, seconds)
    access_log.info(
        "%s %s %s", method, path, status,
        extra={
            "fields": {
                "method": method,
                "path": path,
                "route": route,
                "status": status,
                "duration_ms": round(seconds * 1000, 3),
                "request_id": request_id,
            }
        },
    )
    return response

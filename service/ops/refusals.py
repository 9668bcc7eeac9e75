"""gunicorn's own refusals, as problems like every other answer.

gunicorn answers some requests before the service sees them: a request line
longer than 4094 bytes (414), a header line longer than 8190 bytes or more
than 100 headers (431), something that is not HTTP (400). It writes them as
HTML, with ``gunicorn.util.write_error``; ``install`` makes each worker
write them as ``application/problem+json`` (RFC 9457) instead, with a
``code``, as ``service.web.problems`` writes the service's own, so that a
client reads every error one way. The connection is closed after them, as
gunicorn does.
"""

from __future__ import annotations

import json
from http import HTTPStatus

from gunicorn import util

from service.web.problems import TITLES

#: What a client is told, by status; others say what gunicorn found.
SAID = {
    400: ("malformed", "The request is not HTTP this server can read."),
    414: ("uri_too_long", "The request line is longer than the server reads (4094 bytes): shorten the URL."),
    431: ("headers_too_large", "The request's headers are larger than the server reads (8190 bytes a line, "
                               "100 headers): send fewer or shorter ones."),
}


def install() -> None:
    """From now on, this process's gunicorn writes its refusals as problems."""
    util.write_error = write_problem


def write_problem(sock, status: int, reason: str, message: str) -> None:
    """gunicorn's ``write_error``: the refusal ``status`` as a problem, then the connection closes."""
    code, detail = SAID.get(status) or (HTTPStatus(status).phrase.lower().replace(" ", "_").replace("-", "_"),
                                         message)
    body = json.dumps({"type": f"/problems/{code}", "title": TITLES.get(code, reason), "status": status,
                       "detail": detail, "code": code}).encode()
    head = (f"HTTP/1.1 {status} {reason}\r\nConnection: close\r\nContent-Type: application/problem+json\r\n"
            f"X-Content-Type-Options: nosniff\r\nContent-Length: {len(body)}\r\n\r\n").encode("latin-1")
    util.write_nonblock(sock, head + body)

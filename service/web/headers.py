"""What every answer says about itself, whatever route made it: its
``Content-Type`` is to be taken as sent (``X-Content-Type-Options:
nosniff``), so that no browser reads an answer as a page or a script it
was not sent as. Pages set their own policies besides (``service.web.client``,
``service.web.spec``).
"""

from __future__ import annotations

from flask import Flask, Response


def init_app(app: Flask) -> None:
    app.after_request(_as_sent)


def _as_sent(response: Response) -> Response:
    response.headers["X-Content-Type-Options"] = "nosniff"
    return response

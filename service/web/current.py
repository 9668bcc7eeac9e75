"""The app's ``Services`` (``service.bootstrap``), for the views of the request being served.

``create_app`` puts them on the app (``init_app``); views and guards find
them with ``services()``. Blueprints import this module and the service
layer, never ``service.web.app`` or one another.
"""

from __future__ import annotations

from flask import Flask, current_app

from service.bootstrap import Services
from service.ratings import RatingsOf

_EXTENSION = "casino.services"


def init_app(app: Flask, services: Services) -> None:
    app.extensions[_EXTENSION] = services


def services(app: Flask | None = None) -> Services:
    """The ``Services`` of ``app``, by default of the app serving the request."""
    return (app or current_app).extensions[_EXTENSION]


def ratings() -> RatingsOf:
    """How the views of this request read players' ratings (on the primary):
    a view shows each seat's beside its name (``service.views.game_view``)."""
    return services().adapters.ratings.of

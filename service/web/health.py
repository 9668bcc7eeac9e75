"""Liveness and readiness probes."""

from __future__ import annotations

from flask import Blueprint, current_app

from service.web.current import services
from service.web.problems import ApiProblem

bp = Blueprint("health", __name__)


@bp.get("/healthz")
def healthz():
    """The process answers: nothing else is checked, so a slow database never gets it restarted."""
    return {"status": "ok"}


@bp.get("/readyz")
def readyz():
    """Ready when the adapters answer within ``READY_TIMEOUT`` seconds (with
    PostgreSQL: a pooled connection answers ``SELECT 1``)."""
    if not services().ready(current_app.config["READY_TIMEOUT"]):
        raise ApiProblem(503, "unavailable", "The game database cannot be reached.", headers={"Retry-After": "1"})
    return {"status": "ready"}

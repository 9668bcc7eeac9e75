"""Liveness and readiness probes."""

from __future__ import annotations

import psycopg
from flask import Blueprint, current_app

from service.postgres.database import get_pool
from service.web.problems import ApiProblem

bp = Blueprint("health", __name__)


@bp.get("/healthz")
def healthz():
    """The process answers: nothing else is checked, so a slow database never gets it restarted."""
    return {"status": "ok"}


@bp.get("/readyz")
def readyz():
    """Ready when a pooled connection answers ``SELECT 1`` within ``READY_TIMEOUT`` seconds."""
    try:
        with get_pool().connection(timeout=current_app.config["READY_TIMEOUT"]) as conn:
            conn.execute("SELECT 1")
    except psycopg.Error as error:
        raise ApiProblem(
            503,
            "unavailable",
            "The game database cannot be reached.",
            headers={"Retry-After": "1"},
        ) from error
    return {"status": "ready"}

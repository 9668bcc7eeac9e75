"""Prometheus metrics, served at ``GET /metrics`` (``service.web.observability``).

The service layer counts ``COMMANDS_APPENDED``, the API ``VERSION_CONFLICTS``,
the live streams (``service.streams``) keep the ``STREAMS_*`` and
``NOTIFICATION_LAG``; the request metrics are recorded for every request.
Under ``casino serve`` several gunicorn workers each count their own
requests: ``PROMETHEUS_MULTIPROC_DIR`` makes prometheus-client keep the
counts in files there, and the scrape adds them up across workers.
"""

from __future__ import annotations

import functools
import os

from prometheus_client import (
    CONTENT_TYPE_LATEST,
    REGISTRY,
    CollectorRegistry,
    Counter,
    Gauge,
    Histogram,
    generate_latest,
    multiprocess,
    values,
)

MULTIPROCESS_ENV = "PROMETHEUS_MULTIPROC_DIR"

REQUESTS = Counter(
    "casino_http_requests",
    "HTTP requests answered, by method, route template and status.",
    ["method", "route", "status"],
)
REQUEST_SECONDS = Histogram(
    "casino_http_request_duration_seconds",
    "Time to produce a response, by method and route template.",
    ["method", "route"],
)
COMMANDS_APPENDED = Counter(
    "casino_commands_appended",
    "Commands whose events were appended to the store.",
)
VERSION_CONFLICTS = Counter(
    "casino_version_conflicts",
    "Commands refused because another command was appended first.",
)

STREAMS_OPEN = Gauge(
    "casino_streams_open",
    "Live event streams open now.",
    multiprocess_mode="livesum",
)
STREAMS_REFUSED = Counter(
    "casino_streams_refused",
    "Live event streams refused (503) because the worker held as many as it may.",
)
STREAMS_OVER_CALLER_LIMIT = Counter(
    "casino_streams_refused_over_caller_limit",
    "Live event streams refused (429) because their caller held as many as it may, by the kind of caller"
    " (seat, operator, or address: a caller without a token).",
    ["caller"],
)
STREAMS_DROPPED = Counter(
    "casino_streams_dropped_slow_readers",
    "Live event streams closed because their reader fell behind their buffer.",
)
STREAM_READS = Counter(
    "casino_stream_reads",
    "Reads of a game's events for the live streams of a worker (when a notification did not carry "
    "them or did not follow what the worker had, or while notifications are down).",
)
ROUTED_READS = Counter(
    "casino_routed_reads",
    "Reads that may come from a replica (service.replicas), by the server that answered: replica or primary.",
    ["source"],
)
for _source in ("replica", "primary"):
    ROUTED_READS.labels(_source)
NOTIFICATIONS_REFUSED = Counter(
    "casino_stream_notifications_refused",
    "Notifications dropped because they did not open under the service's key (forged, altered, sealed "
    "under another key, or no notification at all): the streams of the game they named read instead.",
)
NOTIFICATION_LAG = Histogram(
    "casino_stream_notification_lag_seconds",
    "From an append's notification to its events being handed to a worker's streams.",
    buckets=(0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0),
)

def check_multiprocess() -> None:
    """Refuse to count in this process alone when workers should count together."""
    if os.environ.get(MULTIPROCESS_ENV) and values.ValueClass is values.MutexValue:
        raise RuntimeError(f"{MULTIPROCESS_ENV} was set after prometheus_client was imported")


# Methods a client may send are any token: the rest are counted as one, so
# that no client can make series without end.
METHODS = frozenset({"GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"})


def observe_request(method: str, route: str, status: int, seconds: float) -> None:
    count, duration = _series(method if method in METHODS else "OTHER", route, status)
    count.inc()
    duration.observe(seconds)


@functools.lru_cache(maxsize=1024)
def _series(method: str, route: str, status: int):
    """A request's counter and histogram: looked up once per kind of request
    (routes are templates, so there are few), not on every request."""
    return REQUESTS.labels(method, route, str(status)), REQUEST_SECONDS.labels(method, route)


def exposition() -> tuple[bytes, str]:
    """Every metric in Prometheus's text format, added up across workers; and its content type."""
    if os.environ.get(MULTIPROCESS_ENV):
        registry = CollectorRegistry()
        multiprocess.MultiProcessCollector(registry)
    else:
        registry = REGISTRY
    return generate_latest(registry), CONTENT_TYPE_LATEST

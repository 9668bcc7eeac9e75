"""``/v1/games/{id}/events/stream``: the event log as Server-Sent Events, and
``/stream-tickets``, which lets a browser open it without a header.

The stream's events are the event log's, redacted for the caller in the
same way. A worker keeps at most ``STREAM_MAX_OPEN`` streams open
(thousands under gevent, see ``service.ops.serve``) and answers 503 beyond
that; they all wait on the worker's one ``Hub`` (``service.streams``). Each
caller has a share of them (``service.stream_limits``), and is answered 429
beyond it, before the game is even read.
"""

from __future__ import annotations

import time
import uuid
from datetime import UTC, datetime

from flask import Blueprint, Response, current_app, request, url_for

from domain.game_types import is_finished

from service import streams
from service.auth import Caller
from service.metrics import STREAMS_OVER_CALLER_LIMIT, STREAMS_REFUSED
from service.stream_limits import Holder, Quota, holder_of
from service.web import clients
from service.web.current import services
from service.web.guards import any_caller, current_caller
from service.web.problems import ApiProblem
from service.web.requests import float_arg, resume_after

bp = Blueprint("stream", __name__, url_prefix="/v1/games/<uuid:game_id>")

#: The longest a client may ask a stream to last (``?timeout=``), in seconds.
LONGEST_TIMEOUT = 86400.0
#: Seconds a caller over its share of streams is asked to wait: one of its streams may have ended by then.
RETRY_AFTER_SECONDS = 10
_QUOTA = "casino.stream_quota"


@bp.record_once
def _count_streams(state) -> None:
    """Each app counts its callers' streams, and checks its trusted proxies as it starts."""
    app = state.app
    clients.trusted_networks(app.config["TRUSTED_PROXIES"] or "")  # ValueError for a bad setting
    app.extensions[_QUOTA] = Quota(app.config)


@bp.post("/stream-tickets")
@any_caller
def new_ticket(game_id: uuid.UUID, caller: Caller):
    """A short-lived ticket for the caller (seat, operator, or public) to open this game's stream."""
    services().games.load(game_id)  # 404 for no such game
    ticket, expires = services().authenticator.ticket(game_id, caller, time.time())
    return {"ticket": ticket,
            "expires_at": datetime.fromtimestamp(expires, UTC).isoformat(),
            "stream": url_for("stream.stream", game_id=game_id, ticket=ticket)}


@bp.get("/events/stream")
def stream(game_id: uuid.UUID):
    caller = _stream_caller(game_id)
    after = resume_after()
    config = current_app.config
    asked = float_arg("timeout", 0.0, LONGEST_TIMEOUT)
    seconds = min(asked, config["STREAM_MAX_SECONDS"]) if asked is not None else config["STREAM_MAX_SECONDS"]
    quota: Quota = current_app.extensions[_QUOTA]
    holder = holder_of(caller, game_id, clients.request_address())
    if not quota.take(holder):
        STREAMS_OVER_CALLER_LIMIT.labels(holder.kind).inc()
        raise ApiProblem(429, "too_many_streams", _over_limit(holder, quota.limit(holder)),
                         headers={"Retry-After": str(RETRY_AFTER_SECONDS)})
    try:
        return _open(game_id, caller, after, seconds, on_close=lambda: quota.give_back(holder))
    except BaseException:
        quota.give_back(holder)
        raise


def _open(game_id: uuid.UUID, caller: Caller, after: int, seconds: float, on_close) -> Response:
    """The stream's response, once the caller's share allows it; ``on_close`` when it ends."""
    config = current_app.config
    found = services()
    state = found.games.load(game_id)
    if is_finished(state) and after >= state.version:
        # Nothing more will come: 204 tells EventSource to stop reconnecting.
        on_close()
        return Response(status=204)
    hub = found.hub
    if not hub.admit(config["STREAM_MAX_OPEN"]):
        STREAMS_REFUSED.inc()
        raise ApiProblem(503, "unavailable", "Too many live streams are open right now. Try again shortly.",
                         headers={"Retry-After": "5"})

    def ended() -> None:
        hub.release()
        on_close()

    timing = streams.Timing(seconds, config["STREAM_KEEPALIVE_SECONDS"], config["STREAM_POLL_SECONDS"])
    chunks = streams.events(found.games.load, found.games.events, hub, game_id, caller, after, state, timing)
    return Response(streams.Body(chunks, on_close=ended), mimetype="text/event-stream",
                    headers={"Cache-Control": "no-store", "X-Accel-Buffering": "no"})


def _over_limit(holder: Holder, limit: int) -> str:
    """What a caller over its share is told."""
    who = {"seat": "This seat has", "operator": "The operator has",
           "address": "Callers without a token at your address have"}[holder.kind]
    return (f"{who} {limit} live streams open already, as many as may be open at once. Close one, or try"
            f" again in {RETRY_AFTER_SECONDS} seconds.")


def _stream_caller(game_id: uuid.UUID) -> Caller:
    """The ticket's caller when there is one; else the ``Authorization`` header's."""
    ticket = request.args.get("ticket")
    if ticket is None:
        return current_caller(game_id)
    return services().authenticator.redeem(game_id, ticket, time.time())

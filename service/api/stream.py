"""``/v1/games/{id}/events/stream``: the event log as Server-Sent Events,
and ``/stream-tickets``, which lets a browser open it without a header.

The stream's events are the event log's, redacted for the caller in the
same way (``service.games.event_json``). Each open stream holds a server
thread for its whole life, so a worker keeps at most ``STREAM_MAX_OPEN`` of
them and answers 503 beyond that, leaving threads for everything else.
"""

from __future__ import annotations

import math
import re
import secrets
import threading
import time
from datetime import UTC, datetime

from flask import Blueprint, Flask, Response, current_app, request, url_for

from domain.state import FINISHED
from service import streaming, tickets
from service.api.helpers import caller_for, games, int_arg
from service.database import get_pool
from service.problems import ApiProblem

bp = Blueprint("stream", __name__, url_prefix="/v1/games/<uuid:game_id>")

_SLOTS = "casino.stream_slots"
_TICKET_KEY = "casino.ticket_key"
_VERSION = re.compile(r"\s*([0-9]{1,10})\s*")


def init_app(app: Flask) -> None:
    app.extensions[_SLOTS] = threading.BoundedSemaphore(app.config["STREAM_MAX_OPEN"])
    token = app.config.get("OPERATOR_TOKEN")
    # Without an operator token (never so under `casino serve`), a random
    # key: tickets then hold within this process only.
    app.extensions[_TICKET_KEY] = tickets.key_from(token) if token else secrets.token_bytes(32)


@bp.post("/stream-tickets")
def new_ticket(game_id):
    """A short-lived ticket for the caller (seat, operator, or public) to open this game's stream."""
    caller = caller_for(game_id)
    games().load(game_id)  # 404 for no such game
    ticket, expires = tickets.issue(current_app.extensions[_TICKET_KEY], game_id, caller, time.time(),
                                    _token_hash(game_id, caller))
    return {"ticket": ticket,
            "expires_at": datetime.fromtimestamp(expires, UTC).isoformat(),
            "stream": url_for("stream.stream", game_id=game_id, ticket=ticket)}


@bp.get("/events/stream")
def stream(game_id):
    caller = _stream_caller(game_id)
    after = _resume_after()
    seconds = _seconds()
    state = games().load(game_id)
    if state.status == FINISHED and after >= state.version:
        # Nothing more will come: 204 tells EventSource to stop reconnecting.
        return Response(status=204)
    slots = current_app.extensions[_SLOTS]
    if not slots.acquire(blocking=False):
        raise ApiProblem(503, "unavailable", "Too many live streams are open right now. Try again shortly.",
                         headers={"Retry-After": "5"})
    config = current_app.config
    timing = streaming.Timing(seconds, config["STREAM_KEEPALIVE_SECONDS"], config["STREAM_POLL_SECONDS"])
    url = config["DATABASE_URL"]
    chunks = streaming.events(games(), game_id, caller, after, timing,
                              listen=lambda: streaming.Listener(url, game_id))
    return Response(streaming.Body(chunks, on_close=slots.release), mimetype="text/event-stream",
                    headers={"Cache-Control": "no-store", "X-Accel-Buffering": "no"})


def _stream_caller(game_id):
    """The ticket's caller when there is one; else the ``Authorization`` header's."""
    ticket = request.args.get("ticket")
    if ticket is None:
        return caller_for(game_id)
    caller = tickets.redeem(current_app.extensions[_TICKET_KEY], game_id, ticket, time.time(),
                            lambda named: _token_hash(game_id, named))
    if caller is None or not tickets.use_once(get_pool(), ticket):
        raise ApiProblem(401, "unauthenticated",
                         "This stream ticket is not valid for this game, was used or has expired; "
                         "ask for a new one.",
                         headers={"WWW-Authenticate": 'Bearer realm="casino", error="invalid_token"'})
    return caller


def _token_hash(game_id, caller) -> str | None:
    """The hash of the token the caller's seat has now ("" for the operator
    and the public, whose tickets the signing key alone vouches for)."""
    return games().store.seat_token_hashes(game_id).get(caller.seat) if caller.is_seat else ""


def _resume_after() -> int:
    """``Last-Event-ID`` (what EventSource sends when it reconnects), else ``?after=``."""
    header = request.headers.get("Last-Event-ID")
    if header is None:
        return int_arg("after", 0, 0, 10**9)
    match = _VERSION.fullmatch(header)
    if not match:
        raise ApiProblem(400, "malformed", "Last-Event-ID names an event's version, like 12.",
                         errors=[{"field": "Last-Event-ID", "message": "Not a version."}])
    return int(match.group(1))


def _seconds() -> float:
    """How long this stream may last: ``?timeout=``, at most ``STREAM_MAX_SECONDS``."""
    longest = current_app.config["STREAM_MAX_SECONDS"]
    raw = request.args.get("timeout")
    if raw is None:
        return longest
    try:
        asked = float(raw)
    except ValueError:
        asked = math.nan
    if not 0 < asked <= 86400:  # also refuses nan
        raise ApiProblem(400, "malformed", "'timeout' is a number of seconds above 0, at most 86400.",
                         errors=[{"field": "timeout", "message": "Expected seconds, above 0 and at most 86400."}])
    return min(asked, longest)

"""``/v1/games/{id}/events/stream``: the event log as Server-Sent Events, and
``/stream-tickets``, which lets a browser open it without a header.

The stream's events are the event log's, redacted for the caller in the
same way. Its limits (the worker's, and each caller's share, checked
before the game is even read) are every stream's (``service.web.sse``).
"""

from __future__ import annotations

import time
import uuid
from datetime import UTC, datetime

from flask import Blueprint, Response, request, url_for

from domain.game_types import State, is_finished

from service import streams
from service.auth import Caller
from service.events import StoredEvent
from service.feeds import Read
from service.replicas import Seen
from service.stream_limits import holder_of
from service.web import clients, sse
from service.web.current import services
from service.web.guards import any_caller, current_caller
from service.web.requests import resume_after

bp = Blueprint("stream", __name__, url_prefix="/v1/games/<uuid:game_id>")


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
    timed = sse.timing()
    holder = holder_of(caller, game_id, clients.request_address())
    return sse.within_share(holder, lambda on_close: _open(game_id, caller, after, timed, on_close))


def _open(game_id: uuid.UUID, caller: Caller, after: int, timed: streams.Timing, on_close) -> Response:
    """The stream's response, once the caller's share allows it; ``on_close`` when it ends."""
    found = services()
    state = found.games.load(game_id)
    if is_finished(state) and after >= state.version:
        # Nothing more will come: 204 tells EventSource to stop reconnecting.
        on_close()
        return Response(status=204)
    return sse.event_stream(
        lambda timing: streams.events(found.games.load, _history(state), found.hub, game_id, caller, after, state,
                                      timing), timed, on_close)


def _history(state: State) -> Read:
    """How the stream reads the events it starts with: from a replica that
    has the game at ``state``'s version (the primary's, as the request found
    it), else from the primary. The events appended after come from the
    primary's notifications, and the hub reads the primary when it must."""
    reads = services().reads  # the stream is read after the request's context has gone

    def read(game_id: uuid.UUID, after: int) -> list[StoredEvent]:
        found = reads.routed(lambda source: source.games.events(game_id, after), Seen(state.version),
                             version=lambda page: page[-1].version if page else after)
        return found.value

    return read


def _stream_caller(game_id: uuid.UUID) -> Caller:
    """The ticket's caller when there is one; else the ``Authorization`` header's."""
    ticket = request.args.get("ticket")
    if ticket is None:
        return current_caller(game_id)
    return services().authenticator.redeem(game_id, ticket, time.time())

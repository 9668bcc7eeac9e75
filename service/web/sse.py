"""What every live stream's answer shares (a game's, a player's): how long
it lasts, the caller's share of the worker's streams, the worker's own
limit, and the ``text/event-stream`` answer that gives both back when it ends.

A worker keeps at most ``STREAM_MAX_OPEN`` streams open (thousands under
gevent, see ``service.ops.serve``) and answers 503 beyond that; they all
wait on the worker's one ``Hub`` (``service.streams``), which admits them. Each caller has a
share of them (``service.stream_limits``), and is answered 429 beyond it,
before anything is read.
"""

from __future__ import annotations

from collections.abc import Callable, Generator

from flask import Flask, Response, current_app

from service import streams
from service.metrics import STREAMS_OVER_CALLER_LIMIT, STREAMS_REFUSED
from service.stream_limits import Holder, Quota
from service.web import clients
from service.web.current import services
from service.web.problems import ApiProblem
from service.web.requests import float_arg

#: The longest a client may ask a stream to last (``?timeout=``), in seconds.
LONGEST_TIMEOUT = 86400.0
#: Seconds a caller over its share of streams is asked to wait: one of its streams may have ended by then.
RETRY_AFTER_SECONDS = 10
_QUOTA = "casino.stream_quota"

#: Opens a stream once it is admitted: its text, given how long it may last and when to end.
Opening = Callable[[streams.Timing], Generator[str, None, None]]


def init_app(app: Flask) -> None:
    """Each app counts its callers' streams, and checks its trusted proxies as it starts."""
    clients.trusted_networks(app.config["TRUSTED_PROXIES"] or "")  # ValueError for a bad setting
    app.extensions[_QUOTA] = Quota(app.config)


def timing() -> streams.Timing:
    """How long this request's stream lasts (``?timeout=``, at most the
    server's ``STREAM_MAX_SECONDS``), how often it keeps alive and polls."""
    config = current_app.config
    asked = float_arg("timeout", 0.0, LONGEST_TIMEOUT)
    seconds = min(asked, config["STREAM_MAX_SECONDS"]) if asked is not None else config["STREAM_MAX_SECONDS"]
    return streams.Timing(seconds, config["STREAM_KEEPALIVE_SECONDS"], config["STREAM_POLL_SECONDS"])


def within_share(holder: Holder, answer: Callable[[Callable[[], None]], Response]) -> Response:
    """``answer(give_back)`` if the holder's share of streams allows one more
    (else 429), ``give_back`` to be called once the stream it opens has ended."""
    quota: Quota = current_app.extensions[_QUOTA]
    ticket = quota.take(holder, clients.connection())
    if ticket is None:
        STREAMS_OVER_CALLER_LIMIT.labels(holder.kind).inc()
        raise ApiProblem(429, "too_many_streams", _over_limit(holder, quota.limit(holder)),
                         headers={"Retry-After": str(RETRY_AFTER_SECONDS)})
    try:
        return answer(lambda: quota.give_back(holder, ticket))
    except BaseException:
        quota.give_back(holder, ticket)
        raise


def event_stream(opening: Opening, timed: streams.Timing, on_close: Callable[[], None]) -> Response:
    """The stream's answer, if the worker may hold one more (else 503);
    ``on_close`` once it has ended."""
    admission = services().hub.admission
    if not admission.admit(current_app.config["STREAM_MAX_OPEN"]):
        STREAMS_REFUSED.inc()
        raise ApiProblem(503, "unavailable", "Too many live streams are open right now. Try again shortly.",
                         headers={"Retry-After": "5"})

    def ended() -> None:
        admission.release()
        on_close()

    return Response(streams.Body(opening(timed), on_close=ended), mimetype="text/event-stream",
                    headers={"Cache-Control": "no-store", "X-Accel-Buffering": "no"})


def _over_limit(holder: Holder, limit: int) -> str:
    """What a caller over its share is told."""
    who = {"seat": "This seat has", "operator": "The operator has", "player": "This player has",
           "address": "Callers without a token at your address have"}[holder.kind]
    return (f"{who} {limit} live streams open already, as many as may be open at once. Close one, or try"
            f" again in {RETRY_AFTER_SECONDS} seconds.")

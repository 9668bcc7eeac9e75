"""Reading a request, in one place: its JSON body, its query arguments, and
the headers that carry versions and keys. Whatever is malformed is a 400
``malformed`` problem naming the field, before anything is done.

Bodies are read strictly: no key twice in one object (a reader that keeps
the first and one that keeps the last would see two different requests),
no NUL character in any string (PostgreSQL cannot store it), no ``NaN`` or
integers past 64 bits, and no more than ``MAX_CONTENT_LENGTH`` bytes however
they are sent. The rest of a body over the limit is read and dropped, up to
``DRAIN_BYTES`` and ``DRAIN_SECONDS``, before the 413 is sent: a client that
sends its whole body before it reads (or asks for ``Connection: close``)
then gets the answer rather than a reset.
"""

from __future__ import annotations

import functools
import json
import re
import time
import uuid
from collections.abc import Callable
from datetime import datetime
from typing import Any

import orjson
from flask import Flask, Response, request
from flask.json.provider import JSONProvider
from marshmallow import Schema, ValidationError
from werkzeug.exceptions import RequestEntityTooLarge

from service import jsonio
from service.move_cursors import MoveCursor
from service.readmodel import Cursor
from service.replicas import Seen
from service.web.problems import ApiProblem
from service.views import MovesAsked
from service.web.schemas import errors_list

_IF_MATCH = re.compile(r'\s*(?:W/)?"?(\d{1,10})"?\s*')
_IDEMPOTENCY_KEY = re.compile(r"[\x21-\x7e]{1,200}")
# At least 22 characters of URL-safe base64 hold 128 bits; so does a UUID's hex.
_CREATION_KEY = re.compile(r"[A-Za-z0-9_-]{22,200}")
_HEX = re.compile(r"[0-9a-f]{32,200}|[0-9A-F]{32,200}")
_UUID = re.compile(r"[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}")
_WHOLE_NUMBER = re.compile(r"[0-9]{1,18}")
_VERSION = re.compile(r"\s*([0-9]{1,10})\s*")

#: Query parameters that may be given more than once, by endpoint (each value counts).
REPEATABLE: dict[str, frozenset[str]] = {"listing.index": frozenset({"status", "variant", "player"}),
                                         "games.moves": frozenset({"target"}),
                                         "players.my_games": frozenset({"status"}),
                                         "lobby.index": frozenset({"variant", "game_type"})}


def init_app(app: Flask) -> None:
    app.before_request(_one_value_each)


def malformed(field: str | None, message: str, detail: str | None = None) -> ApiProblem:
    """The 400 problem for one bad field (``None``: the body as a whole)."""
    where = f"'{field}': " if field else ""
    return ApiProblem(400, "malformed", detail or f"The request is not valid: {where}{message}",
                      errors=[{"field": field, "message": message}])


def _one_value_each() -> None:
    """Refuse a query parameter given twice, unless the endpoint reads every
    value: reading one of them quietly would act on half of what was asked.
    A request that matched no route (404) or no method of its route (405)
    gets that answer first, as it would without a query."""
    if request.routing_exception is not None:
        return
    repeatable = REPEATABLE.get(request.endpoint or "", frozenset())
    for name, values in request.args.lists():
        if len(values) > 1 and name not in repeatable:
            raise malformed(name, "Given more than once.", f"Give '{name}' once.")


# -- the body -------------------------------------------------------------------


def json_body(*, optional: bool = False) -> dict[str, Any]:
    """The body, a JSON object; ``{}`` for no body when ``optional``."""
    raw = _whole_body()
    if not raw.strip():
        if optional:
            return {}
        raise malformed(None, "The body is empty.", "This request needs a JSON body.")
    if not request.is_json:
        raise malformed(None, "The body is not JSON.", "Send the body as JSON (Content-Type: application/json).")
    try:
        data = _strict_loads(raw)
    except ValueError:
        raise malformed(None, "The body could not be parsed as JSON.", "The body is not valid JSON.") from None
    if not isinstance(data, dict):
        raise malformed(None, "Expected a JSON object.", "The body must be a JSON object.")
    return data


def body(kind: type[Schema], *, optional: bool = False) -> dict[str, Any]:
    """The JSON body loaded through the schema ``kind``; a 400 problem listing each bad field."""
    data = json_body(optional=optional)
    try:
        return _schema(kind).load(data)
    except ValidationError as error:
        listed = errors_list(error)
        first = listed[0]
        where = f"'{first['field']}': " if first["field"] else ""
        raise ApiProblem(400, "malformed", f"The request is not valid: {where}{first['message']}",
                         errors=listed) from None


@functools.cache
def _schema(kind: type[Schema]) -> Schema:
    # One instance per schema class, reused: making one costs more than loading a body.
    return kind()


#: How much more of a body over the limit is read (and dropped) before the
#: 413, at most, and for how long.
DRAIN_BYTES = 4 * 1024 * 1024
DRAIN_SECONDS = 5.0


def _whole_body() -> bytes:
    """The request's body; 413 when it is over the limit, whether its size was
    announced or not. A chunked body (no Content-Length) is cut at the limit
    when read, so a byte left after it means it was too long."""
    try:
        raw = request.get_data(cache=True)
    except RequestEntityTooLarge:
        _drain(request.environ)
        raise
    limit = request.max_content_length
    if request.content_length is None and limit is not None and len(raw) >= limit:
        if request.environ["wsgi.input"].read(1):
            _drain(request.environ)
            raise RequestEntityTooLarge()
    return raw


def _drain(environ: dict[str, Any]) -> bool:
    """Read and drop what is left of the request's body, up to ``DRAIN_BYTES``
    and ``DRAIN_SECONDS`` (the time bounds each read under gunicorn, whose
    socket is in the environ); True when it ended within them. Whatever is
    left then, the server drops after the answer for its keep-alive time."""
    body, sock = environ["wsgi.input"], environ.get("gunicorn.socket")
    deadline = time.monotonic() + DRAIN_SECONDS
    previous = sock.gettimeout() if sock is not None else None
    dropped = 0
    try:
        while dropped < DRAIN_BYTES:
            if sock is not None:
                left = deadline - time.monotonic()
                if left <= 0:
                    return False
                sock.settimeout(left)
            chunk = body.read(65536)
            if not chunk:
                return True
            dropped += len(chunk)
        return False
    except Exception:  # noqa: BLE001 - a timeout, a cut connection, a malformed chunk (gunicorn's own errors)
        return False
    finally:
        if sock is not None:
            sock.settimeout(previous)


#: The deepest nesting of arrays and objects a body may have (no request needs more than four).
MAX_DEPTH = 32


def _strict_loads(raw: bytes) -> Any:
    """orjson's reading (no ``NaN``, no integers past 64 bits), then no
    nesting deeper than ``MAX_DEPTH``, no key twice and no NUL: the last
    three are problems naming where. A number with no fraction is an integer,
    as JSON Schema counts it (``9.0`` is ``9``): no body has a field that
    takes a fraction."""
    data = orjson.loads(raw)
    if _depth(data) > MAX_DEPTH:
        raise malformed(None, f"Arrays and objects nest at most {MAX_DEPTH} deep.")
    json.loads(raw, object_pairs_hook=_unique_keys)
    return _settled(data, [])


def _depth(value: Any) -> int:
    """How deep arrays and objects nest in ``value``, found without recursion
    (the checks after this one recurse, within the limit it sets)."""
    deepest, pending = 0, [(value, 1)]
    while pending:
        item, depth = pending.pop()
        children = item.values() if isinstance(item, dict) else item if isinstance(item, list) else None
        if children is not None:
            deepest = max(deepest, depth)
            if deepest > MAX_DEPTH:
                break
            pending.extend((child, depth + 1) for child in children)
    return deepest


def _unique_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    seen: set[str] = set()
    for key, _ in pairs:
        if key in seen:
            raise malformed(key, f"The key '{key}' appears more than once in one object.")
        seen.add(key)
    return {}  # the values are orjson's: this pass only looks at keys


def _settled(value: Any, path: list[str]) -> Any:
    """``value`` with its whole floats made integers (within 64 bits, as
    integers are read: past them it stays a number no field takes); a
    problem for a NUL in any text, keys included."""
    if isinstance(value, str):
        if "\x00" in value:
            raise malformed(".".join(path) or None, "Text cannot contain the NUL character (U+0000).")
    elif isinstance(value, float):
        if value.is_integer() and -(2**63) <= value < 2**64:  # the integers orjson reads
            return int(value)
    elif isinstance(value, dict):
        for key, item in value.items():
            _settled(key, path + [key])
            value[key] = _settled(item, path + [key])
    elif isinstance(value, list):
        for index, item in enumerate(value):
            value[index] = _settled(item, path + [str(index)])
    return value


class OrjsonProvider(JSONProvider):
    """Flask's JSON (views returning dicts, ``get_json``) by orjson."""

    def dumps(self, obj: Any, **kwargs: Any) -> str:
        return jsonio.dumps(obj).decode()

    def loads(self, s: str | bytes, **kwargs: Any) -> Any:
        return orjson.loads(s)

    def response(self, *args: Any, **kwargs: Any) -> Response:
        obj = self._prepare_response_obj(args, kwargs)
        return Response(jsonio.dumps(obj), mimetype="application/json")


# -- query arguments ------------------------------------------------------------


def int_arg(name: str, default: int | None, low: int, high: int) -> int:
    """Query argument ``name``, a whole number from ``low`` to ``high``; a
    ``default`` of None makes it required."""
    raw = request.args.get(name)
    if raw is None:
        if default is None:
            raise malformed(name, "Missing.", f"Give '{name}', a whole number from {low} to {high}.")
        return default
    if not _WHOLE_NUMBER.fullmatch(raw) or not low <= int(raw) <= high:
        raise malformed(name, f"Expected a whole number from {low} to {high}.",
                        f"'{name}' is a whole number from {low} to {high}.")
    return int(raw)


def float_arg(name: str, low: float, high: float) -> float | None:
    """Query argument ``name``, a number above ``low`` and at most ``high``; None when absent."""
    raw = request.args.get(name)
    if raw is None:
        return None
    try:
        value = float(raw)
    except ValueError:
        value = float("nan")
    if not low < value <= high:  # also refuses nan
        raise malformed(name, f"Expected a number above {low:g} and at most {high:g}.",
                        f"'{name}' is a number above {low:g}, at most {high:g}.")
    return value


def text_args(name: str, longest: int, allowed: tuple[str, ...] | None = None) -> tuple[str, ...]:
    """Every value of query argument ``name``: 1 to ``longest`` characters but
    NUL (which PostgreSQL's text cannot hold), and one of ``allowed``."""
    values = tuple(request.args.getlist(name))
    for value in values:
        if allowed is not None and value not in allowed:
            raise malformed(name, f"Expected one of {', '.join(allowed)}.", f"'{name}': Expected one of "
                                                                              f"{', '.join(allowed)}.")
        if not 1 <= len(value) <= longest or "\x00" in value:
            raise malformed(name, f"Expected 1 to {longest} characters, none of them NUL.",
                            f"'{name}': Expected 1 to {longest} characters, none of them NUL.")
    return values


def time_arg(name: str) -> datetime | None:
    """Query argument ``name``, a moment with its offset; None when absent."""
    raw = request.args.get(name)
    if raw is None:
        return None
    try:
        when: datetime | None = datetime.fromisoformat(raw)
    except ValueError:
        when = None
    if when is None or when.tzinfo is None:
        message = "Expected a date and time with its offset, like 2025-11-22T18:00:00Z (in a URL, write + as %2B)."
        raise malformed(name, message, f"'{name}': {message}")
    return when


#: The most items a page of a listing (games, a player's games, the lobby) holds.
MAX_PAGE = 200


def page_args() -> tuple[Cursor | None, int]:
    """A listing's ``cursor`` (where the page before ended; None for the
    first page) and ``limit`` (50 unless given)."""
    cursor = parsed_arg("cursor", Cursor.parse, "Not a cursor this service gave out: pass a page's 'next' as it is.")
    return cursor, int_arg("limit", 50, 1, MAX_PAGE)


MAX_MOVES = 1000  # moves in one page of /moves


def moves_asked(version: int, cursor: Callable[[str], MoveCursor | None]) -> MovesAsked:
    """What ``/moves`` is asked of the game at ``version``: the narrowing
    (``card``, ``action``, ``target``), ``limit`` and ``cursor``, read by
    ``cursor`` (None for one the service did not give out to this seat of
    this game). A cursor names the version it was listed at: one of
    another version is refused, since the game's moves have changed since.
    It names its narrowing too: one used with another narrowing is
    refused, as its place in one list says nothing of another."""
    after = parsed_arg("cursor", functools.partial(_given, cursor),
                       "Not a cursor this service gave out for your seat in this game: pass a page's 'next' as it"
                       " is, with the same token.")
    if after is not None and after.version != version:
        raise ApiProblem(409, "version_conflict", "The game has moved on since that page was listed: list the "
                         "moves again from the first page.")
    asked = MovesAsked(request.args.get("card"), request.args.get("action"), tuple(request.args.getlist("target")),
                       int_arg("limit", 200, 1, MAX_MOVES), after.after if after is not None else None)
    if after is not None and after.narrowing != asked.narrowing_tag:
        message = ("This cursor was listed with another narrowing: pass it with the same card, action and targets "
                   "as the page it came from, or list these moves from their first page.")
        raise malformed("cursor", message, f"'cursor': {message}")
    return asked


def _given(cursor: Callable[[str], MoveCursor | None], text: str) -> MoveCursor:
    found = cursor(text)
    if found is None:
        raise ValueError(text)
    return found


def parsed_arg(name: str, parse: Callable[[str], Any], message: str) -> Any:
    """Query argument ``name`` read by ``parse`` (which raises ValueError); None when absent."""
    raw = request.args.get(name)
    if raw is None:
        return None
    try:
        return parse(raw)
    except ValueError:
        raise malformed(name, message, f"'{name}': {message}") from None


# -- headers --------------------------------------------------------------------


def if_match() -> int | None:
    """The version named by ``If-Match``, or None; ``*`` matches any."""
    header = request.headers.get("If-Match")
    if header is None or header.strip() == "*":
        return None
    match = _IF_MATCH.fullmatch(header)
    if not match:
        raise malformed("If-Match", "Not a version ETag.", 'If-Match names a game version as an ETag, like "12".')
    return int(match.group(1))


def idempotency_key() -> str | None:
    key = request.headers.get("Idempotency-Key")
    if key is None:
        return None
    if not _IDEMPOTENCY_KEY.fullmatch(key):
        raise malformed("Idempotency-Key", "Not a valid key.", "An Idempotency-Key is 1 to 200 visible ASCII "
                                                               "characters.")
    return key


def creation_key() -> str | None:
    """The ``Idempotency-Key`` of a game's creation, or None. A retry under
    it is answered with the seats' tokens, so the key is its sender's secret
    and must not be guessable: a random value (``looks_random``). Only its
    holder can then reach the game it made, so nothing the service answers
    under it tells anyone else that it exists."""
    key = idempotency_key()
    if key is None:
        return None
    if not _CREATION_KEY.fullmatch(key):
        raise malformed("Idempotency-Key", "Not 22 to 200 letters, digits, '-' or '_'.", _NOT_RANDOM)
    if not looks_random(key):
        # Of the form the spec gives, but with the marks of a made-up key.
        raise ApiProblem(422, "idempotency_key_not_random", _NOT_RANDOM,
                         errors=[{"field": "Idempotency-Key", "message": "Not a secret random value."}])
    return key


_NOT_RANDOM = ("A game's Idempotency-Key must be a secret random value: a random (version 4) UUID, or 16 or more"
               " random bytes in hex or URL-safe base64 (22 to 200 letters, digits, '-' or '_').")


def guest_key() -> str | None:
    """The ``Idempotency-Key`` of a guest's join, or None. A retry under it
    is answered with the seat's token, so, as a creation's, the key must be
    a secret random value; any key the header's form allows that is not one
    is refused (422 ``idempotency_key_not_random``)."""
    key = idempotency_key()
    if key is not None and not looks_random(key):
        raise ApiProblem(422, "idempotency_key_not_random",
                         "A guest's Idempotency-Key must be a secret random value (its seat's token is made from"
                         " it): a random (version 4) UUID, or 16 or more random bytes in hex or URL-safe base64"
                         " (22 to 200 letters, digits, '-' or '_').",
                         errors=[{"field": "Idempotency-Key", "message": "Not a secret random value."}])
    return key


def looks_random(key: str) -> bool:
    """Whether ``key`` has the form of a random value and none of the marks
    of a made-up one: a random (version 4) UUID, 32 or more hex digits, or
    22 or more URL-safe base64 characters (each at least 122 random bits);
    enough different characters (a random key has fewer than 8 of the 16
    hex digits, or 11 of the 64 base64 characters, about once in 10**7);
    and no character repeated, nor an alphabet run, over 6 hex digits or 5
    base64 characters (about one random key in a million has one: it is
    refused, and its sender draws another). Length alone is not entropy:
    ``create-game-0000000042`` is long enough, and anyone could guess it."""
    if _UUID.fullmatch(key):
        found = uuid.UUID(key)
        if found.version != 4 or found.variant != uuid.RFC_4122:
            return False
        text, fewest, longest = found.hex, 8, 6
    elif _HEX.fullmatch(key):
        text, fewest, longest = key.lower(), 8, 6
    elif _CREATION_KEY.fullmatch(key):
        text, fewest, longest = key, 11, 5
    else:
        return False
    return len(set(text)) >= fewest and _longest_pattern(text) <= longest


def _longest_pattern(text: str) -> int:
    """The most characters in a row that repeat one character or run up or down the alphabet."""
    longest = run = min(len(text), 2)
    for i in range(2, len(text)):
        step = ord(text[i]) - ord(text[i - 1])
        run = run + 1 if step in (0, 1, -1) and step == ord(text[i - 1]) - ord(text[i - 2]) else 2
        longest = max(longest, run)
    return longest


def resume_after() -> int:
    """Where a stream resumes: ``Last-Event-ID`` (what EventSource sends when
    it reconnects), else ``?after=``."""
    after = int_arg("after", 0, 0, 10**9)  # checked even when the header wins
    header = request.headers.get("Last-Event-ID")
    if header is None:
        return after
    match = _VERSION.fullmatch(header)
    if not match:
        raise malformed("Last-Event-ID", "Not a version.", "Last-Event-ID names an event's version, like 12.")
    return int(match.group(1))


#: The header of a position in the global order: answers give it, reads send it back (``service.replicas``).
CONSISTENCY_TOKEN = "Consistency-Token"
_TOKEN = re.compile(r"\s*([0-9]{1,18})\s*")


def seen() -> Seen:
    """What the client says it has been shown: the greatest game version
    among the ETags of ``If-None-Match`` and ``?min_version``, and the
    position of its ``Consistency-Token``."""
    version = int_arg("min_version", 0, 0, 10**9)
    tags = request.if_none_match.as_set(include_weak=True)
    version = max([version, *(int(tag) for tag in tags if tag and _VERSION.fullmatch(tag))])  # "" is read as None
    header = request.headers.get(CONSISTENCY_TOKEN)
    if header is None:
        return Seen(version)
    match = _TOKEN.fullmatch(header)
    if not match:
        raise malformed(CONSISTENCY_TOKEN, "Not a consistency token.",
                        f"Send {CONSISTENCY_TOKEN} back as an answer gave it, like 4295032833.")
    return Seen(version, int(match.group(1)))


def not_modified(version: int) -> bool:
    """Whether ``If-None-Match`` names ``version`` (or is ``*``): the client's copy is still the answer."""
    return request.if_none_match.contains_weak(str(version)) or request.if_none_match.star_tag


def shown(version: int, position: int = 0) -> dict[str, str]:
    """The headers of an answer showing a game at ``version``, read up to
    ``position`` in the global order (0: none to tell)."""
    return {**etag(version), **token(position)}


def token(position: int) -> dict[str, str]:
    return {CONSISTENCY_TOKEN: str(position)} if position else {}


def etag(version: int) -> dict[str, str]:
    return {"ETag": f'"{version}"'}

"""What every endpoint does at the edge: who is calling, what they sent, and
the headers that carry versions."""

from __future__ import annotations

import functools
import hmac
import re
import secrets
import uuid
from typing import Any

from flask import current_app, request
from marshmallow import Schema, ValidationError

from service.caller import OPERATOR, PUBLIC, Caller, seat
from service.games import GameService
from service.problems import ApiProblem
from service.readmodel import ReadModel
from service.schemas import errors_list
from service.tokens import hash_token

_BEARER = re.compile(r"Bearer ([A-Za-z0-9._~+/=-]{1,256})")
_IF_MATCH = re.compile(r'\s*(?:W/)?"?(\d{1,10})"?\s*')
_IDEMPOTENCY_KEY = re.compile(r"[\x21-\x7e]{1,200}")
# At least 22 characters of URL-safe base64 hold 128 bits; a UUID qualifies.
_CREATION_KEY = re.compile(r"[A-Za-z0-9_-]{22,200}")
_WHOLE_NUMBER = re.compile(r"[0-9]{1,18}")


SEED_BYTES = 32


def fresh_seed() -> bytes:
    """Secret entropy for a shuffle commitment, from the operating system."""
    return secrets.token_bytes(SEED_BYTES)


def games() -> GameService:
    return current_app.extensions["casino.games"]


def read_model() -> ReadModel:
    return current_app.extensions["casino.readmodel"]


def caller_for(game_id: uuid.UUID | None) -> Caller:
    """The caller named by ``Authorization``: the operator, a seat of this
    game, or (without the header) the public."""
    header = request.headers.get("Authorization")
    if header is None:
        return PUBLIC
    match = _BEARER.fullmatch(header.strip())
    if not match:
        raise ApiProblem(401, "unauthenticated", "Send your token as 'Authorization: Bearer <token>'.",
                         headers={"WWW-Authenticate": 'Bearer realm="casino"'})
    token = match.group(1)
    operator = current_app.config.get("OPERATOR_TOKEN")
    if operator and hmac.compare_digest(token.encode(), operator.encode()):
        return OPERATOR
    if game_id is not None:
        found = games().seat_for_token(game_id, hash_token(token))
        if found is not None:
            return seat(found)
    raise ApiProblem(401, "unauthenticated",
                     "This token is not valid for this game." if game_id else "This is not the operator's token.",
                     headers={"WWW-Authenticate": 'Bearer realm="casino", error="invalid_token"'})


def require_operator(game_id: uuid.UUID | None, action: str) -> Caller:
    """The operator, or a 401 (no token) or 403 (a seat's token) problem."""
    caller = caller_for(game_id)
    if caller.is_operator:
        return caller
    raise refused(caller, action)


def refused(caller: Caller, action: str) -> ApiProblem:
    """The problem for a caller who is not the operator and may not ``action``."""
    if caller.is_seat:
        return ApiProblem(403, "forbidden", f"Only the operator may {action}.")
    return ApiProblem(401, "unauthenticated", f"Send the operator's token to {action}.",
                      headers={"WWW-Authenticate": 'Bearer realm="casino"'})


def int_arg(name: str, default: int | None, low: int, high: int) -> int:
    """Query argument ``name``, a whole number from ``low`` to ``high``; a
    ``default`` of None makes it required."""
    raw = request.args.get(name)
    if raw is None:
        if default is None:
            raise ApiProblem(400, "malformed", f"Give '{name}', a whole number from {low} to {high}.",
                             errors=[{"field": name, "message": "Missing."}])
        return default
    if not _WHOLE_NUMBER.fullmatch(raw) or not low <= int(raw) <= high:
        raise ApiProblem(400, "malformed", f"'{name}' is a whole number from {low} to {high}.",
                         errors=[{"field": name, "message": f"Expected a whole number from {low} to {high}."}])
    return int(raw)


@functools.cache
def _schema(kind: type[Schema]) -> Schema:
    # One instance per schema class, reused: making one costs more than loading a body.
    return kind()


def body(kind: type[Schema], *, optional: bool = False) -> dict[str, Any]:
    """The JSON body loaded through the schema ``kind``; a 400 problem listing each bad field."""
    schema = _schema(kind)
    raw = request.get_data(cache=True)
    if not raw.strip():
        if optional:
            return schema.load({})
        raise ApiProblem(400, "malformed", "This request needs a JSON body.",
                         errors=[{"field": None, "message": "The body is empty."}])
    if not request.is_json:
        raise ApiProblem(400, "malformed", "Send the body as JSON (Content-Type: application/json).",
                         errors=[{"field": None, "message": "The body is not JSON."}])
    data = request.get_json(silent=True)
    if data is None and raw.strip() != b"null":
        raise ApiProblem(400, "malformed", "The body is not valid JSON.",
                         errors=[{"field": None, "message": "The body could not be parsed as JSON."}])
    if not isinstance(data, dict):
        raise ApiProblem(400, "malformed", "The body must be a JSON object.",
                         errors=[{"field": None, "message": "Expected a JSON object."}])
    try:
        return schema.load(data)
    except ValidationError as error:
        listed = errors_list(error)
        first = listed[0]
        where = f"'{first['field']}': " if first["field"] else ""
        raise ApiProblem(400, "malformed", f"The request is not valid: {where}{first['message']}",
                         errors=listed) from None


def if_match() -> int | None:
    """The version named by ``If-Match``, or None; ``*`` matches any."""
    header = request.headers.get("If-Match")
    if header is None or header.strip() == "*":
        return None
    match = _IF_MATCH.fullmatch(header)
    if not match:
        raise ApiProblem(400, "malformed", 'If-Match names a game version as an ETag, like "12".',
                         errors=[{"field": "If-Match", "message": "Not a version ETag."}])
    return int(match.group(1))


def idempotency_key() -> str | None:
    key = request.headers.get("Idempotency-Key")
    if key is None:
        return None
    if not _IDEMPOTENCY_KEY.fullmatch(key):
        raise ApiProblem(400, "malformed", "An Idempotency-Key is 1 to 200 visible ASCII characters.",
                         errors=[{"field": "Idempotency-Key", "message": "Not a valid key."}])
    return key


def creation_key() -> str | None:
    """The ``Idempotency-Key`` of a game's creation, or None. A retry under
    it is answered with the seats' tokens, so the key is its sender's secret
    and must not be guessable: a random value, which at this length and
    alphabet can hold 128 bits or more."""
    key = idempotency_key()
    if key is not None and not _CREATION_KEY.fullmatch(key):
        raise ApiProblem(400, "malformed",
                         "A game's Idempotency-Key must be a secret random value: 22 to 200 letters, digits, "
                         "'-' or '_' (16 random bytes in URL-safe base64, or a UUID).",
                         errors=[{"field": "Idempotency-Key", "message": "Too short to be a secret key."}])
    return key


def etag(version: int) -> dict[str, str]:
    return {"ETag": f'"{version}"'}

"""JSON for the service, by orjson.

Every answer, every event the store writes and every log line is JSON.
orjson writes it several times faster than the standard library, and reads
request bodies strictly (no ``NaN``, no integers past 64 bits: such a body
is malformed).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import orjson
from flask import Response
from flask.json.provider import JSONProvider

# Dict keys that are not strings (a seat number, say) become strings, as
# the standard library would make them.
_OPTIONS = orjson.OPT_NON_STR_KEYS


def dumps(obj: Any, default: Callable[[Any], Any] | None = None, *, sort_keys: bool = False) -> bytes:
    """``obj`` as compact JSON, UTF-8; ``default`` turns what JSON has no type for into what it has.
    With ``sort_keys``, equal values give equal bytes, whatever the order of their dicts."""
    options = (_OPTIONS | orjson.OPT_SORT_KEYS) if sort_keys else _OPTIONS
    return orjson.dumps(obj, default=default, option=options)


class OrjsonProvider(JSONProvider):
    """Flask's JSON (``jsonify``, views returning dicts, ``get_json``) by orjson."""

    def dumps(self, obj: Any, **kwargs: Any) -> str:
        return dumps(obj).decode()

    def loads(self, s: str | bytes, **kwargs: Any) -> Any:
        return orjson.loads(s)

    def response(self, *args: Any, **kwargs: Any) -> Response:
        obj = self._prepare_response_obj(args, kwargs)
        return self._app.response_class(dumps(obj), mimetype="application/json")


class Unstorable(ValueError):
    """A request body that parses as JSON but cannot be taken as it is;
    ``field`` names where (dotted path, or None for the whole body)."""

    def __init__(self, field: str | None, message: str):
        super().__init__(message)
        self.field = field
        self.message = message


def loads_request(raw: bytes) -> Any:
    """A request body, strictly: orjson's rules (no ``NaN``, no integers past
    64 bits; ``orjson.JSONDecodeError`` otherwise), no key twice in one object
    (a reader that keeps the first and one that keeps the last would see two
    different requests), and no NUL character in any string, which
    PostgreSQL cannot store. The last two raise ``Unstorable``."""
    data = orjson.loads(raw)
    json.loads(raw, object_pairs_hook=_unique_keys)
    _refuse_nul(data, [])
    return data


def _unique_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    seen: set[str] = set()
    for key, _ in pairs:
        if key in seen:
            raise Unstorable(key, f"The key '{key}' appears more than once in one object.")
        seen.add(key)
    return {}  # the values are orjson's: this pass only looks at keys


def _refuse_nul(value: Any, path: list[str]) -> None:
    if isinstance(value, str):
        if "\x00" in value:
            raise Unstorable(".".join(path) or None, "Text cannot contain the NUL character (U+0000).")
    elif isinstance(value, dict):
        for key, item in value.items():
            _refuse_nul(key, path + [key])
            _refuse_nul(item, path + [key])
    elif isinstance(value, list):
        for index, item in enumerate(value):
            _refuse_nul(item, path + [str(index)])

"""JSON out (and, for the notifications of appends, in), by orjson.

Every answer, every event the store writes and every log line is JSON, and
orjson writes it several times faster than the standard library. (Request
bodies are read in ``service.web.requests``.)
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import orjson

# Dict keys that are not strings (a seat number, say) become strings, as
# the standard library would make them.
_OPTIONS = orjson.OPT_NON_STR_KEYS


def dumps(obj: Any, default: Callable[[Any], Any] | None = None, *, sort_keys: bool = False) -> bytes:
    """``obj`` as compact JSON, UTF-8; ``default`` turns what JSON has no type for into what it has.
    With ``sort_keys``, equal values give equal bytes, whatever the order of their dicts."""
    options = (_OPTIONS | orjson.OPT_SORT_KEYS) if sort_keys else _OPTIONS
    return orjson.dumps(obj, default=default, option=options)


def raw(text: bytes) -> orjson.Fragment:
    """JSON text already written, for ``dumps`` to place as it is: what is
    sent twice (an append's events, in its document and in its
    notification) is written once."""
    return orjson.Fragment(text)


def loads(text: str | bytes) -> Any:
    """JSON text read back (as the standard library would, faster)."""
    return orjson.loads(text)

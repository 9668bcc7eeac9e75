"""A game's folded state as JSON and back, read from the types its fields
are annotated with: the codec snapshots are written in (``service.snapshots``).

A state is a tree of records (named tuples and frozen dataclasses: the
state, its options, seats, builds, clock, outcome, the state before the
last play), tuples, unions and leaves (numbers, strings, flags, cards,
string enums, times). Each record is written as the list of its fields'
values in field order; a card as its code, an enum as its value, a time
as ISO 8601, a duration as whole microseconds, a union of records as
``[member index, value]``. Only the types reached from the state's class
are ever built, so the bytes can make nothing else.

``shape(cls)`` describes that tree (every record's fields with their
types, every enum's values) and ``fingerprint(cls)`` digests it: two
releases whose states have the same fingerprint read each other's
snapshots, and a release that changes a field does not read the older
ones (their fingerprint differs) but folds those games from their events.
"""

from __future__ import annotations

import hashlib
import typing
from collections.abc import Callable
from dataclasses import fields, is_dataclass
from datetime import datetime, timedelta
from enum import Enum
from types import NoneType, UnionType
from typing import Any

from domain.cards import Card

_ONE_MICROSECOND = timedelta(microseconds=1)


class _Codec:
    """How values of one type are written (``encode``) and read (``decode``),
    and how the type is described (``shape``)."""

    def __init__(self, encode: Callable[[Any], Any], decode: Callable[[Any], Any], shape: str):
        self.encode, self.decode, self.shape = encode, decode, shape


def _same(value: Any) -> Any:
    return value


_LEAVES: dict[Any, _Codec] = {
    int: _Codec(_same, _same, "int"),
    float: _Codec(_same, _same, "float"),
    str: _Codec(_same, _same, "str"),
    bool: _Codec(_same, _same, "bool"),
    NoneType: _Codec(_same, _same, "none"),
    Card: _Codec(lambda c: c.code, Card.parse, "card"),
    datetime: _Codec(datetime.isoformat, datetime.fromisoformat, "datetime"),
    timedelta: _Codec(lambda d: d // _ONE_MICROSECOND, lambda n: n * _ONE_MICROSECOND, "microseconds"),
}


class _Record(_Codec):
    """A named tuple's or a frozen dataclass's codec, its fields filled in
    after it is registered (a state holds the state before the last play)."""

    def __init__(self, cls: type):
        self.cls = cls
        self.names: tuple[str, ...] = ()
        self.fields: tuple[_Codec, ...] = ()
        super().__init__(self._encode, self._decode, cls.__qualname__)

    def fill(self, hints: dict[str, Any], names: tuple[str, ...], seen: dict[Any, _Codec]) -> None:
        self.names = names
        self.fields = tuple(_codec(hints[name], seen) for name in names)
        inner = ", ".join(f"{name}: {c.shape}" for name, c in zip(names, self.fields, strict=True))
        self.shape = f"{self.cls.__qualname__}({inner})"

    def _encode(self, record: Any) -> list[Any]:
        return [c.encode(getattr(record, name)) for name, c in zip(self.names, self.fields, strict=True)]

    def _decode(self, values: list[Any]) -> Any:
        if len(values) != len(self.fields):
            raise ValueError(f"{self.cls.__qualname__} has {len(self.fields)} fields, not {len(values)}.")
        return self.cls(*(c.decode(v) for c, v in zip(self.fields, values, strict=True)))


def _codec(hint: Any, seen: dict[Any, _Codec]) -> _Codec:
    """The codec of the annotated type ``hint`` (``seen``: those built so far)."""
    if hint in seen:
        found = seen[hint]
        return _Codec(found.encode, found.decode, hint.__qualname__) if isinstance(found, _Record) else found
    if hint in _LEAVES:
        return _LEAVES[hint]
    origin, args = typing.get_origin(hint), typing.get_args(hint)
    if origin is tuple:
        return _tuple(args, seen)
    if origin in (UnionType, typing.Union):
        return _union(args, seen)
    if isinstance(hint, type) and issubclass(hint, Enum):
        return _Codec(lambda e: e.value, hint, f"{hint.__qualname__}{tuple(e.value for e in hint)}")
    if isinstance(hint, type) and (is_dataclass(hint) or issubclass(hint, tuple) and hasattr(hint, "_fields")):
        record = seen[hint] = _Record(hint)
        names = tuple(f.name for f in fields(hint)) if is_dataclass(hint) else hint._fields
        record.fill(typing.get_type_hints(hint), names, seen)
        return record
    raise TypeError(f"A snapshot cannot hold a {hint!r}.")


def _tuple(args: tuple[Any, ...], seen: dict[Any, _Codec]) -> _Codec:
    if len(args) == 2 and args[1] is Ellipsis:
        item = _codec(args[0], seen)
        encode, decode = item.encode, item.decode
        return _Codec(lambda xs: [encode(x) for x in xs], lambda xs: tuple(decode(x) for x in xs),
                      f"tuple[{item.shape}, ...]")
    items = tuple(_codec(a, seen) for a in args)
    return _Codec(lambda xs: [c.encode(x) for c, x in zip(items, xs, strict=True)],
                  lambda xs: tuple(c.decode(x) for c, x in zip(items, xs, strict=True)),
                  f"tuple[{', '.join(c.shape for c in items)}]")


def _union(args: tuple[Any, ...], seen: dict[Any, _Codec]) -> _Codec:
    """``X | None`` as X's value or null; a union of several types as ``[index, value]`` (or null)."""
    members = [a for a in args if a is not NoneType]
    shape = " | ".join([*(_codec(m, seen).shape for m in members), *(["none"] if NoneType in args else [])])
    if len(members) == 1:
        only = _codec(members[0], seen)
        return _Codec(lambda v: None if v is None else only.encode(v),
                      lambda v: None if v is None else only.decode(v), shape)
    codecs = [(m, _codec(m, seen)) for m in members]

    def encode(value: Any) -> Any:
        if value is None:
            return None
        return next([i, c.encode(value)] for i, (m, c) in enumerate(codecs) if isinstance(value, m))

    def decode(value: Any) -> Any:
        return None if value is None else codecs[value[0]][1].decode(value[1])

    return _Codec(encode, decode, shape)


_BUILT: dict[type, _Codec] = {}


def _of(cls: type) -> _Codec:
    """The codec of ``cls``, built once (two threads may both build it: either will do)."""
    found = _BUILT.get(cls)
    if found is None:
        found = _BUILT[cls] = _codec(cls, {})
    return found


def encode(state: Any) -> Any:
    """The state as JSON values (lists, strings, numbers, null)."""
    return _of(type(state)).encode(state)


def decode(cls: type, values: Any) -> Any:
    """The state of class ``cls`` written by ``encode``; a ``ValueError``,
    ``TypeError``, ``IndexError`` or ``KeyError`` for values it did not write."""
    return _of(cls).decode(values)


def shape(cls: type) -> str:
    """What the states of ``cls`` are made of: every field's name and type, down to the leaves."""
    return _of(cls).shape


def fingerprint(*classes: type) -> str:
    """A short digest of the shapes of ``classes``: equal for every release whose states have those shapes."""
    return hashlib.sha256("\n".join(shape(cls) for cls in classes).encode()).hexdigest()[:16]

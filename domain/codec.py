"""Events as stored facts: the one JSON codec every game's events go through.

An event is a frozen dataclass, subclass of :class:`Event`, with a
registered type name (its class name) and a ``schema_version``. Its stored
form is ``{"type", "schema_version", "data"}``; ``data`` holds each field
written by the codec of its annotated type, one ``(encode, decode)`` pair a
type, read from the annotations once. A game registers its event classes,
the codecs of its own field types and its upcasters in an
:class:`EventCodec`, which gives it ``to_json`` and ``from_json``.

When an event type changes, its ``schema_version`` goes up and an
*upcaster* is registered for the old version (:class:`Upcasters`): a
function that turns the old data into the next version's shape. Upcasters
run where events are read, so stored events are never rewritten and old
games always replay.
"""

from __future__ import annotations

import typing
from collections.abc import Callable, Iterable, Mapping
from dataclasses import fields, is_dataclass
from typing import Any, ClassVar, Generic, TypeVar

from .cards import Card
from .clocks import ClockRule
from .errors import NotationError


class Event:
    """Base class of every game's events: a fact, named in the past tense."""

    schema_version: ClassVar[int] = 1


E = TypeVar("E", bound=Event)

#: How a field of one type is written in JSON and read back.
Codec = tuple[Callable[[Any], Any], Callable[[Any], Any]]

_Data = dict[str, Any]
_Step = Callable[[_Data], _Data]


def _optional_card(code: str | None) -> Card | None:
    return None if code is None else Card.parse(code)


#: The field types every game's events share: cards, hands, numbers, names and clocks.
SHARED_CODECS: dict[Any, Codec] = {
    ClockRule: (ClockRule.to_dict, ClockRule.from_dict),
    tuple[str | None, ...]: (list, tuple),
    Card: (lambda c: c.code, Card.parse),
    tuple[Card, ...]: (lambda cs: [c.code for c in cs], lambda xs: tuple(map(Card.parse, xs))),
    tuple[tuple[Card, ...], ...]: (lambda hs: [[c.code for c in h] for h in hs],
                                   lambda xs: tuple(tuple(map(Card.parse, h)) for h in xs)),
    tuple[Card | None, ...]: (lambda cs: [c and c.code for c in cs], lambda xs: tuple(map(_optional_card, xs))),
    tuple[str, ...]: (list, tuple),
    tuple[int, ...]: (list, tuple),
}
_PLAIN: Codec = (lambda x: x, lambda x: x)


class Upcasters:
    """Functions that bring old event data up to the current schema, one per
    (type, old version) step."""

    def __init__(self) -> None:
        self._steps: dict[tuple[str, int], _Step] = {}

    def register(self, type_name: str, from_version: int) -> Callable[[_Step], _Step]:
        """Decorator: ``fn(data) -> data`` turns version ``from_version`` into the next."""
        def add(fn: _Step) -> _Step:
            self._steps[(type_name, from_version)] = fn
            return fn
        return add

    def upcast(self, type_name: str, version: int, data: _Data, current: int) -> _Data:
        while version < current:
            step = self._steps.get((type_name, version))
            if step is None:
                raise NotationError(f"No upcaster for {type_name} version {version}.")
            data = step(data)
            version += 1
        return data


class EventCodec(Generic[E]):
    """A game's events by stored type name, and their JSON form::

        CODEC = EventCodec((TableOpened, BetPlaced, ...), {Options: (Options.to_dict, Options.from_dict)})
        CODEC.to_json(event)     # {"type", "schema_version", "data"}
        CODEC.from_json(stored)  # the event, old versions upcast first

    ``codecs`` adds the game's own field types to :data:`SHARED_CODECS`; a
    field of a type neither names is stored as it is (a number, a string, a
    flag). Type names are unique across games, so a stored event names its game.
    """

    def __init__(self, types: Iterable[type[E]], codecs: Mapping[Any, Codec] | None = None,
                 upcasters: Upcasters | None = None):
        self.types: dict[str, type[E]] = {cls.__name__: cls for cls in types}
        self.upcasters = upcasters if upcasters is not None else Upcasters()
        known = {**SHARED_CODECS, **(codecs or {})}
        self._fields = {cls: _field_codecs(cls, known) for cls in self.types.values()}

    def to_json(self, event: E) -> dict[str, Any]:
        """The stored form of an event."""
        cls = type(event)
        data = {name: enc(getattr(event, name)) for name, (enc, _) in self._fields[cls]}
        return {"type": cls.__name__, "schema_version": cls.schema_version, "data": data}

    def from_json(self, stored: dict[str, Any]) -> E:
        """Read a stored event, upcasting an old version first; a
        :class:`NotationError` for a type this game does not have or a version
        newer than the code."""
        cls = self.types.get(stored["type"])
        if cls is None:
            raise NotationError(f"Unknown event type {stored['type']!r}.")
        version = stored.get("schema_version", 1)
        if version > cls.schema_version:
            raise NotationError(f"{stored['type']} version {version} is newer than this code knows.")
        data = self.upcasters.upcast(stored["type"], version, stored["data"], cls.schema_version)
        return cls(**{name: dec(data[name]) for name, (_, dec) in self._fields[cls] if name in data})


def _field_codecs(cls: type[Event], known: Mapping[Any, Codec]) -> list[tuple[str, Codec]]:
    """Each field of an event class with the codec of its annotated type."""
    if not is_dataclass(cls):
        raise TypeError(f"{cls.__name__} is not a dataclass.")
    hints = typing.get_type_hints(cls)
    return [(f.name, known.get(hints[f.name], _PLAIN)) for f in fields(cls)]

"""Events as stored facts: the one JSON codec every game's events go through.

An event is a frozen dataclass, subclass of :class:`Event`, with a
``schema_version``, registered under a *stored name* that is declared, not
taken from its class (so a class can be renamed freely): an
:class:`EventCodec` is built from a mapping of stored names to classes. The
kernel's events, which every game records (:mod:`domain.kernel_events`),
are stored under names scoped by a dot (``kernel.SeatJoined``); a game's
own events under names unique across games. Its stored form is ``{"type",
"schema_version", "data"}``; ``data`` holds each field written by the codec
of its annotated type, one ``(encode, decode)`` pair a type, read from the
annotations once. A game registers its event classes, the codecs of its own
field types and its upcasters in an :class:`EventCodec`, which gives it
``to_json`` and ``from_json``.

An event's *public name* is what a reader outside the domain (the event
log, a stream) calls it: its stored name without its scope
(:func:`public_name`), one name whatever the game.

When an event type changes, its ``schema_version`` goes up and an
*upcaster* is registered for the old version (:class:`Upcasters`): a
function that turns the old data into the next version's shape. When an
event is stored under another name, the old name is registered as a
*rename* (``Upcasters.rename``): stored events of the old name are read as
the new one, at the same version. Upcasters run where events are read, so
stored events are never rewritten and old games always replay.
"""

from __future__ import annotations

import typing
from collections.abc import Callable, Mapping
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


def public_name(stored_name: str) -> str:
    """The name readers outside the domain know an event by: its stored name
    without its scope (``kernel.SeatJoined`` is ``SeatJoined``)."""
    return stored_name.rpartition(".")[2]


class Upcasters:
    """Functions that bring old event data up to the current schema, one per
    (type, old version) step, and the names events were once stored under
    (old name -> current name). ``bases`` are upcasters these include (a
    game's include the kernel's)."""

    def __init__(self, *bases: Upcasters) -> None:
        self._steps: dict[tuple[str, int], _Step] = {}
        self.renames: dict[str, str] = {}
        for base in bases:
            self._steps.update(base._steps)
            self.renames.update(base.renames)

    def rename(self, old: str, new: str) -> None:
        """Events stored as ``old`` are read as ``new`` (same data, same version)."""
        if old == new or old in self.renames:
            raise ValueError(f"{old} is renamed already, or to itself.")
        self.renames[old] = new

    def current_name(self, stored_name: str) -> str:
        """The name an event stored as ``stored_name`` is read under now."""
        seen = {stored_name}
        while stored_name in self.renames:
            stored_name = self.renames[stored_name]
            if stored_name in seen:
                raise ValueError(f"The renames of {stored_name} go round in a circle.")
            seen.add(stored_name)
        return stored_name

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

        CODEC = EventCodec({"TableOpened": TableOpened, "BetPlaced": BetPlaced, ...},
                           {Options: (Options.to_dict, Options.from_dict)})
        CODEC.to_json(event)     # {"type", "schema_version", "data"}
        CODEC.from_json(stored)  # the event, old names and versions upcast first

    ``types`` maps each stored name to its class: the name is declared here,
    never read off the class. ``codecs`` adds the game's own field types to
    :data:`SHARED_CODECS`; a field of a type neither names is stored as it
    is (a number, a string, a flag).
    """

    def __init__(self, types: Mapping[str, type[E]], codecs: Mapping[Any, Codec] | None = None,
                 upcasters: Upcasters | None = None):
        self.types: dict[str, type[E]] = dict(types)
        self.names: dict[type[E], str] = {cls: name for name, cls in self.types.items()}
        if len(self.names) != len(self.types):
            raise ValueError("An event class is registered under two stored names.")
        self.upcasters = upcasters if upcasters is not None else Upcasters()
        known = {**SHARED_CODECS, **(codecs or {})}
        self._fields = {cls: _field_codecs(cls, known) for cls in self.types.values()}

    def reads(self) -> set[str]:
        """Every stored name this codec reads: its events' and the old names renamed to them."""
        return set(self.types) | {old for old in self.upcasters.renames
                                  if self.upcasters.current_name(old) in self.types}

    def current_name(self, stored_name: str) -> str:
        """The stored name an event stored as ``stored_name`` has now."""
        return self.upcasters.current_name(stored_name)

    def to_json(self, event: E) -> dict[str, Any]:
        """The stored form of an event."""
        cls = type(event)
        data = {name: enc(getattr(event, name)) for name, (enc, _) in self._fields[cls]}
        return {"type": self.names[cls], "schema_version": cls.schema_version, "data": data}

    def from_json(self, stored: dict[str, Any]) -> E:
        """Read a stored event, under its current name and upcast from an old
        version first; a :class:`NotationError` for a type this game does not
        have or a version newer than the code."""
        current = self.upcasters.current_name(stored["type"])
        cls = self.types.get(current)
        if cls is None:
            raise NotationError(f"Unknown event type {stored['type']!r}.")
        version = stored.get("schema_version", 1)
        if version > cls.schema_version:
            raise NotationError(f"{stored['type']} version {version} is newer than this code knows.")
        data = self.upcasters.upcast(current, version, stored["data"], cls.schema_version)
        return cls(**{name: dec(data[name]) for name, (_, dec) in self._fields[cls] if name in data})


def _field_codecs(cls: type[Event], known: Mapping[Any, Codec]) -> list[tuple[str, Codec]]:
    """Each field of an event class with the codec of its annotated type."""
    if not is_dataclass(cls):
        raise TypeError(f"{cls.__name__} is not a dataclass.")
    hints = typing.get_type_hints(cls)
    return [(f.name, known.get(hints[f.name], _PLAIN)) for f in fields(cls)]

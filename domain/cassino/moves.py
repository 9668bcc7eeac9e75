"""Moves: what a player does with one card on their turn.

A move has the JSON shape of the API and a short text notation::

    >>> Move.parse("8h capture 3c 8s 5d b1")
    Move.parse('8H capture 8S 5D 3C B1')
    >>> Move.parse("2H build 9 7S").to_dict()
    {'card': '2H', 'action': 'build', 'targets': ['7S'], 'value': 9}
    >>> Move.from_dict({"card": "5c", "action": "trail"}).text
    '5C trail'

Targets are kept in a canonical order (cards in deck order, then builds by
number, then seats' piles, which a steal names ``seat:N``), so two moves
that name the same things are equal. A build move may state its ``groups``
outright; written in text as ``(2H 7S) (9C)``.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from enum import StrEnum
from functools import lru_cache, partial
from typing import Any

from ..cards import Card
from ..errors import NotationError, reading


class Action(StrEnum):
    """What a move does with its card. A ``StrEnum``: ``Action.TRAIL ==
    "trail"``, and JSON shows the value."""

    TRAIL = "trail"
    CAPTURE = "capture"
    BUILD = "build"
    PLUCK = "pluck"
    STEAL = "steal"


ACTIONS = tuple(Action)
#: What a move of each action may name besides its card (a body naming more is refused, not read in part).
ACTION_FIELDS: dict[Action, tuple[str, ...]] = {
    Action.TRAIL: (), Action.PLUCK: (), Action.STEAL: ("targets",),
    Action.CAPTURE: ("targets", "value", "groups"), Action.BUILD: ("targets", "value", "groups"),
}
_ACTIONS_BY_NAME: dict[str, Action] = {a.value: a for a in Action}  # a dict lookup: moves are made by the thousand
_BUILD_ID = re.compile(r"^B([1-9][0-9]{0,3})$")
_SEAT = re.compile(r"^SEAT:([0-9]{1,2})$")
_NUMBER = re.compile(r"^-?[0-9]+$")
MAX_TARGETS = 52


def _target(text: Any) -> str:
    """Canonical form of a target: a card code, a build id like ``B3``, or a
    seat's capture pile like ``seat:1`` (what a steal takes)."""
    if not isinstance(text, str):
        raise NotationError(f"A target is a card code, a build id or a seat's pile, not {text!r}.")
    up = text.strip().upper()
    if _BUILD_ID.match(up):
        return up
    seat = _SEAT.match(up)
    if seat:
        return pile_target(int(seat.group(1)))
    return Card.parse(text).code


def target_named(text: str) -> str:
    """The canonical form of a target a client names; :class:`NotationError` for none."""
    return _target(text)


def action_named(text: str) -> Action:
    """The action a client names, in any case; :class:`NotationError` for none."""
    return _action(text.strip().lower())


def pile_target(seat: int) -> str:
    """How a move names ``seat``'s capture pile (a steal's target)."""
    return f"seat:{seat}"


def pile_seat(target: str) -> int | None:
    """The seat whose pile ``target`` names, or None for a card or a build."""
    if target[:1] not in ("s", "S"):  # a card or a build, known without the pattern
        return None
    found = _SEAT.match(target.upper())
    return int(found.group(1)) if found else None


def pile_counts(targets: Iterable[str]) -> Counter[int]:
    """How many times each seat's pile is named: a build that augments from
    piles takes that many cards from its top."""
    return Counter(s for t in targets if (s := pile_seat(t)) is not None)


@lru_cache(maxsize=4096)
def _target_key(target: str) -> tuple[int, int]:
    match = _BUILD_ID.match(target)
    if match:
        return (1, int(match.group(1)))
    seat = pile_seat(target)
    if seat is not None:
        return (2, seat)
    return (0, Card.parse(target).index)


def _action(text: str) -> Action:
    found = _ACTIONS_BY_NAME.get(text) if isinstance(text, str) else None
    if found is None:
        raise NotationError(f"Unknown action {text!r}; the actions are {', '.join(ACTIONS)}.")
    return found


def _sorted(targets: Iterable[str]) -> tuple[str, ...]:
    return tuple(sorted(targets, key=_target_key))


@dataclass(frozen=True, slots=True)
class Move:
    card: Card
    action: Action
    targets: tuple[str, ...] = ()
    value: int | None = None
    groups: tuple[tuple[str, ...], ...] | None = None

    def __post_init__(self) -> None:
        object.__setattr__(self, "action", _action(self.action))
        if self.groups is not None:
            if not self.groups or not all(self.groups):
                raise NotationError("'groups' is a list of non-empty lists of card codes and build ids.")
            groups = sorted((_sorted(g) for g in self.groups), key=lambda g: [_target_key(t) for t in g])
            object.__setattr__(self, "groups", tuple(groups))
            if not self.targets:  # the groups name the targets
                object.__setattr__(self, "targets", self._grouped_targets())
        object.__setattr__(self, "targets", _sorted(self.targets))

    def _grouped_targets(self) -> tuple[str, ...]:
        """The table items the groups name: every member but the played card."""
        return tuple(t for g in self.groups or () for t in g if t != self.card.code)

    # -- constructors -------------------------------------------------------

    @classmethod
    def trail(cls, card: Card | str) -> Move:
        return cls(_card(card), Action.TRAIL)

    @classmethod
    def capture(cls, card: Card | str, *targets: str) -> Move:
        return cls(_card(card), Action.CAPTURE, tuple(_target(t) for t in targets))

    @classmethod
    def build(cls, card: Card | str, value: int, *targets: str) -> Move:
        return cls(_card(card), Action.BUILD, tuple(_target(t) for t in targets), value)

    @classmethod
    def from_dict(cls, data: Any) -> Move:
        """Read a move in the API's JSON shape; raises :class:`NotationError`
        naming the field at fault."""
        named = _read_action(data)
        targets, value, groups = _read_targets(data), _read_value(data), _read_groups(data)  # in this order
        return cls(reading("card", lambda: _card(data["card"])), named,
                   tuple(reading(f"targets.{i}", partial(_target, t)) for i, t in enumerate(targets)), value, groups)

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"card": self.card.code, "action": self.action.value}
        if self.targets:
            out["targets"] = list(self.targets)
        if self.value is not None:
            out["value"] = self.value
        if self.groups is not None:
            out["groups"] = [list(g) for g in self.groups]
        return out

    # -- text notation ------------------------------------------------------

    @classmethod
    def parse(cls, text: str) -> Move:
        """Read ``"5C trail"``, ``"8H capture 8S 3C 5D"``, ``"2H build 9 7S"``,
        a stated value after any action (``"AC capture 14 KS AH"``), or
        groups: ``"2H build 9 (2H 7S) (9C)"``, whose members other than the
        played card are the targets unless targets are also written out."""
        words = text.replace("(", " ( ").replace(")", " ) ").split()
        if len(words) < 2:
            raise NotationError(f"{text!r} is not a move: write card, action, then its targets.")
        card_code, action, rest = words[0], words[1].lower(), words[2:]
        value = None
        if rest and _NUMBER.match(rest[0]):
            value, rest = int(rest[0]), rest[1:]
        groups: list[tuple[str, ...]] = []
        targets: list[str] = []
        current: list[str] | None = None
        for word in rest:
            if word == "(" and current is None:
                current = []
            elif word == ")" and current is not None:
                groups.append(tuple(current))
                current = None
            elif word in "()":
                raise NotationError(f"Unbalanced brackets in {text!r}.")
            else:
                (targets if current is None else current).append(_target(word))
        if current is not None:
            raise NotationError(f"Unbalanced brackets in {text!r}.")
        return cls(_card(card_code), _action(action), tuple(targets), value, tuple(groups) or None)

    @property
    def text(self) -> str:
        """The move in text; :meth:`parse` reads it back to an equal move."""
        parts = [self.card.code, self.action]
        if self.value is not None:
            parts.append(str(self.value))
        if self.groups is None or self.targets != _sorted(self._grouped_targets()):
            parts += self.targets
        if self.groups is not None:
            parts += ["(" + " ".join(g) + ")" for g in self.groups]
        return " ".join(parts)

    def __str__(self) -> str:
        return self.text

    def __repr__(self) -> str:
        return f"Move.parse({self.text!r})"


def _card(value: Card | str) -> Card:
    return value if isinstance(value, Card) else Card.parse(value)


def _read_action(data: Any) -> Action:
    """The action of a move in JSON, once the object has only a move's fields
    and those its action names."""
    if not isinstance(data, dict):
        raise NotationError("A move is an object with 'card' and 'action'.")
    unknown = sorted(set(data) - {"card", "action", "targets", "value", "groups"})
    if unknown:
        raise NotationError(f"A move has no field {unknown[0]!r}.", unknown[0])
    missing = next((name for name in ("card", "action") if name not in data), None)
    if missing is not None:
        raise NotationError("A move needs a 'card' and an 'action'.", missing)
    action = data["action"]
    if not isinstance(action, str):
        raise NotationError(f"'action' is one of {', '.join(ACTIONS)}.", "action")
    named = reading("action", lambda: _action(action.strip().lower()))
    extra = next((name for name in ("targets", "value", "groups") if name in data
                  and name not in ACTION_FIELDS[named]), None)  # even empty: the body names a field it has not
    if extra is not None:
        raise NotationError(f"A {named} names no '{extra}'.", extra)
    return named


def _read_targets(data: dict[str, Any]) -> list[Any]:
    """The targets of a move in JSON, unread (the card is read before them)."""
    targets = data.get("targets") or []
    if not isinstance(targets, list) or len(targets) > MAX_TARGETS:
        raise NotationError("'targets' is a list of card codes and build ids.", "targets")
    return targets


def _read_value(data: dict[str, Any]) -> int | None:
    value = data.get("value")
    if value is not None and (isinstance(value, bool) or not isinstance(value, int)):
        raise NotationError("'value' is a whole number.", "value")
    return value


def _read_groups(data: dict[str, Any]) -> tuple[tuple[str, ...], ...] | None:
    groups = data.get("groups")
    if groups is None:
        return None
    if not isinstance(groups, list) or not all(isinstance(g, list) and g for g in groups):
        raise NotationError("'groups' is a list of non-empty lists of card codes and build ids.", "groups")
    if sum(len(g) for g in groups) > MAX_TARGETS + 1:
        raise NotationError("'groups' names more items than there are cards.", "groups")
    return tuple(tuple(reading(f"groups.{i}.{j}", partial(_target, t)) for j, t in enumerate(g))
                 for i, g in enumerate(groups))

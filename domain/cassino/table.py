"""What lies on the table: loose cards and builds.

A build is a pile of cards that must be taken together by a card of its
value. It is kept as *groups*: each group adds up to the build's value. A
build of one group is a *single* build, which may be raised to a new value;
a build of two or more groups is a *multiple* build, whose value is fixed::

    >>> from domain.cards import card
    >>> b = Build("B1", 9, ((card("6S"), card("3D")), (card("9C"),)), owner=0)
    >>> b.multiple, [c.code for c in b.cards]
    (True, ['6S', '3D', '9C'])
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..cards import Card, codes


@dataclass(frozen=True, slots=True)
class Build:
    id: str
    value: int
    groups: tuple[tuple[Card, ...], ...]
    owner: int

    @property
    def cards(self) -> tuple[Card, ...]:
        return tuple(c for group in self.groups for c in group)

    @property
    def multiple(self) -> bool:
        return len(self.groups) > 1

    def to_dict(self) -> dict[str, Any]:
        return {
            "kind": "build",
            "id": self.id,
            "value": self.value,
            "cards": codes(self.cards),
            "groups": [codes(g) for g in self.groups],
            "multiple": self.multiple,
            "owner": self.owner,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Build:
        groups = tuple(tuple(Card.parse(c) for c in g) for g in data["groups"])
        return cls(data["id"], data["value"], groups, data["owner"])

    def __str__(self) -> str:
        kind = "multiple" if self.multiple else "single"
        return f"{self.id}[{kind} {self.value}: {' '.join(codes(self.cards))}]"


TableItem = Card | Build


def item_id(item: TableItem) -> str:
    """How a move names a table item: a card code, or a build id."""
    return item.id


def item_to_dict(item: TableItem) -> dict[str, Any]:
    if isinstance(item, Card):
        return {"kind": "card", "card": item.code}
    return item.to_dict()


def table_cards(table: tuple[TableItem, ...]) -> tuple[Card, ...]:
    """Every card on the table, loose or in a build."""
    out: list[Card] = []
    for item in table:
        if isinstance(item, Card):
            out.append(item)
        else:
            out.extend(item.cards)
    return tuple(out)

"""Trailing: laying a card on the table, and nothing else."""

from __future__ import annotations


from ...errors import RuleViolation
from ..moves import Move
from ..table import TableItem
from .turn import Play


def resolve_trail(seat: int, move: Move, items: tuple[TableItem, ...]) -> Play:
    if items or move.value is not None or move.groups is not None:
        raise RuleViolation("illegal_trail", "A trail only lays a card on the table; it names nothing else.")
    return Play(seat, move, ())

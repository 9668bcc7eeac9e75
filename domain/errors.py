"""The small family of errors the rules raise. All are ``ValueError``s."""

from collections.abc import Callable
from typing import TypeVar

T = TypeVar("T")


class NotationError(ValueError):
    """A card code, move or deck could not be read.

    ``field`` names the part of a move's JSON at fault (``card``,
    ``targets.1``), when the error comes from reading one, so an API can
    point at it.
    """

    def __init__(self, message: str, field: str | None = None):
        super().__init__(message)
        self.field = field


def reading(field: str, read: Callable[[], T]) -> T:
    """``read()``, with a :class:`NotationError` it raises naming ``field``."""
    try:
        return read()
    except NotationError as error:
        raise NotationError(str(error), field) from None


class OptionError(ValueError):
    """A game that cannot be made: options that do not fit together, or do
    not suit the variant or the seat count, an unknown variant, a first
    dealer who is not a seat.

    ``name`` is the offending option (or ``None`` when the problem is the
    variant or the seat count), so an API can point at the field.
    """

    def __init__(self, message: str, name: str | None = None):
        super().__init__(message)
        self.name = name


class UnknownOption(OptionError):
    """An option the game does not have, or a value the option never takes
    (options that are not an object at all): what a schema of the options
    says by itself, where an ``OptionError`` needs the rules."""


class RuleViolation(ValueError):
    """A command breaks a rule of the game.

    ``rule`` is a stable machine name (``not_your_turn``, ``illegal_capture``,
    ...); the message is a sentence a player understands.
    """

    def __init__(self, rule: str, message: str):
        super().__init__(message)
        self.rule = rule
        self.message = message

    def __repr__(self) -> str:
        return f"RuleViolation({self.rule!r}, {self.message!r})"

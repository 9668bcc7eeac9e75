"""Request bodies, checked at the edge with marshmallow.

A schema error becomes a 400 ``malformed`` problem whose ``errors`` lists
each field at fault. Card codes are checked here too, so an unknown card is
a malformed request rather than a move against the rules. A move's body has
no schema here: each game reads its own moves (``GameType.parse_move``),
and that is the one place a move is checked.
"""

from __future__ import annotations

from typing import Any

from marshmallow import RAISE, Schema, ValidationError, fields, post_load, validate

from domain import clocks
from domain.cards import Card
from domain.errors import NotationError, OptionError
from service import names
from service.commands import MAX_SEATS



class Name(fields.String):
    """A player's, a seat's or a guest's name: 1 to 40 characters as given
    (else the body is malformed), loaded as its normalised form
    (``service.names``); a name that cannot be one raises ``NameRefused``,
    which is answered 422 ``invalid_name`` rather than as a malformed body."""

    def _deserialize(self, value, attr, data, **kwargs):
        text = super()._deserialize(value, attr, data, **kwargs)
        if not 1 <= len(text) <= names.MAX_LENGTH:
            raise ValidationError(f"Length must be between 1 and {names.MAX_LENGTH}.")
        return names.normalised(text)


class CardCode(fields.String):
    """A card code, read in any case with T for ten; loads as the canonical code."""

    def _deserialize(self, value, attr, data, **kwargs):
        text = super()._deserialize(value, attr, data, **kwargs)
        try:
            return Card.parse(text).code
        except NotationError as error:
            raise ValidationError(str(error)) from None


class Strict(Schema):
    class Meta:
        unknown = RAISE


class StrictBoolean(fields.Field):
    """true or false, and nothing that merely looks like them (1, "yes")."""

    def _deserialize(self, value, attr, data, **kwargs):
        if not isinstance(value, bool):
            raise ValidationError("Expected true or false.")
        return value


class SeatSchema(Strict):
    name = Name(required=True)
    # Played by the service itself (see service.computer).
    computer = StrictBoolean(load_default=False)


class OpenSeatSchema(Strict):
    """``{"open": true}``: a seat nobody holds yet, which a player joins."""

    open = StrictBoolean(required=True, validate=validate.Equal(True, error="An open seat says open: true."))

    @post_load
    def as_seat(self, data, **kwargs):
        return {"name": None, "computer": False}


class MySeatSchema(Strict):
    """``{"me": true}``: the seat of the player who creates the game (by a player token)."""

    me = StrictBoolean(required=True, validate=validate.Equal(True, error="Your own seat says me: true."))

    @post_load
    def as_seat(self, data, **kwargs):
        return {"name": None, "computer": False, "me": True}


class SeatsField(fields.Field):
    """``seats``: a list of ``{"name": ..., "computer": ...}``, or a number of
    seats; loads as a list of such dicts, at least one of them a person's."""

    def _deserialize(self, value, attr, data, **kwargs):
        if isinstance(value, bool):
            raise ValidationError("Give a list of seats or a number of seats.")
        if isinstance(value, int):
            if not 2 <= value <= MAX_SEATS:
                raise ValidationError(f"A game has 2 to {MAX_SEATS} seats.")
            return [{"name": f"Seat {i}", "computer": False, "me": False} for i in range(value)]
        if isinstance(value, list):
            if not 2 <= len(value) <= MAX_SEATS:
                raise ValidationError(f"A game has 2 to {MAX_SEATS} seats.")
            seats = [_seat(item) for item in value]
            if sum(s["me"] for s in seats) > 1:
                raise ValidationError("You sit in one seat of a game: give {\"me\": true} once.")
            return seats
        raise ValidationError("Give a list of seats or a number of seats.")


def _seat(item: Any) -> dict[str, Any]:
    """A seat of a new game: ``{"name", "computer", "me"}``, ``name`` None for an
    open one and the creator's own (``me``)."""
    if not isinstance(item, dict):
        raise ValidationError('Each seat is an object like {"name": "Ann"}, {"open": true} or {"me": true}.')
    if "me" in item:
        return MySeatSchema().load(item)
    return {**(OpenSeatSchema().load(item) if "open" in item else SeatSchema().load(item)), "me": False}


class ClockField(fields.Field):
    """``clock``: ``{"per_move_seconds": N}`` or ``{"initial_seconds": N,
    "increment_seconds": M}`` (``domain.clocks.rule`` checks it); null for none."""

    def _deserialize(self, value, attr, data, **kwargs):
        try:
            clocks.rule(value)
        except OptionError as error:
            raise ValidationError(str(error)) from None
        return value


class CreateGameSchema(Strict):
    variant = fields.String(load_default="cassino", validate=validate.Length(max=40))
    seats = SeatsField(load_default=lambda: [{"name": "Seat 0", "computer": False, "me": False},
                                             {"name": "Seat 1", "computer": False, "me": False}])
    options = fields.Dict(keys=fields.String(), load_default=dict)
    first_dealer = fields.Integer(load_default=None, allow_none=True, strict=True)
    clock = ClockField(load_default=None, allow_none=True)
    on_timeout = fields.String(load_default=None, allow_none=True, validate=validate.OneOf(clocks.ON_TIMEOUT))
    # Listed in the lobby; by default, when a seat is open.
    listed = StrictBoolean(load_default=None)
    # Rated: every seat a registered player's, and the result moves their ratings.
    rated = StrictBoolean(load_default=False)
    # Whether guests may take its open seats, or only players (by a player token).
    guests = StrictBoolean(load_default=True)

    @post_load
    def clock_rule(self, data, **kwargs):
        """``clock`` and ``on_timeout`` read as the game's ``ClockRule`` (None: no clock)."""
        try:
            data["clock"] = clocks.rule(data["clock"], data.pop("on_timeout"))
        except OptionError as error:
            raise ValidationError(str(error), error.name or "clock") from None
        return data


class PairingSchema(Strict):
    """What a player asks to be paired for (``service.pairing.Ask``)."""

    variant = fields.String(load_default="cassino", validate=validate.Length(max=40))
    seats = fields.Integer(load_default=2, strict=True, validate=validate.Range(2, 8))
    clock = ClockField(load_default=None, allow_none=True)
    rated = StrictBoolean(load_default=False)


class PlayerSchema(Strict):
    name = Name(required=True)


class ClaimSchema(Strict):
    """A transfer code, as shown (``ABCD-EFGH-JKLM``) or typed without its dashes, in any case."""

    code = fields.String(required=True, validate=validate.Length(min=1, max=40))


class JoinSchema(Strict):
    """A guest gives the seat's name; a player (by a player token) joins under their own unless they give one."""

    name = Name()
    seat = fields.Integer(strict=True, validate=validate.Range(min=0, max=MAX_SEATS - 1))


class DealSchema(Strict):
    # The game's whole deck: 52 cards, or 49 in five-hand; the rules check the exact cards.
    deck = fields.List(CardCode(), validate=validate.Length(min=1, max=52), load_default=None)


class EmptySchema(Strict):
    """Commands that take no arguments accept an empty object or no body."""


class AnswerUndoSchema(Strict):
    accept = StrictBoolean(required=True)


class VoidSchema(Strict):
    reason = fields.String(required=True, validate=validate.Length(min=1, max=200))


class ClientSeedSchema(Strict):
    seed = fields.String(required=True, validate=[
        validate.Length(min=1, max=64),
        validate.Regexp(r"^[\x21-\x7e]+$", error="A client seed is 1 to 64 visible ASCII characters, without '|'."),
        validate.Regexp(r"^[^|]+$", error="A client seed cannot contain '|'."),
    ])


def errors_list(error: ValidationError) -> list[dict[str, Any]]:
    """marshmallow's nested messages as a flat list of ``{"field", "message"}``."""
    out: list[dict[str, Any]] = []

    def walk(messages, path):
        if isinstance(messages, dict):
            for key, value in messages.items():
                walk(value, path + [str(key)] if key != "_schema" else path)
        elif isinstance(messages, list) and all(isinstance(m, str) for m in messages):
            for m in messages:
                out.append({"field": ".".join(path) or None, "message": m})
        elif isinstance(messages, list):
            for i, m in enumerate(messages):
                walk(m, path + [str(i)])
        else:
            out.append({"field": ".".join(path) or None, "message": str(messages)})

    walk(error.messages, [])
    return out

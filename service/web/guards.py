"""The guards views put in front of themselves: who is asking, and may they.

``@seat_required``, ``@operator_required``, ``@seat_or_operator_required``
and ``@any_caller`` read ``Authorization``, ask the app's ``Authenticator``
(``service.auth``) who it is, and hand the view its ``caller``, or raise
``Unauthenticated`` (401) or ``Forbidden`` (403), which
``service.web.problems`` answers.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any
from uuid import UUID

from flask import request

from service.auth import Caller, Forbidden, Unauthenticated, refused
from service.web.current import services

View = Callable[..., Any]


def current_caller(game_id: UUID | None = None, wanted: str = "the operator's token") -> Caller:
    """The caller of the request being served; a token that names no one is
    refused with a sentence saying what was ``wanted`` instead."""
    return services().authenticator.caller(request.headers.get("Authorization"), game_id, wanted)


def _guard(check: Callable[[Caller], None], wanted: str = "the operator's token") -> Callable[[View], View]:
    """A decorator that authenticates the request, lets ``check`` refuse the
    caller, and passes the view its ``caller``."""
    def decorate(view: View) -> View:
        @functools.wraps(view)
        def guarded(*args: Any, **kwargs: Any) -> Any:
            caller = current_caller(kwargs.get("game_id"), wanted)
            check(caller)
            return view(*args, caller=caller, **kwargs)
        return guarded
    return decorate


def seat_required(action: str) -> Callable[[View], View]:
    """Only a seat of the game may ``action``."""
    def check(caller: Caller) -> None:
        if caller.is_operator:
            raise Forbidden(f"The operator cannot {action}: only a seat can.")
        if caller.is_player and not caller.is_seat:
            raise Forbidden(f"You hold no seat in this game, so you cannot {action}.")
        if not caller.is_seat:
            raise Unauthenticated(f"Send your seat's token to {action}.")
    return _guard(check)


def player_required(action: str) -> Callable[[View], View]:
    """Only a player (by a player token) may ``action``."""
    def check(caller: Caller) -> None:
        if caller.is_operator:
            raise Forbidden(f"The operator cannot {action}: only a player can.")
        if not caller.is_player:
            raise Unauthenticated(f"Send your player token to {action}.")
    return _guard(check, f"your player token to {action}")


def operator_required(action: str) -> Callable[[View], View]:
    """Only the operator may ``action``."""
    def check(caller: Caller) -> None:
        if not caller.is_operator:
            raise refused(caller, action)
    return _guard(check, f"the operator's token to {action}")


def seat_or_operator_required(action: str) -> Callable[[View], View]:
    """A seat of the game, or the operator, may ``action``; the public may not."""
    def check(caller: Caller) -> None:
        if caller.is_player and not caller.is_seat:
            raise Forbidden(f"You hold no seat in this game, so you cannot {action}.")
        if not (caller.is_seat or caller.is_operator):
            raise Unauthenticated(f"Send your seat's token (or the operator's) to {action}.")
    return _guard(check)


#: Anyone may call, the public too; a token, if sent, must be valid.
any_caller = _guard(lambda caller: None)

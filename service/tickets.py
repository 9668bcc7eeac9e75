"""Stream tickets: what a browser's EventSource sends instead of a bearer token.

EventSource cannot set an ``Authorization`` header, and a token in a URL
ends up in logs and histories. So a client with a token asks for a ticket
(``POST /v1/games/{id}/stream-tickets``) and opens the stream with
``?ticket=``. A ticket:

- names the caller (seat, operator or public), never the token;
- is good for opening that one game's event stream and nothing else, for
  ``LIFETIME`` seconds (a stream opened in time runs its course; to reopen
  later, get a new ticket);
- is ``<expires>.<actor>.<nonce>.<mac>``: a Unix time, ``Caller.actor``,
  random bits, and an HMAC-SHA256 over those and the purpose and game id.

Signed rather than stored, so that every worker accepts every worker's
tickets with no table to write or sweep. The key is derived from the
operator token, the one secret all workers already share; replacing that
token voids outstanding tickets, and knowing the key grants nothing the
operator token does not.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import secrets
from uuid import UUID

from service.caller import OPERATOR, PUBLIC, Caller, seat

LIFETIME = 60
PURPOSE = b"events/stream"
_MAX_LENGTH = 200


def key_from(operator_token: str) -> bytes:
    """The signing key: one-way from the operator token, and used for nothing else."""
    return hmac.new(operator_token.encode(), b"casino stream tickets v1", hashlib.sha256).digest()


def issue(key: bytes, game_id: UUID, caller: Caller, now: float) -> tuple[str, int]:
    """A ticket for ``caller`` on the game's stream, and when it expires (Unix time)."""
    expires = int(now) + LIFETIME
    body = f"{expires}.{caller.actor}.{secrets.token_urlsafe(12)}"
    return f"{body}.{_mac(key, game_id, body)}", expires


def redeem(key: bytes, game_id: UUID, ticket: str, now: float) -> Caller | None:
    """The caller a ticket was issued to, if it is genuine, for this game and
    not expired; else None."""
    if len(ticket) > _MAX_LENGTH or ticket.count(".") != 3:
        return None
    body, _, mac = ticket.rpartition(".")
    if not hmac.compare_digest(mac.encode(), _mac(key, game_id, body).encode()):
        return None
    expires, actor, _nonce = body.split(".")
    if now >= int(expires):
        return None
    return _caller(actor)


def _mac(key: bytes, game_id: UUID, body: str) -> str:
    message = b"|".join([PURPOSE, str(game_id).encode(), body.encode()])
    digest = hmac.new(key, message, hashlib.sha256).digest()
    return base64.urlsafe_b64encode(digest).decode().rstrip("=")


def _caller(actor: str) -> Caller:
    if actor == OPERATOR.actor:
        return OPERATOR
    if actor.startswith("seat:"):
        return seat(int(actor.removeprefix("seat:")))
    return PUBLIC

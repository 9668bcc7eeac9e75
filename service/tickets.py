"""Stream tickets: what a browser's EventSource sends instead of a bearer token.

EventSource cannot set an ``Authorization`` header, and a token in a URL
ends up in logs and histories. So a client with a token asks for a ticket
(``POST /v1/games/{id}/stream-tickets``) and opens the stream with
``?ticket=``. A ticket:

- names the caller (seat, operator or public), never the token;
- opens that one game's event stream once, and nothing else, within
  ``LIFETIME`` seconds (a stream opened in time runs its course; to reopen
  it, get a new ticket);
- is ``<expires>.<actor>.<nonce>.<mac>``: a Unix time, ``Caller.actor``,
  random bits, and an HMAC-SHA256 over those, the purpose, the game id and
  the hash of the seat's token (``token_hash``), so that a ticket dies with
  the token it was issued under.

Signed rather than stored when issued, so that every worker accepts every
worker's tickets. The key is derived from the operator token, the one secret
all workers already share; replacing that token voids outstanding tickets,
and knowing the key grants nothing the operator token does not. Using a
ticket is recorded in PostgreSQL (``use_once``, table
``stream_ticket_uses``), which every worker shares: the insert of the
ticket's MAC succeeds once, and a use is kept until the ticket expires by
the database's own clock, after which no worker accepts the ticket anyway.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import secrets
from collections.abc import Callable
from uuid import UUID

from psycopg_pool import ConnectionPool

from service.caller import OPERATOR, PUBLIC, Caller, seat

LIFETIME = 60
PURPOSE = b"events/stream"
_MAX_LENGTH = 200


def key_from(operator_token: str) -> bytes:
    """The signing key: one-way from the operator token, and used for nothing else."""
    return hmac.new(operator_token.encode(), b"casino stream tickets v1", hashlib.sha256).digest()


def issue(key: bytes, game_id: UUID, caller: Caller, now: float, token_hash: str = "") -> tuple[str, int]:
    """A ticket for ``caller`` on the game's stream, and when it expires
    (Unix time); ``token_hash`` is the hash of the seat's token ("" for the
    operator and the public)."""
    expires = int(now) + LIFETIME
    body = f"{expires}.{caller.actor}.{secrets.token_urlsafe(12)}"
    return f"{body}.{_mac(key, game_id, body, token_hash)}", expires


def redeem(key: bytes, game_id: UUID, ticket: str, now: float,
           token_hash: Callable[[Caller], str | None]) -> Caller | None:
    """The caller a ticket was issued to, if it is genuine, for this game,
    issued under the token the caller's seat has now (``token_hash(caller)``)
    and not expired; else None. Whether it was used is ``use_once``'s to say."""
    if len(ticket) > _MAX_LENGTH or ticket.count(".") != 3:
        return None
    body, _, mac = ticket.rpartition(".")
    expires, actor, _nonce = body.split(".")
    if not expires.isdigit() or now >= int(expires):
        return None
    caller = _caller(actor)
    current = token_hash(caller)
    if current is None or not hmac.compare_digest(mac.encode(), _mac(key, game_id, body, current).encode()):
        return None
    return caller


_USE = """
    WITH expired AS (DELETE FROM stream_ticket_uses WHERE expires_at <= now())
    INSERT INTO stream_ticket_uses (ticket, expires_at)
    SELECT %(mac)s, to_timestamp(%(expires)s) WHERE to_timestamp(%(expires)s) > now()
    ON CONFLICT (ticket) DO NOTHING
    RETURNING 1
"""


def use_once(pool: ConnectionPool, ticket: str) -> bool:
    """Record the use of a ticket ``redeem`` accepted: True the first time,
    in whichever worker, False ever after (and for a ticket the database's
    clock says has expired). Uses of expired tickets are swept on the way."""
    body, _, mac = ticket.rpartition(".")
    with pool.connection() as conn:
        return conn.execute(_USE, {"mac": mac, "expires": int(body.split(".")[0])}).fetchone() is not None


def _mac(key: bytes, game_id: UUID, body: str, token_hash: str) -> str:
    message = b"|".join([PURPOSE, str(game_id).encode(), body.encode(), token_hash.encode()])
    digest = hmac.new(key, message, hashlib.sha256).digest()
    return base64.urlsafe_b64encode(digest).decode().rstrip("=")


def _caller(actor: str) -> Caller:
    if actor == OPERATOR.actor:
        return OPERATOR
    if actor.startswith("seat:"):
        return seat(int(actor.removeprefix("seat:")))
    return PUBLIC

"""Who is asking: a seat, the operator, or the public; their tokens and
stream tickets, and the ``Authenticator`` that tells a token's caller. No
web framework here: the guards that views put in front of themselves are
``service.web.guards``.

Tokens
    Seat tokens are shown once, when a game is created, and only their
    sha256 is kept (``seat_tokens.token_hash``). They are random, except for
    a game created with an ``Idempotency-Key``: its tokens are derived from
    the key and a server secret (``seat_token``), so that a retry of the
    creation, which only the key's holder can send, gets the same tokens
    again without their being kept anywhere. The operator token comes from
    ``CASINO_OPERATOR_TOKEN`` or is generated once and kept in the data
    directory (``operator_token``).

Stream tickets
    A browser's ``EventSource`` cannot send a header, and a token in a URL
    ends up in logs. So a client with a token asks for a ticket and opens
    the stream with ``?ticket=``. A ticket names the caller (never the
    token), opens that one game's stream once within ``TICKET_LIFETIME``
    seconds, and is ``<expires>.<actor>.<nonce>.<mac>``: an HMAC-SHA256 over
    those, the purpose, the game id and the hash of the seat's token (or of
    the operator's), so that it dies with the token it was issued under.
    Signed rather than stored, so every worker accepts every worker's tickets; its one use is
    recorded where every worker sees it (``TicketUses``).
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import os
import re
import secrets
import tempfile
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from enum import StrEnum
from pathlib import Path
from typing import Protocol
from uuid import UUID

# -- callers ----------------------------------------------------------------


class CallerKind(StrEnum):
    SEAT = "seat"
    OPERATOR = "operator"
    PUBLIC = "public"
    SERVICE = "service"  # the service itself: a time-out it claims (service.timeouts)


@dataclass(frozen=True, slots=True)
class Caller:
    kind: CallerKind
    seat: int | None = None

    @property
    def is_operator(self) -> bool:
        return self.kind is CallerKind.OPERATOR

    @property
    def is_seat(self) -> bool:
        return self.kind is CallerKind.SEAT

    @property
    def own_seat(self) -> int:
        """The caller's seat; only for a seat (the guard ``seat_required`` has checked it)."""
        if self.seat is None:
            raise ValueError(f"{self.actor} has no seat")
        return self.seat

    @property
    def actor(self) -> str:
        """How events' metadata and idempotency records name the caller."""
        return f"seat:{self.seat}" if self.is_seat else self.kind.value


PUBLIC = Caller(CallerKind.PUBLIC)
OPERATOR = Caller(CallerKind.OPERATOR)
SERVICE = Caller(CallerKind.SERVICE)


def seat(n: int) -> Caller:
    return Caller(CallerKind.SEAT, n)


def caller_of(actor: str) -> Caller:
    """The caller ``Caller.actor`` names."""
    if actor.startswith("seat:"):
        return seat(int(actor.removeprefix("seat:")))
    return OPERATOR if actor == OPERATOR.actor else PUBLIC


class Unauthenticated(Exception):
    """401: no token where one is needed, or a token that is not valid here."""

    def __init__(self, detail: str, *, invalid_token: bool = False):
        super().__init__(detail)
        self.detail = detail
        self.invalid_token = invalid_token


class Forbidden(Exception):
    """403: a valid token, but not one that may do this."""

    def __init__(self, detail: str):
        super().__init__(detail)
        self.detail = detail


def refused(caller: Caller, action: str) -> Exception:
    """What to raise for a caller who is not the operator and may not ``action``."""
    if caller.is_seat:
        return Forbidden(f"Only the operator may {action}.")
    return Unauthenticated(f"Send the operator's token to {action}.")


# -- tokens -------------------------------------------------------------------

OPERATOR_TOKEN_FILE = "operator-token"


def new_token() -> str:
    """A fresh bearer token: 256 random bits, URL-safe."""
    return secrets.token_urlsafe(32)


def hash_token(token: str) -> str:
    """The sha256 hex digest under which a token (or an idempotency key) is stored and looked up."""
    return hashlib.sha256(token.encode()).hexdigest()


def derived_key(operator_token: str, purpose: bytes) -> bytes:
    """A key for one ``purpose``, one-way from the operator token (the secret
    every worker already shares); knowing it grants nothing the token does not."""
    return hmac.new(operator_token.encode(), purpose, hashlib.sha256).digest()


def seat_key_from(operator_token: str) -> bytes:
    """The secret seat tokens are derived with. Replacing the operator token
    changes it, so a creation retried across that change cannot be given its
    tokens again (the service says so rather than hand out tokens that do not work)."""
    return derived_key(operator_token, b"casino seat tokens v1")


def seat_token(secret: bytes, idempotency_key: str, game_id: UUID, seat_number: int) -> str:
    """The token of a seat in the game created under ``idempotency_key``: as
    long as a random one, and only as hard to guess as the key (the secret
    stays out of the database, so a leaked table yields none)."""
    message = "|".join([idempotency_key, str(game_id), str(seat_number)]).encode()
    digest = hmac.new(secret, message, hashlib.sha256).digest()
    return base64.urlsafe_b64encode(digest).decode().rstrip("=")


def operator_token(directory: Path) -> tuple[str, bool]:
    """The operator token kept in ``directory``, made there on first use.

    Returns ``(token, created)``; ``created`` tells the caller to show the
    token, which it then does only once. The file is readable by its owner
    only, like the database files beside it.
    """
    path = directory / OPERATOR_TOKEN_FILE
    directory.mkdir(parents=True, exist_ok=True)
    if path.exists():
        return path.read_text().strip(), False
    token = new_token()
    # Written aside, then linked into place: link() fails if the file
    # appeared meanwhile, so two processes starting at once agree on one
    # token and neither ever reads a half-written file.
    fd, draft = tempfile.mkstemp(dir=directory, prefix=".operator-token-")
    try:
        with os.fdopen(fd, "w") as file:
            file.write(token + "\n")
        os.link(draft, path)
    except FileExistsError:
        return path.read_text().strip(), False
    finally:
        os.unlink(draft)
    return token, True


# -- stream tickets -------------------------------------------------------------

TICKET_LIFETIME = 60
_ACTOR = re.compile(r"operator|public|seat:[0-9]{1,2}")
_TICKET_PURPOSE = b"events/stream"
_TICKET_MAX_LENGTH = 200


def ticket_key_from(operator_token: str) -> bytes:
    return derived_key(operator_token, b"casino stream tickets v1")


def issue_ticket(key: bytes, game_id: UUID, caller: Caller, now: float, token_hash: str = "") -> tuple[str, int]:
    """A ticket for ``caller`` on the game's stream, and when it expires
    (Unix time); ``token_hash`` is the hash of the seat's or the operator's
    token ("" for the public, whose tickets the key alone vouches for)."""
    expires = int(now) + TICKET_LIFETIME
    body = f"{expires}.{caller.actor}.{secrets.token_urlsafe(12)}"
    return f"{body}.{_ticket_mac(key, game_id, body, token_hash)}", expires


def redeem_ticket(key: bytes, game_id: UUID, ticket: str, now: float,
                  token_hash: Callable[[Caller], str | None]) -> Caller | None:
    """The caller a ticket was issued to, if it is genuine, for this game,
    issued under the token the caller's seat has now (``token_hash(caller)``)
    and not expired; else None. Whether it was used is the database's to say."""
    if len(ticket) > _TICKET_MAX_LENGTH or ticket.count(".") != 3:
        return None
    body, _, mac = ticket.rpartition(".")
    expires, actor, _nonce = body.split(".")
    if not expires.isdigit() or now >= int(expires) or not _ACTOR.fullmatch(actor):
        return None
    caller = caller_of(actor)
    current = token_hash(caller)
    if current is None or not hmac.compare_digest(mac.encode(), _ticket_mac(key, game_id, body, current).encode()):
        return None
    return caller


def ticket_use(ticket: str) -> tuple[str, int]:
    """What records a ticket's one use: its MAC, and when it expires."""
    body, _, mac = ticket.rpartition(".")
    return mac, int(body.split(".")[0])


def _ticket_mac(key: bytes, game_id: UUID, body: str, token_hash: str) -> str:
    message = b"|".join([_TICKET_PURPOSE, str(game_id).encode(), body.encode(), token_hash.encode()])
    digest = hmac.new(key, message, hashlib.sha256).digest()
    return base64.urlsafe_b64encode(digest).decode().rstrip("=")


# -- who is asking --------------------------------------------------------------


class SeatTokens(Protocol):
    """Where seat tokens' hashes are kept (an event store)."""

    def seat_token_hashes(self, game_id: UUID | str) -> dict[int, str]: ...


class TicketUses(Protocol):
    def use_once(self, mac: str, expires: int) -> bool: ...


#: Seconds a seat token found in the database is trusted without asking again.
TOKEN_TRUST_SECONDS = 60.0
#: Tokens remembered at most, per process (least recently used first out).
TOKENS_REMEMBERED = 65536

# The scheme's name is case-insensitive (RFC 9110, section 11.1); the token is not.
_BEARER = re.compile(r"(?i:Bearer) +([A-Za-z0-9._~+/=-]{1,256})")


class Authenticator:
    """Tells who a bearer token or a stream ticket is, for one app.

    A seat token found is trusted for ``TOKEN_TRUST_SECONDS``: the service
    never changes a game's tokens, but one withdrawn in the database stops
    working everywhere within that time.
    """

    def __init__(self, operator_token: str | None, seats: SeatTokens, tickets: TicketUses | None = None,
                 clock: Callable[[], float] = time.monotonic):
        self._operator = operator_token.encode() if operator_token else None
        self._operator_hash = hash_token(operator_token) if operator_token else None
        self._seats = seats
        self._tickets = tickets
        self._clock = clock
        # Without an operator token (never so under `casino serve`), a random
        # key: tickets then hold within this process only.
        self._ticket_key = ticket_key_from(operator_token) if operator_token else secrets.token_bytes(32)
        self._known: OrderedDict[tuple[UUID, str], tuple[int, float]] = OrderedDict()
        self._lock = threading.Lock()

    def caller(self, header: str | None, game_id: UUID | None) -> Caller:
        """The caller named by an ``Authorization`` header: the operator, a
        seat of this game, or (without the header) the public."""
        if header is None:
            return PUBLIC
        match = _BEARER.fullmatch(header.strip())
        if not match:
            raise Unauthenticated("Send your token as 'Authorization: Bearer <token>'.")
        token = match.group(1)
        if self._operator is not None and hmac.compare_digest(token.encode(), self._operator):
            return OPERATOR
        if game_id is not None:
            found = self.seat_for_token(game_id, hash_token(token))
            if found is not None:
                return seat(found)
        raise Unauthenticated("This token is not valid for this game." if game_id else
                              "This is not the operator's token.", invalid_token=True)

    def seat_for_token(self, game_id: UUID, token_hash: str) -> int | None:
        """The seat the token is for, or None."""
        key = (game_id, token_hash)
        with self._lock:
            known = self._known.get(key)
            if known is not None and known[1] > self._clock():
                self._known.move_to_end(key)
                return known[0]
        found = next((seat for seat, kept in self._seats.seat_token_hashes(game_id).items()
                      if hmac.compare_digest(kept, token_hash)), None)
        if found is not None:
            with self._lock:
                self._known[key] = (found, self._clock() + TOKEN_TRUST_SECONDS)
                self._known.move_to_end(key)
                while len(self._known) > TOKENS_REMEMBERED:
                    self._known.popitem(last=False)
        return found

    def ticket(self, game_id: UUID, caller: Caller, now: float) -> tuple[str, int]:
        """A stream ticket for ``caller`` and when it expires (Unix time)."""
        return issue_ticket(self._ticket_key, game_id, caller, now, self._token_hash(game_id, caller) or "")

    def redeem(self, game_id: UUID, ticket: str, now: float) -> Caller:
        """The caller of a genuine, unexpired ticket for this game, used now
        for the first and only time; else ``Unauthenticated``."""
        caller = redeem_ticket(self._ticket_key, game_id, ticket, now,
                               lambda named: self._token_hash(game_id, named))
        if caller is None or self._tickets is None or not self._tickets.use_once(*ticket_use(ticket)):
            raise Unauthenticated("This stream ticket is not valid for this game, was used or has expired; "
                                  "ask for a new one.", invalid_token=True)
        return caller

    def _token_hash(self, game_id: UUID, caller: Caller) -> str | None:
        """The hash of the token the caller has now: its seat's, or the
        operator's; "" for the public, whose tickets the key alone vouches for."""
        if caller.is_seat:
            return self._seats.seat_token_hashes(game_id).get(caller.own_seat)
        if caller.is_operator:
            return self._operator_hash
        return ""

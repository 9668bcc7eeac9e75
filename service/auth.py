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
    seconds, and is ``<actor>.<nonce>.<issued>.<mac>``, signed by
    itsdangerous' ``TimestampSigner`` (HMAC-SHA256, the time it was issued
    at written in): under a key made from the ticket key and the purpose,
    the game id and the hash of the seat's token (or of the operator's), so
    that it dies with the token it was issued under.
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
from collections.abc import Callable
from dataclasses import dataclass
from enum import StrEnum
from pathlib import Path
from typing import Any, Protocol
from uuid import UUID

from cachetools import TTLCache
from itsdangerous import BadData, BadSignature, TimestampSigner, base64_decode, base64_encode

# -- callers ----------------------------------------------------------------


class CallerKind(StrEnum):
    SEAT = "seat"
    OPERATOR = "operator"
    PUBLIC = "public"
    SERVICE = "service"  # the service itself: a time-out it claims (service.timeouts)
    PLAYER = "player"  # a player who holds no seat in the game asked about (or asks of no game)


@dataclass(frozen=True, slots=True)
class Caller:
    """Who asks. A seat is named by its number; ``player`` is the player
    who holds it, when a player token named it. A player with no seat in
    the game asked about is a ``PLAYER``, who sees what the public sees."""

    kind: CallerKind
    seat: int | None = None
    player: UUID | None = None

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
    def is_player(self) -> bool:
        """A player token named the caller (seated in the game or not)."""
        return self.player is not None

    @property
    def own_player(self) -> UUID:
        """The caller's player; only for a player (the guard ``player_required`` has checked it)."""
        if self.player is None:
            raise ValueError(f"{self.actor} is no player")
        return self.player

    @property
    def actor(self) -> str:
        """How events' metadata and idempotency records name the caller."""
        if self.is_seat:
            return f"seat:{self.seat}"
        if self.kind is CallerKind.PLAYER:
            return f"player:{self.own_player.hex}"
        return self.kind.value


PUBLIC = Caller(CallerKind.PUBLIC)
OPERATOR = Caller(CallerKind.OPERATOR)
SERVICE = Caller(CallerKind.SERVICE)


def seat(n: int, player: UUID | None = None) -> Caller:
    return Caller(CallerKind.SEAT, n, player)


def player(player_id: UUID, seat_number: int | None = None) -> Caller:
    """A player: the holder of ``seat_number`` in the game asked about, or seated nowhere there."""
    return Caller(CallerKind.PLAYER, player=player_id) if seat_number is None else seat(seat_number, player_id)


def caller_of(actor: str) -> Caller:
    """The caller ``Caller.actor`` names."""
    if actor.startswith("seat:"):
        return seat(int(actor.removeprefix("seat:")))
    if actor.startswith("player:"):
        return player(UUID(hex=actor.removeprefix("player:")))
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
    """What to raise for a caller who is not the operator and may not
    ``action``: 403 for a valid token (a seat's, a player's), 401 without one."""
    if caller.is_seat or caller.is_player:
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


def created_under(actor: str, idempotency_key: str) -> UUID:
    """The id of the game ``actor`` creates under ``idempotency_key``, and
    the id its key's record is filed under: so the record lies with the game
    (on Citus, on the game's node, in its one transaction), and a retry
    finds both from the key alone. Made from the key's stored hash
    (``hash_token``), one-way: the id, which anyone may see, tells nothing
    of the key; and a record filed before under the one id every creation
    shared (the nil UUID), which keeps only that hash, is moved to it
    (migration 0017, whose SQL makes the same id)."""
    made = hashlib.sha256(f"casino game id|{actor}|{hash_token(idempotency_key)}".encode()).digest()
    return UUID(bytes=made[:16], version=4)


#: What begins every player token and no seat token (a seat's has no '.'), so
#: that a token says where to look it up.
PLAYER_TOKEN_PREFIX = "player."


def new_player_token() -> str:
    """A fresh player token: 256 random bits, after ``PLAYER_TOKEN_PREFIX``."""
    return PLAYER_TOKEN_PREFIX + new_token()


def player_key_from(operator_token: str) -> bytes:
    """The secret the ids and tokens of players registered with an
    idempotency key are derived with (as ``seat_key_from``'s for seats)."""
    return derived_key(operator_token, b"casino player tokens v1")


def player_identity(secret: bytes, idempotency_key: str) -> tuple[UUID, str]:
    """The id and the token of the player registered under
    ``idempotency_key``: a retry of the registration makes them again. The
    id comes from the key alone (one-way: it tells nothing of the key), so a
    retry made after the secret was replaced finds the player, and is told
    that its token cannot be made again; the token needs the secret too."""
    made = hashlib.sha256(b"casino player id|" + idempotency_key.encode()).digest()
    token = hmac.new(secret, b"token|" + idempotency_key.encode(), hashlib.sha256).digest()
    return (UUID(bytes=made[:16], version=4),
            PLAYER_TOKEN_PREFIX + base64.urlsafe_b64encode(token).decode().rstrip("="))


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
_ACTOR = re.compile(r"operator|public|seat:[0-9]{1,2}|player:[0-9a-f]{32}")
#: What a ticket opens: a game's stream, or a player's (``PLAYER_STREAM``).
GAME_STREAM = b"events/stream"
PLAYER_STREAM = b"players/stream"
_TICKET_MAX_LENGTH = 200


def ticket_key_from(operator_token: str) -> bytes:
    return derived_key(operator_token, b"casino stream tickets v1")


def ticket_actor(caller: Caller) -> str:
    """How a ticket names its caller: a player by the player (whose seat is
    looked up again when the ticket is redeemed), anyone else by ``actor``."""
    return f"player:{caller.own_player.hex}" if caller.is_player else caller.actor


class _TicketSigner(TimestampSigner):
    """itsdangerous' signer of a value and the time it is signed at, on the
    caller's clock (``now``) rather than the machine's, under a key bound to
    what the ticket opens (``purpose``, ``scope``) and to the token it is
    issued under (``token_hash``)."""

    def __init__(self, key: bytes, purpose: bytes, scope: UUID, token_hash: str, now: float):
        super().__init__(key, salt=b"|".join([purpose, str(scope).encode(), token_hash.encode()]),
                         key_derivation="hmac", digest_method=hashlib.sha256)
        self._now = now

    def get_timestamp(self) -> int:
        return int(self._now)


def issue_ticket(key: bytes, scope: UUID, caller: Caller, now: float, token_hash: str = "",
                 purpose: bytes = GAME_STREAM) -> tuple[str, int]:
    """A ticket for ``caller`` on the stream of ``scope`` (a game, or for
    ``PLAYER_STREAM`` the player), and when it expires (Unix time);
    ``token_hash`` is the hash of the seat's, the player's or the operator's
    token ("" for the public, whose tickets the key alone vouches for)."""
    signer = _TicketSigner(key, purpose, scope, token_hash, now)
    ticket = signer.sign(f"{ticket_actor(caller)}.{secrets.token_urlsafe(12)}").decode()
    return ticket, int(now) + TICKET_LIFETIME


def redeem_ticket(key: bytes, scope: UUID, ticket: str, now: float,
                  token_hash: Callable[[Caller], str | None], purpose: bytes = GAME_STREAM) -> Caller | None:
    """The caller a ticket was issued to, if it is genuine, for this stream,
    issued under the token the caller has now (``token_hash(caller)``) and
    not expired; else None. Whether it was used is the database's to say."""
    if len(ticket) > _TICKET_MAX_LENGTH or ticket.count(".") != 3 or not _canonical(ticket.rpartition(".")[2]):
        return None
    actor = ticket.partition(".")[0]
    if not _ACTOR.fullmatch(actor):
        return None
    caller = caller_of(actor)
    current = token_hash(caller)
    if current is None:
        return None
    try:
        _, issued = _TicketSigner(key, purpose, scope, current, now).unsign(ticket, return_timestamp=True)
    except BadSignature:
        return None
    return caller if now < issued.timestamp() + TICKET_LIFETIME else None


def _canonical(mac: str) -> bool:
    """Whether ``mac`` is its bytes' one base64 spelling. Its last letter
    carries bits the bytes do not use, so other spellings decode alike and
    would pass the signature's check: each would be a use of the ticket
    again, as ``ticket_use`` records a use by the MAC as sent."""
    try:
        return base64_encode(base64_decode(mac)).decode() == mac
    except BadData:
        return False


def ticket_player(ticket: str) -> UUID | None:
    """The player a ticket says it was issued to (not yet checked), or None."""
    actor = ticket.partition(".")[0]
    return caller_of(actor).player if _ACTOR.fullmatch(actor) and actor.startswith("player:") else None


def ticket_use(ticket: str) -> tuple[str, int]:
    """What records a ticket's one use: its MAC, and when it expires."""
    _, _, issued, mac = ticket.split(".")
    return mac, int.from_bytes(base64_decode(issued), "big") + TICKET_LIFETIME


# -- who is asking --------------------------------------------------------------


class SeatTokens(Protocol):
    """Where seat tokens' hashes are kept (an event store)."""

    def seat_token_hashes(self, game_id: UUID | str) -> dict[int, str]: ...


class PlayerTokens(Protocol):
    """Where players' token hashes, and the seats players hold, are kept
    (``service.players.Players``)."""

    def player_for_token(self, token_hash: str) -> UUID | None: ...

    def token_hash_of(self, player_id: UUID) -> str | None: ...

    def seat_of(self, player_id: UUID, game_id: UUID) -> int | None: ...


class TicketUses(Protocol):
    def use_once(self, mac: str, expires: int) -> bool: ...


#: Seconds a token found in the database is trusted without asking again.
TOKEN_TRUST_SECONDS = 60.0
#: Tokens remembered at most, per process (least recently used first out).
TOKENS_REMEMBERED = 65536
_UNKNOWN = object()

# The scheme's name is case-insensitive (RFC 9110, section 11.1); the token is not.
_BEARER = re.compile(r"(?i:Bearer) +([A-Za-z0-9._~+/=-]{1,256})")


class Authenticator:
    """Tells who a bearer token or a stream ticket is, for one app.

    What the database says of a seat's token is trusted for ``TOKEN_TRUST_SECONDS``
    (one withdrawn there stops working everywhere within that time; a
    player's token is looked up every time, since a player may replace it),
    with one exception: who holds a seat changes while a game waits for its
    players (a seat is left, and joined by someone else), so which seat a
    token names in a game is remembered only once ``settled(game)`` says
    its seats can no longer change. That is asked before the database is,
    and a game once settled stays so: what is then read holds for good.
    """

    def __init__(self, operator_token: str | None, seats: SeatTokens, tickets: TicketUses | None = None,
                 clock: Callable[[], float] = time.monotonic, *, players: PlayerTokens | None = None,
                 settled: Callable[[UUID], bool] = lambda game_id: True):
        self._operator = operator_token.encode() if operator_token else None
        self._operator_hash = hash_token(operator_token) if operator_token else None
        self._seats = seats
        self._players = players
        self._tickets = tickets
        self._clock = clock
        self._settled = settled
        # Without an operator token (never so under `casino serve`), a random
        # key: tickets then hold within this process only.
        self._ticket_key = ticket_key_from(operator_token) if operator_token else secrets.token_bytes(32)
        self._known: TTLCache = TTLCache(maxsize=TOKENS_REMEMBERED, ttl=TOKEN_TRUST_SECONDS, timer=clock)
        self._lock = threading.Lock()

    def caller(self, header: str | None, game_id: UUID | None, wanted: str = "the operator's token") -> Caller:
        """The caller named by an ``Authorization`` header: the operator, a
        seat of this game (by its seat token, or by the token of the player
        who holds it), a player, or (without the header) the public. A token
        that is none of these is refused with a sentence that says what kind
        it is not, and what was ``wanted`` (asked of no game)."""
        if header is None:
            return PUBLIC
        match = _BEARER.fullmatch(header.strip())
        if not match:
            raise Unauthenticated("Send your token as 'Authorization: Bearer <token>'.")
        token = match.group(1)
        if self._operator is not None and hmac.compare_digest(token.encode(), self._operator):
            return OPERATOR
        if token.startswith(PLAYER_TOKEN_PREFIX):
            found_player = self.player_for_token(hash_token(token))
            if found_player is None:
                raise Unauthenticated("This player token is not valid: no player has it (a token stops working"
                                      " when it is replaced, or moved to another device).", invalid_token=True)
            return player(found_player, self.player_seat(game_id, found_player) if game_id else None)
        if game_id is not None:
            found = self.seat_for_token(game_id, hash_token(token))
            if found is not None:
                return seat(found)
            raise Unauthenticated("This token is no seat's of this game (a seat's token works only in its own game),"
                                  " nor a player token or the operator's.", invalid_token=True)
        raise Unauthenticated(f"This is not the operator's token, nor a player token (a seat's token works only in"
                              f" its own game): send {wanted}.", invalid_token=True)

    def seat_for_token(self, game_id: UUID, token_hash: str) -> int | None:
        """The seat the token is for, or None."""
        def look_up() -> int | None:
            return next((seat for seat, kept in self._seats.seat_token_hashes(game_id).items()
                         if hmac.compare_digest(kept, token_hash)), None)
        return self._recalled(("seat", game_id, token_hash), look_up, self._settled(game_id), keep_none=False)

    def player_for_token(self, token_hash: str) -> UUID | None:
        """The player whose token this is, or None: asked every time (never
        remembered), so that a token replaced (``POST /v1/players/me/token``,
        a claimed transfer) stops working at once, in every process."""
        return self._players.player_for_token(token_hash) if self._players else None

    def player_seat(self, game_id: UUID, player_id: UUID) -> int | None:
        """The seat the player holds in the game, or None."""
        players = self._players
        return self._recalled(("held", game_id, player_id.hex),
                              lambda: players.seat_of(player_id, game_id) if players else None,
                              self._settled(game_id), keep_none=True)

    def _recalled(self, key: tuple[str, UUID | str, str], look_up: Callable[[], Any], keep: bool, *,
                  keep_none: bool) -> Any:
        """What ``look_up()`` answers, remembered under ``key`` when ``keep``
        (and the answer is not None, unless ``keep_none``) for
        ``TOKEN_TRUST_SECONDS``, in a ``cachetools.TTLCache`` of the
        ``TOKENS_REMEMBERED`` least recently used."""
        with self._lock:
            known = self._known.get(key, _UNKNOWN)
        if known is not _UNKNOWN:
            return known
        found = look_up()
        if keep and (found is not None or keep_none):
            with self._lock:
                self._known[key] = found
        return found

    def ticket(self, game_id: UUID, caller: Caller, now: float) -> tuple[str, int]:
        """A ticket for ``caller`` on the game's stream, and when it expires (Unix time)."""
        return issue_ticket(self._ticket_key, game_id, caller, now, self._token_hash(caller, game_id) or "")

    def redeem(self, game_id: UUID, ticket: str, now: float) -> Caller:
        """The caller of a genuine, unexpired ticket for this game's stream,
        used now for the first and only time; else ``Unauthenticated``."""
        caller = redeem_ticket(self._ticket_key, game_id, ticket, now,
                               lambda named: self._token_hash(named, game_id))
        caller = self._spent(caller, ticket, "this game")
        return player(caller.own_player, self.player_seat(game_id, caller.own_player)) if caller.is_player else caller

    def player_ticket(self, caller: Caller, now: float) -> tuple[str, int]:
        """A ticket for the player ``caller`` on their own stream, and when it expires."""
        return issue_ticket(self._ticket_key, caller.own_player, caller, now, self._token_hash(caller) or "",
                            PLAYER_STREAM)

    def redeem_player(self, ticket: str, now: float) -> Caller:
        """The player of a genuine, unexpired ticket for the player's own
        stream (the ticket names the player, and is signed for that player's
        stream only), used now for the first and only time; else ``Unauthenticated``."""
        named = ticket_player(ticket)
        caller = redeem_ticket(self._ticket_key, named, ticket, now, self._token_hash, PLAYER_STREAM) if named else None
        if caller is not None and caller.player != named:
            caller = None
        return self._spent(caller, ticket, "a player's stream")

    def _spent(self, caller: Caller | None, ticket: str, whose: str) -> Caller:
        if caller is None or self._tickets is None or not self._tickets.use_once(*ticket_use(ticket)):
            raise Unauthenticated(f"This stream ticket is not valid for {whose}, was used or has expired; "
                                  "ask for a new one.", invalid_token=True)
        return caller

    def _token_hash(self, caller: Caller, game_id: UUID | None = None) -> str | None:
        """The hash of the token the caller has now: a player's, a seat's of
        the game, or the operator's; "" for the public, whose tickets the
        key alone vouches for."""
        if caller.is_player:
            return self._players.token_hash_of(caller.own_player) if self._players else None
        if caller.is_seat:
            return self._seats.seat_token_hashes(game_id).get(caller.own_seat) if game_id else None
        if caller.is_operator:
            return self._operator_hash
        return ""

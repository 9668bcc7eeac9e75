"""Bearer tokens: stored only as their sha256.

Seat tokens are shown once, when a game is created, and the database keeps
their hashes (``seat_tokens.token_hash``). They are random, except for a game
created with an ``Idempotency-Key``: its tokens are derived from the key and
a server secret (``seat_token``), so that a retry of the creation, which
only the key's holder can send, gets the same tokens again without their
being kept anywhere. The operator token comes from ``CASINO_OPERATOR_TOKEN``
or is generated once and kept in the data directory.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import os
import secrets
import tempfile
from pathlib import Path
from uuid import UUID

OPERATOR_TOKEN_FILE = "operator-token"


def new_token() -> str:
    """A fresh bearer token: 256 random bits, URL-safe."""
    return secrets.token_urlsafe(32)


def seat_key_from(operator_token: str) -> bytes:
    """The secret seat tokens are derived with: one-way from the operator
    token, the secret every worker shares, and used for nothing else.
    Replacing the operator token changes it, so a creation retried across
    that change gets tokens that do not work."""
    return hmac.new(operator_token.encode(), b"casino seat tokens v1", hashlib.sha256).digest()


def seat_token(secret: bytes, idempotency_key: str, game_id: UUID, seat: int) -> str:
    """The token of ``seat`` in the game created under ``idempotency_key``:
    as long as a random one, and only as hard to guess as the key (the
    secret also stays out of the database, so a leaked table yields none)."""
    message = "|".join([idempotency_key, str(game_id), str(seat)]).encode()
    digest = hmac.new(secret, message, hashlib.sha256).digest()
    return base64.urlsafe_b64encode(digest).decode().rstrip("=")


def hash_token(token: str) -> str:
    """The sha256 hex digest under which a token is stored and looked up."""
    return hashlib.sha256(token.encode()).hexdigest()


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

"""Bearer tokens: made with ``secrets``, stored only as their sha256.

Seat tokens are shown once, when a game is created, and the database keeps
their hashes (``seat_tokens.token_hash``). The operator token comes from
``CASINO_OPERATOR_TOKEN`` or is generated once and kept in the data directory.
"""

from __future__ import annotations

import hashlib
import os
import secrets
import tempfile
from pathlib import Path

OPERATOR_TOKEN_FILE = "operator-token"


def new_token() -> str:
    """A fresh bearer token: 256 random bits, URL-safe."""
    return secrets.token_urlsafe(32)


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

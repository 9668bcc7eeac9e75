"""The cursors of ``/moves`` pages, signed by the service.

A page of legal moves starts where its cursor says (``domain.paging``):
after the moves given before it, with the work the generation had done.
Both are counts the service would have to trust, and the next page
generates again up to them: a cursor written by hand, with a count in the
billions, would have one request list every move of a crowded table,
which can be millions. Signed (HMAC-SHA256 under a key derived from the
operator token, so every worker shares it), a cursor can only be one the
service gave out, for the same game, seat and version, and a page costs
no more than the pages that led to it.

A cursor reads ``<version>.<given>.<work>.<narrowing>.<signature>``; the
narrowing is eight hex digits naming the card, action and targets it was
listed with (``service.views.MovesAsked.narrowing_tag``).
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass
from uuid import UUID

from itsdangerous import BadSignature, Signer

from domain.paging import Resume

from service.auth import derived_key

_CURSOR = re.compile(r"([0-9]{1,9})\.([0-9]{1,9})\.([0-9]{1,12})\.([0-9a-f]{8})\.[A-Za-z0-9_-]{43}")


def cursor_key_from(operator_token: str) -> bytes:
    """The key the cursors are signed with."""
    return derived_key(operator_token, b"casino moves cursors v1")


@dataclass(frozen=True, slots=True)
class MoveCursor:
    """Where a page of moves starts: the game's ``version`` it was listed
    at, the place in the list (``after``), and the ``narrowing`` it was
    listed with."""

    version: int
    after: Resume
    narrowing: str


class MoveCursors:
    """Makes and reads the cursors of ``/moves`` pages under ``key``."""

    def __init__(self, key: bytes):
        self._key = key

    def _signer(self, game_id: UUID, seat: int) -> Signer:
        return Signer(self._key, salt=f"casino moves cursor|{game_id}|{seat}".encode(), sep=".",
                      key_derivation="hmac", digest_method=hashlib.sha256)

    def issue(self, game_id: UUID, seat: int, cursor: MoveCursor) -> str:
        """The text of ``cursor``, for ``seat`` of game ``game_id``."""
        value = f"{cursor.version}.{cursor.after.given}.{cursor.after.work}.{cursor.narrowing}"
        return self._signer(game_id, seat).sign(value).decode()

    def read(self, text: str, game_id: UUID, seat: int) -> MoveCursor | None:
        """The cursor ``text`` names, if this service gave it out to ``seat``
        of game ``game_id``; else None."""
        if not _CURSOR.fullmatch(text):
            return None
        try:
            value = self._signer(game_id, seat).unsign(text).decode()
        except BadSignature:
            return None
        version, given, work, narrowing = value.split(".")
        return MoveCursor(int(version), Resume(int(given), int(work)), narrowing)

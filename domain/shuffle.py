"""Provably fair dealing: a deck order derived from a secret seed.

Before a hand is dealt the server commits to a 32-byte secret *seed* by
publishing ``commitment(seed)``, its SHA-256. Seats may then add their own
*client seeds*. The deck is a pure function of the seed, the client seeds
and the hand number (:func:`deck_from_seed`), so once the seed is revealed
anyone can recompute the deck and check every card dealt; and since the
commitment came first, the server could not pick a seed to suit the client
seeds.

The procedure (also in ``docs/fairness.md``, with a standalone script):

1. Start from the new-deck order: AS 2S ... KS, AH ... KH, AD ... KD, AC ... KC
   (without the cards a variant removes: five-hand has no 2H, 2D, 2C, the
   forty-card deck of Diamond no jacks, queens or kings).
2. A stream of bytes is made of blocks ``HMAC-SHA256(key=seed, message)``,
   where the message is ``b"casino-shuffle-v1|<hand>|<client seeds joined
   by '|'>|<block number>"`` (decimal numbers, UTF-8), block numbers 0, 1, ...
3. A number below ``n`` is drawn from the next 4 bytes, read as a
   big-endian unsigned integer ``x``; if ``x`` is at or above the largest
   multiple of ``n`` not over 2**32 it is discarded and 4 more bytes are
   read (so every number below ``n`` is exactly as likely).
4. Fisher-Yates: for ``i`` from the last position down to 1, draw ``j`` below ``i + 1`` and
   swap the cards at ``i`` and ``j``. The first card is the top of the deck.
"""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Iterator, Sequence

from .cards import Card, full_deck

DOMAIN_TAG = "casino-shuffle-v1"


def commitment(seed: bytes) -> str:
    """The public commitment to a seed: its SHA-256, in hex."""
    return hashlib.sha256(seed).hexdigest()


def _stream(seed: bytes, hand_number: int, client_seeds: Sequence[str]) -> Iterator[int]:
    block = 0
    while True:
        message = "|".join([DOMAIN_TAG, str(hand_number), *client_seeds, str(block)]).encode()
        yield from hmac.new(seed, message, hashlib.sha256).digest()
        block += 1


def _below(stream: Iterator[int], n: int) -> int:
    limit = (2**32 // n) * n
    while True:
        x = int.from_bytes(bytes(next(stream) for _ in range(4)), "big")
        if x < limit:
            return x % n


def deck_from_seed(seed: bytes, hand_number: int, client_seeds: Sequence[str] = (),
                   cards: Sequence[Card] | None = None) -> tuple[Card, ...]:
    """The deck order, top card first, for this seed, hand and client seeds;
    ``cards`` is the game's deck in new-deck order (all 52 by default)."""
    deck = list(cards if cards is not None else full_deck())
    stream = _stream(seed, hand_number, client_seeds)
    for i in range(len(deck) - 1, 0, -1):
        j = _below(stream, i + 1)
        deck[i], deck[j] = deck[j], deck[i]
    return tuple(deck)

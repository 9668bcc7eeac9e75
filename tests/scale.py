"""How long the property, differential and fuzz tests run.

Bounded by default, so that ``make test`` stays within minutes;
``CASINO_LONG_TESTS=1`` runs them many times longer, and
``CASINO_QUICK_TESTS=1`` (what ``make test-fast`` sets) shorter still.
"""

from __future__ import annotations

import os

LONG = os.environ.get("CASINO_LONG_TESTS") == "1"
QUICK = not LONG and os.environ.get("CASINO_QUICK_TESTS") == "1"


def scaled(default: int, *, long: int, quick: int | None = None) -> int:
    """``default``, or the long run's or the quick run's count."""
    if LONG:
        return long
    if QUICK and quick is not None:
        return quick
    return default

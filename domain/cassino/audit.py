"""Auditing a Cassino game's deals against the commitments in its log
(see :mod:`domain.shuffle` for the derivation)."""

from __future__ import annotations

from collections.abc import Iterable

from ..shuffle import commitment, deck_from_seed
from .dealing import deck_for
from .events import Event, GameCreated, HandDealt, SeedRevealed, ShuffleCommitted


def audit_deals(events: Iterable[Event]) -> list[str]:
    """Check every deal of a game's events against its commitments.

    For each hand dealt from a committed seed: the committed seed must hash to
    its commitment, the deal must name that commitment, the deck must be the
    one derived from the seed, and a revealed seed must be the committed one.
    Returns one sentence per problem found (none for a fair game).
    """
    problems: list[str] = []
    cards = None
    committed: dict[int, ShuffleCommitted] = {}
    for e in events:
        if isinstance(e, GameCreated):
            cards = deck_for(e.options)
        elif isinstance(e, ShuffleCommitted):
            committed[e.hand_number] = e
            if commitment(bytes.fromhex(e.seed)) != e.commitment:
                problems.append(f"hand {e.hand_number}: the committed seed does not hash to its commitment")
        elif isinstance(e, SeedRevealed):
            promised = committed.get(e.hand_number)
            if promised is None or promised.seed != e.seed:
                problems.append(f"hand {e.hand_number}: the revealed seed is not the committed one")
        elif isinstance(e, HandDealt) and not e.fixed:
            promised = committed.get(e.hand_number)
            if promised is None or promised.commitment != e.commitment:
                problems.append(f"hand {e.hand_number}: dealt without its published commitment")
            elif e.deck != deck_from_seed(bytes.fromhex(promised.seed), e.hand_number, e.client_seeds, cards):
                problems.append(f"hand {e.hand_number}: the deck is not the one its seed gives")
    return problems

"""Checking a game's shuffles against their commitments, as
``domain.shuffle.audit_deals`` does for Cassino's hands.

Every seeded shuffle (the deal, each reshuffle after a tie) names the
commitment it used; its seed, once revealed, must hash to that commitment
and give exactly that deck from the cards it shuffled.
"""

from __future__ import annotations

from ..cards import full_deck
from ..shuffle import commitment
from .dealing import seeded_deck
from .events import DeckReshuffled, MoneyDealt, ShufflePromised, ShuffleRevealed


def audit_shuffles(events) -> list[str]:
    """One sentence per problem found; none for a fair game."""
    problems: list[str] = []
    promised: dict[int, ShufflePromised] = {}
    number = 0
    for e in events:
        if isinstance(e, ShufflePromised):
            promised[e.shuffle] = e
            if commitment(bytes.fromhex(e.seed)) != e.commitment:
                problems.append(f"shuffle {e.shuffle}: the committed seed does not hash to its commitment")
        elif isinstance(e, ShuffleRevealed):
            if e.shuffle not in promised or promised[e.shuffle].seed != e.seed:
                problems.append(f"shuffle {e.shuffle}: the revealed seed is not the committed one")
        elif isinstance(e, (MoneyDealt, DeckReshuffled)):
            number = e.shuffle if isinstance(e, DeckReshuffled) else 1
            if e.fixed:
                continue
            cards = full_deck() if isinstance(e, MoneyDealt) else e.deck
            seed = promised.get(number)
            if seed is None or seed.commitment != e.commitment:
                problems.append(f"shuffle {number}: made without its published commitment")
            elif e.deck != seeded_deck(seed.seed, number, cards):
                problems.append(f"shuffle {number}: the deck is not the one its seed gives")
    return problems

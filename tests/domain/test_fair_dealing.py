"""Provably fair dealing: commit, deal from the seed, reveal.

The procedure is in ``domain/shuffle.py`` and ``docs/fairness.md``.
"""

import hashlib
import hmac
from collections import Counter

import pytest

from domain import RuleViolation, full_deck
from domain.cassino import CountOut, CreateGame, Deal, SetClientSeed, decide, fold
from domain.cassino.events import HandDealt, SeedRevealed, ShuffleCommitted
from domain.shuffle import commitment, deck_from_seed

SEED = bytes(range(32))


def created(seed=SEED, players=2):
    return decide(None, CreateGame("cassino", tuple(f"P{i}" for i in range(players)), players - 1, {}, seed=seed))


def test_a_game_commits_to_its_first_seed_when_created():
    _, committed = created()
    assert committed == ShuffleCommitted(1, hashlib.sha256(SEED).hexdigest(), SEED.hex())


def test_the_deal_comes_from_the_committed_seed():
    events = created()
    [dealt] = decide(fold(events), Deal())
    assert not dealt.fixed and dealt.commitment == commitment(SEED)
    assert dealt.deck == deck_from_seed(SEED, 1)


def test_client_seeds_are_mixed_in_and_recorded():
    events = created()
    events += decide(fold(events), SetClientSeed(0, "lucky-7"))
    [dealt] = decide(fold(events), Deal())
    assert dealt.client_seeds == ("lucky-7",)
    assert dealt.deck == deck_from_seed(SEED, 1, ["lucky-7"]) != deck_from_seed(SEED, 1)


def test_client_seeds_are_set_between_hands_only():
    events = created()
    events += decide(fold(events), Deal())
    with pytest.raises(RuleViolation) as refused:
        decide(fold(events), SetClientSeed(0, "late"))
    assert refused.value.rule == "hand_in_progress"


def test_the_seed_is_revealed_when_the_hand_ends():
    events = created()
    events += decide(fold(events), Deal())
    ended = decide(fold(events), CountOut(0))
    assert SeedRevealed(1, SEED.hex()) in ended


def test_without_a_seed_a_deck_must_be_given():
    events = decide(None, CreateGame("cassino", ("A", "B"), 1, {}))
    with pytest.raises(RuleViolation) as refused:
        decide(fold(events), Deal())
    assert refused.value.rule == "no_shuffle_committed"
    [dealt] = decide(fold(events), Deal(full_deck()))
    assert dealt.fixed and dealt.commitment is None


def test_the_derivation_follows_the_documented_procedure_step_by_step():
    """An independent, literal reading of docs/fairness.md."""
    stream = b""
    block = 0
    while len(stream) < 4000:
        message = f"casino-shuffle-v1|3|a|b|{block}".encode()
        stream += hmac.new(SEED, message, hashlib.sha256).digest()
        block += 1
    deck = [c.code for c in full_deck()]
    pos = 0
    for i in range(51, 0, -1):
        n = i + 1
        while True:
            x = int.from_bytes(stream[pos:pos + 4], "big")
            pos += 4
            if x < (2**32 // n) * n:
                break
        j = x % n
        deck[i], deck[j] = deck[j], deck[i]
    assert [c.code for c in deck_from_seed(SEED, 3, ["a", "b"])] == deck


def test_the_top_card_is_spread_evenly_over_many_seeds():
    tops = Counter(deck_from_seed(i.to_bytes(32, "big"), 1)[0].code for i in range(5200))
    assert len(tops) == 52
    assert max(tops.values()) < 170 and min(tops.values()) > 45  # expected 100 each


def test_an_old_hand_dealt_event_without_fairness_fields_still_reads():
    from domain.cassino import from_json
    old = {"type": "HandDealt", "schema_version": 1, "data": {
        "hand_number": 1, "dealer": 1, "deck": [c.code for c in full_deck()],
        "hands": [["AS", "2S", "7S", "8S"], ["5S", "6S", "JS", "QS"]], "table": ["3S", "4S", "9S", "10S"],
        "fixed": False}}
    event = from_json(old)
    assert isinstance(event, HandDealt) and event.commitment is None and event.client_seeds == ()


def test_an_audit_finds_a_fair_game_fair_and_a_tampered_deck_not():
    from dataclasses import replace

    from domain.cassino.audit import audit_deals
    events = created()
    events += decide(fold(events), Deal())
    events += decide(fold(events), CountOut(0))
    assert audit_deals(events) == []
    dealt = next(i for i, e in enumerate(events) if isinstance(e, HandDealt))
    deck = list(events[dealt].deck)
    deck[0], deck[1] = deck[1], deck[0]
    forged = events[:dealt] + [replace(events[dealt], deck=tuple(deck))] + events[dealt + 1:]
    assert audit_deals(forged) == ["hand 1: the deck is not the one its seed gives"]
    revealed = next(i for i, e in enumerate(events) if isinstance(e, SeedRevealed))
    lied = events[:revealed] + [SeedRevealed(1, "00" * 32)] + events[revealed + 1:]
    assert audit_deals(lied) == ["hand 1: the revealed seed is not the committed one"]

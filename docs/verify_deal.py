#!/usr/bin/env python3
"""Check that a casino game's deals were fair. Standard library only.

Usage:
    python3 verify_deal.py events.json
    python3 verify_deal.py --url http://127.0.0.1:8000/v1/games/<id> [--token <your seat token>]

``events.json`` is a game's event log: a JSON list of events, or the pages
of ``GET /v1/games/<id>/events`` saved as one object with an ``events``
list. For every hand dealt from a committed seed the script checks that

1. the revealed seed hashes (SHA-256) to the commitment published before the deal;
2. the deck derived from the seed, the hand number and the client seeds is
   the deck that was dealt: every card you can see (all of them once the
   game is over, else your own hand and the table) is where the derivation
   puts it.

It prints one line per hand and exits non-zero if any check fails.
"""

from __future__ import annotations

import argparse
import hashlib
import hmac
import json
import sys
import urllib.request

RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]
SUITS = ["S", "H", "D", "C"]
TAG = "casino-shuffle-v1"
COURTS = tuple(rank + suit for suit in SUITS for rank in ("J", "Q", "K"))
REMOVED = {"standard": (), "five_hand": ("2H", "2D", "2C"), "forty": COURTS}  # the option `deck`


def derive_deck(seed: bytes, hand_number: int, client_seeds: list[str], removed=()) -> list[str]:
    """The deck order, top first, as docs/fairness.md describes it."""

    def stream():
        block = 0
        while True:
            message = "|".join([TAG, str(hand_number), *client_seeds, str(block)]).encode()
            yield from hmac.new(seed, message, hashlib.sha256).digest()
            block += 1

    def below(n, source):
        limit = (2**32 // n) * n
        while True:
            x = int.from_bytes(bytes(next(source) for _ in range(4)), "big")
            if x < limit:
                return x % n

    deck = [rank + suit for suit in SUITS for rank in RANKS if rank + suit not in removed]
    source = stream()
    for i in range(len(deck) - 1, 0, -1):
        j = below(i + 1, source)
        deck[i], deck[j] = deck[j], deck[i]
    return deck


def first_round(deck: list[str], players: int, dealer: int, options: dict):
    """Who receives which cards in a hand's first round (docs/rules.md):
    passes of packets from the dealer's next seat, the table's packet before
    the dealer's, and any table cards still owed once the hands are full."""
    step = -1 if options.get("counter_clockwise") else 1
    seats = [(dealer + step * (1 + i)) % players for i in range(players)]
    hands = {s: [] for s in seats}
    if options.get("african_deal"):
        return african_first_round(deck, players, seats, hands)
    packet, each = options.get("deal_packet", 2), options.get("hand_size", 4)
    to_table, given, table, pos = options.get("table_size", 4), 0, [], 0
    order = []
    while given < each:
        size = min(packet, each - given)
        order += [(s, size) for s in seats[:-1]]
        if to_table:
            order.append(("table", min(packet, to_table)))
            to_table -= min(packet, to_table)
        order.append((seats[-1], size))
        given += size
    if to_table:
        order.append(("table", to_table))
    for who, size in order:
        cards = deck[pos:pos + size]
        pos += size
        (table if who == "table" else hands[who]).extend(cards)
    return hands, table


def african_first_round(deck: list[str], players: int, seats: list[int], hands: dict):
    """003 African: the table's four from the middle of the deck, the rest one
    at a time (twelve each with two players)."""
    start = (len(deck) - 4) // 2
    table, rest = deck[start:start + 4], deck[:start] + deck[start + 4:]
    each = 12 if players == 2 else len(rest) // players
    for i, card in enumerate(rest[:each * players]):
        hands[seats[i % players]].append(card)
    return hands, table


def check(events: list[dict]) -> bool:
    revealed = {e["data"]["hand_number"]: e["data"]["seed"] for e in events if e["type"] == "SeedRevealed"}
    created = next(e["data"] for e in events if e["type"] == "GameCreated")
    players, options = len(created["seats"]), created["options"]
    removed = REMOVED[options.get("deck", "standard")]
    ok = True
    for e in events:
        if e["type"] != "HandDealt":
            continue
        d = e["data"]
        hand = d["hand_number"]
        if d.get("fixed") or not d.get("commitment"):
            print(f"hand {hand}: deck fixed by the operator (no commitment to check)")
            continue
        seed_hex = revealed.get(hand)
        if seed_hex is None:
            print(f"hand {hand}: seed not revealed yet (the hand is still being played)")
            continue
        seed = bytes.fromhex(seed_hex)
        problems = []
        if hashlib.sha256(seed).hexdigest() != d["commitment"]:
            problems.append("the seed does not match the commitment")
        deck = derive_deck(seed, hand, list(d.get("client_seeds") or []), removed)
        if d.get("deck") is not None and d["deck"] != deck:
            problems.append("the dealt deck differs from the derived one")
        hands, table = first_round(deck, players, d["dealer"], options)
        if d["table"] != table:
            problems.append("the table cards differ from the derived deck")
        for seat, cards in enumerate(d["hands"]):
            if cards is not None and cards != hands[seat]:
                problems.append(f"seat {seat}'s cards differ from the derived deck")
        ok = ok and not problems
        print(f"hand {hand}: " + ("fair" if not problems else "NOT FAIR: " + "; ".join(problems)))
    return ok


def fetch(url: str, token: str | None) -> list[dict]:
    events, after = [], 0
    while after is not None:
        request = urllib.request.Request(f"{url.rstrip('/')}/events?after={after}&limit=500")
        if token:
            request.add_header("Authorization", f"Bearer {token}")
        with urllib.request.urlopen(request) as response:
            page = json.load(response)
        events += page["events"]
        after = page["next"]
    return events


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("file", nargs="?", help="a saved event log (JSON)")
    parser.add_argument("--url", help="the game's URL, e.g. http://127.0.0.1:8000/v1/games/<id>")
    parser.add_argument("--token", help="your seat token, to check your own cards during the game")
    args = parser.parse_args(argv)
    if args.url:
        events = fetch(args.url, args.token)
    elif args.file:
        with open(args.file) as f:
            loaded = json.load(f)
        events = loaded["events"] if isinstance(loaded, dict) else loaded
    else:
        parser.error("give a file or --url")
    return 0 if check(events) else 1


if __name__ == "__main__":
    sys.exit(main())

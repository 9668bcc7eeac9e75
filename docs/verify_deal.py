#!/usr/bin/env python3
"""Check that a casino game's deals were fair. Standard library only.

Usage:
    python3 verify_deal.py events.json
    python3 verify_deal.py --url http://127.0.0.1:8000/v1/games/<id> [--token <your seat token>]

``events.json`` is a game's event log: a JSON list of events, or the pages
of ``GET /v1/games/<id>/events`` saved as one object with an ``events``
list. It knows both games the service serves.

Cassino: for every hand dealt from a committed seed the script checks that

1. the revealed seed hashes (SHA-256) to the commitment published before the deal;
2. the deck derived from the seed, the hand number and the client seeds is
   the deck that was dealt: every card you can see (all of them once the
   game is over, else your own hand and the table) is where the derivation
   puts it.

Mass Cool Casino: for every shuffle (the deal, and each reshuffle of a
tied pot into the stock) made from a committed seed, once its seed is
revealed, it checks that

1. the seed was committed (``ShufflePromised``) before the shuffle, and
   hashes to that commitment, which the shuffle names;
2. the deck derived from the seed, the shuffle's number and the cards
   shuffled (the whole deck for the deal; for a reshuffle, every card not
   in anyone's money or put aside, which the log tells) is the deck used:
   the money dealt face up, every hand turned over at a showdown, your own
   hands, and the whole deck once the game is over, are where the
   derivation puts them.

It prints one line per hand or shuffle and exits non-zero if any check fails.
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


def new_deck(removed=()) -> list[str]:
    """Every card in new-deck order (AS 2S ... KS AH ... KC), but ``removed``."""
    return [rank + suit for suit in SUITS for rank in RANKS if rank + suit not in removed]


def derive_deck(seed: bytes, number: int, client_seeds: list[str], cards: list[str]) -> list[str]:
    """The order, top first, that the seed gives ``cards`` (in new-deck
    order) for this hand or shuffle ``number``, as docs/fairness.md describes it."""

    def stream():
        block = 0
        while True:
            message = "|".join([TAG, str(number), *client_seeds, str(block)]).encode()
            yield from hmac.new(seed, message, hashlib.sha256).digest()
            block += 1

    def below(n, source):
        limit = (2**32 // n) * n
        while True:
            x = int.from_bytes(bytes(next(source) for _ in range(4)), "big")
            if x < limit:
                return x % n

    deck = list(cards)
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
    """Check every deal of the game whose log ``events`` is; print a line for each."""
    if events and events[0]["type"] == "TableOpened":
        return check_mass_cool(events)
    return check_cassino(events)


def check_cassino(events: list[dict]) -> bool:
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
        deck = derive_deck(seed, hand, list(d.get("client_seeds") or []), new_deck(removed))
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


# -- Mass Cool Casino ------------------------------------------------------------

def _index(card: str) -> int:
    return SUITS.index(card[-1]) * len(RANKS) + RANKS.index(card[:-1])


class _Shuffle:
    """One shuffle, with the cards it shuffled and where its hands were drawn."""

    def __init__(self, event: dict, cards: set[str], first_hand: int):
        self.event, self.data = event, event["data"]
        self.cards = sorted(cards, key=_index)
        self.next = first_hand  # the deck position the next hand is drawn from
        self.hands: dict[int, str] = {}  # deck position -> the card seen there


def _mass_cool_shuffles(events: list[dict]) -> tuple[dict, list[_Shuffle]]:
    """Follow the public table through the log: what each shuffle shuffled,
    and which card was seen at which of its positions."""
    opened = events[0]["data"]
    players, each = len(opened["names"]), opened["options"]["money"]
    money: list[list[str]] = [[] for _ in range(players)]
    bets: list[list[str]] = [[] for _ in range(players)]
    put_aside: set[str] = set()
    before_move = None  # money and bets before the latest bet or stop, which an undo restores
    shuffles: list[_Shuffle] = []
    drawn: dict[int, int] = {}  # the latest round's hands: seat -> deck position
    for e in events:
        d = e["data"]
        if e["type"] == "MoneyDealt":
            money = [list(m) for m in d["money"]]
            shuffles.append(_Shuffle(e, set(new_deck()), players * each))
        elif e["type"] == "DeckReshuffled":
            left = set(new_deck()) - {c for m in money for c in m} - put_aside
            shuffles.append(_Shuffle(e, set(d["deck"]) if d["deck"] is not None else left, 0))
        elif e["type"] == "HandsDrawn":
            took = d.get("drawn") or [h is not None for h in d["hands"]]
            order = [(d["leader"] + i) % players for i in range(players)]
            drawn = {}
            for seat in (s for s in order if took[s]):
                drawn[seat] = shuffles[-1].next
                shuffles[-1].next += 1
            _seen(shuffles[-1], drawn, d["hands"])
            before_move = None
        elif e["type"] in ("BetPlaced", "StopCalled"):
            before_move = ([list(m) for m in money], [list(b) for b in bets])
            if e["type"] == "BetPlaced":
                money[d["seat"]] = [c for c in money[d["seat"]] if c not in d["cards"]]
                bets[d["seat"]] += d["cards"]
        elif e["type"] in ("PlayUndone", "BetTakenBack") and before_move is not None:  # the log's name, and its old one
            money, bets = before_move
            before_move = None
        elif e["type"] in ("PotWon", "PotTied"):
            _seen(shuffles[-1], drawn, d["hands"])
            if e["type"] == "PotWon":
                money[d["winner"]] += d["pot"]
                put_aside |= {h for h in d["hands"] if h}
            bets = [[] for _ in range(players)]
            before_move = None
    return opened, shuffles


def _seen(shuffle: _Shuffle, drawn: dict[int, int], hands: list) -> None:
    for seat, position in drawn.items():
        if hands[seat] is not None:
            shuffle.hands[position] = hands[seat]


def check_mass_cool(events: list[dict]) -> bool:
    promised = {e["data"]["shuffle"]: e for e in events if e["type"] == "ShufflePromised"}
    revealed = {e["data"]["shuffle"]: e["data"]["seed"] for e in events if e["type"] == "ShuffleRevealed"}
    opened, shuffles = _mass_cool_shuffles(events)
    players, each = len(opened["names"]), opened["options"]["money"]
    ok = True
    for shuffle in shuffles:
        d = shuffle.data
        number = d.get("shuffle", 1)  # the deal is shuffle 1
        if d["fixed"] or not d["commitment"]:
            print(f"shuffle {number}: deck fixed by the operator (no commitment to check)")
            continue
        seed_hex = revealed.get(number)
        if seed_hex is None:
            print(f"shuffle {number}: seed not revealed yet (its deck is still in use)")
            continue
        problems = []
        promise = promised.get(number)
        if promise is None or promise["version"] > shuffle.event["version"]:
            problems.append("the seed was not committed before the shuffle")
        elif promise["data"]["commitment"] != d["commitment"]:
            problems.append("the shuffle names another commitment than the one published")
        seed = bytes.fromhex(seed_hex)
        if hashlib.sha256(seed).hexdigest() != d["commitment"]:
            problems.append("the seed does not match the commitment")
        deck = derive_deck(seed, number, [], shuffle.cards)
        if d["deck"] is not None and d["deck"] != deck:
            problems.append("the deck used differs from the derived one")
        if "money" in d:
            order = [(d["dealer"] + 1 + i) % players for i in range(players)]
            dealt = [deck[i::players][:each] for i in range(players)]
            if [dealt[order.index(seat)] for seat in range(players)] != d["money"]:
                problems.append("the money dealt differs from the derived deck")
        for position, card in sorted(shuffle.hands.items()):
            if position >= len(deck) or deck[position] != card:
                problems.append(f"the hand {card} was not where the derived deck has it")
        ok = ok and not problems
        print(f"shuffle {number}: " + ("fair" if not problems else "NOT FAIR: " + "; ".join(problems)))
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

"""Positions for rule tests, written the way a player would describe a table.

    position(table="AS 2H 3D 5C 6S 8D", hands=["8H 2C", "KD 4S"])

A build on the table is written ``B1=9:6S+3D`` (a single build of 9 made of
6S and 3D), ``B2=8:5S+3D,8C`` (a multiple build: groups separated by
commas), with ``@1`` to say seat 1 owns it (seat 0 by default).
"""

from __future__ import annotations

from domain import Card, cards, full_deck
from domain.cassino import Build, GameState, Options, Seat
from domain.cassino.options import resolve


def _build(token: str) -> Build:
    ident, rest = token.split("=")
    owner = 0
    if "@" in rest:
        rest, who = rest.split("@")
        owner = int(who)
    value, groups = rest.split(":")
    return Build(ident, int(value), tuple(cards(g.split("+")) for g in groups.split(",")), owner)


def table_items(text: str):
    return tuple(_build(t) if "=" in t else Card.parse(t) for t in text.split())


def position(table: str = "", hands=("", ""), turn: int = 0, dealer: int | None = None,
             variant: str = "cassino", options: dict | None = None, stock: str | None = None,
             captured=None, scores=None, sweeps=None, last_capturer=None) -> GameState:
    """A hand in progress. The stock holds the cards that are nowhere else
    unless ``stock`` says otherwise (``""`` for an empty stock)."""
    players = len(hands)
    opts: Options = resolve(variant, options or {}, players=players)
    teams = [i % 2 if opts.teams else i for i in range(players)]
    seats = tuple(Seat(f"P{i}", t) for i, t in enumerate(teams))
    items = table_items(table)
    hand_cards = tuple(cards(h) for h in hands)
    piles = tuple(cards(c) for c in captured) if captured else ((),) * players
    used = {c for it in items for c in (it.cards if isinstance(it, Build) else (it,))}
    used |= {c for h in hand_cards for c in h} | {c for p in piles for c in p}
    rest = cards(stock) if stock is not None else tuple(c for c in full_deck() if c not in used)
    next_build = 1 + max((int(it.id[1:]) for it in items if isinstance(it, Build)), default=0)
    n_teams = max(teams) + 1
    return GameState(
        variant=variant, options=opts, seats=seats, status="in_progress", version=2,
        hand_number=1, dealer=(players - 1 if dealer is None else dealer), turn=turn, round=1,
        stock=rest, hands=hand_cards, table=items, captured=piles,
        sweeps=tuple(sweeps or (0,) * players), last_capturer=last_capturer,
        next_build=next_build, scores=tuple(scores or (0,) * n_teams),
    )


def refusal(state: GameState, seat: int, move: str) -> str:
    """The rule that refuses ``move``; fails the test if the move is legal."""
    from domain import RuleViolation
    from domain.cassino import Move, Play, decide

    try:
        decide(state, Play(seat, Move.parse(move)))
    except RuleViolation as broken:
        return broken.rule
    raise AssertionError(f"{move} was accepted")


def after(state: GameState, seat: int, move: str) -> GameState:
    """The state after ``seat`` plays ``move`` (which must be legal)."""
    from domain.cassino import Move, Play, decide, fold

    return fold(decide(state, Play(seat, Move.parse(move))), state)


def table_codes(state: GameState) -> list[str]:
    return [str(it) for it in state.table]

"""``/moves`` narrowed and paged, and ``/moves/check``, on the most crowded
tables the bench knows (``tests/crowded.py``): a game is created and dealt
through the API, and its table, hands and stock are then laid as the
bench lays them (the service's cache holds the game as it stands, so the
next command is decided on that table and chains to its last event).

One card's narrowed list is complete (equal to the unbounded generation
filtered by that card), following ``next`` lists every legal move once,
and the dry run agrees with ``play`` on every candidate move the bench
puts to ``is_legal``, appending nothing. Mass Cool Casino's bets narrow
and page the same way.
"""

from __future__ import annotations

import random
import uuid
from urllib.parse import urlencode

import pytest

from domain.cassino import GameState, Move, legal_moves
from service.games import Loaded
from service.web.current import services
from tests.crowded import BENCH, crowded, crowded_tables

from .conftest import ORDERED_DECK, Game
from .masscool import HttpTable, deck_codes

#: The bench's tables of each size with the most moves that a test can list over HTTP in its time.
TABLES = [max((t for t in crowded_tables(most=5000) if len(t.table) == size), key=lambda t: legal_moves(t, 0).count())
          for size in (10, 20, 30, 40)]


def laid(api, table: GameState) -> Game:
    """A game of the API whose hand in play is ``table``'s (seat 0 to play)."""
    game = api.create(first_dealer=1)
    assert api.deal(game, ORDERED_DECK).status_code == 200
    games = services(api.app).games
    ident = uuid.UUID(game.id)
    real = games.load(ident)
    cached = games.cache.get(ident)
    assert cached is not None and real.turn == 0
    state = real._replace(stock=table.stock, hands=table.hands, table=table.table, next_build=table.next_build)
    games.cache.put(ident, Loaded(state, cached.hash))
    return game


def listed(api, game: Game, limit: int = 200, **narrow) -> list[dict]:
    """Every move ``/moves`` lists with ``narrow``, following ``next``."""
    out: list[dict] = []
    query = {"limit": limit, **narrow}
    while True:
        answer = api.get(f"{game.url}/moves?{urlencode(query, doseq=True)}", token=game.tokens[0])
        assert answer.status_code == 200, answer.get_json()
        page = answer.get_json()
        out += page["moves"]
        assert page["truncated"] == (page["next"] is not None)
        if page["next"] is None:
            return out
        query["cursor"] = page["next"]


@pytest.mark.parametrize("table", TABLES, ids=lambda s: f"{len(s.table)}-items")
def test_one_cards_list_is_its_moves_of_the_unbounded_generation_and_pages_list_each_once(api, table):
    game = laid(api, table)
    everything = [m.to_dict() for m in legal_moves(table, 0)]
    paged = listed(api, game, limit=min(1000, max(50, len(everything) // 4)))
    assert paged == everything
    for card in dict.fromkeys(table.hands[0]):
        assert listed(api, game, card=card.code) == [m for m in everything if m["card"] == card.code]


def test_a_card_and_its_targets_narrow_the_most_crowded_table(api):
    table = crowded(30, 2, False)  # tens of thousands of moves: none of them listed whole here
    game = laid(api, table)
    query = f"{game.url}/moves?card=10D&target=9C&target=AS&limit=100"
    first = api.get(query, token=game.tokens[0]).get_json()
    assert first["moves"][0] == {"card": "10D", "action": "capture", "targets": ["AS", "9C"]}  # exactly those, first
    second = api.get(f"{query}&cursor={first['next']}", token=game.tokens[0]).get_json()
    shown = [Move.from_dict(m) for m in first["moves"] + second["moves"]]
    assert len(set(shown)) == len(shown) == 200
    assert all(m.card.code == "10D" and {"9C", "AS"} <= set(m.targets) and m in legal_moves(table, 0) for m in shown)


@pytest.mark.parametrize("table", [TABLES[1], crowded(20, 2, False)], ids=lambda s: f"{len(s.table)}-items")
def test_the_dry_run_agrees_with_play_on_every_candidate_and_appends_nothing(api, table):
    game = laid(api, table)
    rnd = random.Random(7)
    candidates = BENCH.candidates(rnd, table, legal_moves(table, 0).first(20).moves, 20)
    accepted = []
    for move in candidates:
        checked = api.post(f"{game.url}/moves/check", json=move.to_dict(), token=game.tokens[0])
        assert checked.status_code == 200 and checked.get_json()["version"] == 3
        verdict = checked.get_json()
        if verdict["legal"]:
            accepted.append(move)
            continue
        played = api.post(f"{game.url}/play", json=move.to_dict(), token=game.tokens[0])
        assert played.status_code == 422 and played.get_json()["rule"] == verdict["rule"]
        assert played.get_json()["detail"] == verdict["detail"]
    assert api.view(game)["version"] == 3  # nothing appended by any check
    assert {m.text for m in accepted} >= {m.text for m in candidates if m in legal_moves(table, 0)}
    for move in accepted[:: max(1, len(accepted) // 4)]:
        again = laid(api, table)
        assert api.post(f"{again.url}/play", json=move.to_dict(), token=again.tokens[0]).status_code == 200


def test_a_cursor_of_an_older_version_and_a_bad_narrowing_are_refused(api):
    game = laid(api, crowded(20, 2, False))
    page = api.get(f"{game.url}/moves?limit=5", token=game.tokens[0]).get_json()
    assert api.post(f"{game.url}/play", json=Move.trail("10D").to_dict(), token=game.tokens[0]).status_code == 200
    stale = api.get(f"{game.url}/moves?cursor={page['next']}", token=game.tokens[0])
    assert stale.status_code == 409 and "first page" in stale.get_json()["detail"]
    for query in ("card=1X", "action=jump", "target=Q", "cursor=abc", "limit=0", "card=AS&card=2S"):
        answer = api.get(f"{game.url}/moves?{query}", token=game.tokens[1])
        assert answer.status_code == 400, query
    assert api.post(f"{game.url}/moves/check", json={"card": "AS"}, token=game.tokens[1]).status_code == 400
    assert api.post(f"{game.url}/moves/check", json=Move.trail("AS").to_dict()).status_code == 401


def test_mass_cool_casino_bets_narrow_and_page_past_the_bound(api):
    table = HttpTable(api, 2, deck=deck_codes(2, 0, 10, stock="KD 2D"))
    token = table.game.tokens[0]
    money = table.money(0)
    game = table.game
    every = listed(api, Game(game.id, [token], {}), limit=1000)
    assert len(every) == 2 ** 10 - 1
    last = every[-1]
    assert last not in api.get(f"{game.url}/moves", token=token).get_json()["moves"]  # past the first page
    held = listed(api, Game(game.id, [token], {}), card=money[3], target=[money[5]])
    assert held == [m for m in every if {money[3], money[5]} <= set(m["cards"])] and len(held) == 2 ** 8
    verdict = api.post(f"{game.url}/moves/check", json=last, token=token).get_json()
    assert verdict == {"version": verdict["version"], "legal": True}
    refused = api.post(f"{game.url}/moves/check", json={"action": "stop"}, token=token).get_json()
    played = api.post(f"{game.url}/play", json={"action": "stop"}, token=token).get_json()
    assert not refused["legal"] and (refused["rule"], refused["detail"]) == (played["rule"], played["detail"])
    assert api.post(f"{game.url}/play", json=last, token=token).status_code == 200


def test_no_hidden_card_shows_through_the_narrowed_moves_or_the_dry_run(api):
    table = TABLES[1]
    game = laid(api, table)
    hidden_from = {0: {c.code for c in (*table.hands[1], *table.stock)},
                   1: {c.code for c in (*table.hands[0], *table.stock)}}  # asked below: some of each
    loose = [it.id for it in table.table][:2]
    for seat, hidden in hidden_from.items():
        other = {c.code for c in table.hands[1 - seat]}
        asked = sorted(hidden & other)[:3] + sorted(hidden - other)[:3]
        answers = [api.get(f"{game.url}/moves?{query}", token=game.tokens[seat]) for query in
                   ("limit=3", f"card={asked[0]}", f"card={table.hands[seat][0].code}&target={asked[1]}",
                    f"action=capture&target={loose[0]}")]
        for code in asked:
            for body in ({"card": code, "action": "trail"},
                         {"card": table.hands[seat][0].code, "action": "capture", "targets": [code, *loose]}):
                answers.append(api.post(f"{game.url}/moves/check", json=body, token=game.tokens[seat]))
        for answer in answers:
            assert answer.status_code == 200
            text = answer.get_data(as_text=True) + str(dict(answer.headers))
            shown = {code for code in hidden if f'"{code}"' in text} - set(asked)  # none but those it named
            assert not shown, (seat, shown)
        # The answers about a hidden card are the same wherever it lies (another hand or the stock).
        verdicts = {(a.get_json()["rule"], a.get_json()["detail"].replace(code, "?")) for a, code in
                    zip(answers[4::2], asked)}
        assert len(verdicts) == 1, verdicts


def test_a_cursor_used_with_another_narrowing_is_refused(api):
    table = crowded(30, 2, False)
    game = laid(api, table)
    query = f"{game.url}/moves?card=10D&target=9C&target=AS&limit=5"
    first = api.get(query, token=game.tokens[0]).get_json()
    cursor = first["next"]
    assert cursor is not None
    reordered = api.get(f"{game.url}/moves?card=10D&target=AS&target=9C&limit=5&cursor={cursor}", token=game.tokens[0])
    assert reordered.status_code == 200  # the same narrowing: its targets are a set
    same = api.get(f"{query}&cursor={cursor}", token=game.tokens[0]).get_json()
    assert reordered.get_json()["moves"] == same["moves"]
    other_card = next(c.code for c in table.hands[0] if c.code != "10D")
    for other in (f"card={other_card}&target=9C&target=AS", "card=10D&target=9C", "card=10D&target=9C&target=AS"
                  "&action=capture", ""):
        answer = api.get(f"{game.url}/moves?{other}&limit=5&cursor={cursor}", token=game.tokens[0])
        assert answer.status_code == 400, other
        assert answer.headers["Content-Type"].startswith("application/problem+json")
        body = answer.get_json()
        assert body["code"] == "malformed" and body["errors"][0]["field"] == "cursor"
        assert "narrowing" in body["detail"] and "first page" in body["detail"]


def test_a_cursor_altered_or_taken_to_another_seat_or_game_is_refused(api):
    """A cursor says how many moves the next page skips: one made up with
    a count in the billions would have a crowded table's every move listed
    for one page. The service signs its cursors for one seat of one game."""
    game = laid(api, crowded(30, 2, False))
    cursor = api.get(f"{game.url}/moves?limit=5", token=game.tokens[0]).get_json()["next"]
    version, given, work, narrowing, signature = cursor.split(".")
    assert api.get(f"{game.url}/moves?limit=5&cursor={cursor}", token=game.tokens[0]).status_code == 200
    other_game = laid(api, crowded(30, 2, False))
    deep = f"{version}.999999999.999999999999.{narrowing}.{signature}"
    for url, token, sent in ((game.url, game.tokens[0], deep),  # its counts changed, its signature kept
                             (game.url, game.tokens[0], f"{version}.{given}.{work}.{narrowing}"),  # unsigned
                             (game.url, game.tokens[1], cursor),  # the other seat's
                             (other_game.url, other_game.tokens[0], cursor)):  # another game's, at the same version
        answer = api.get(f"{url}/moves?limit=5&cursor={sent}", token=token)
        assert answer.status_code == 400, sent
        body = answer.get_json()
        assert body["code"] == "malformed" and body["errors"][0]["field"] == "cursor"
        assert "Not a cursor this service gave out" in body["detail"]

"""The games read model's contract, kept by both wirings (see conftest's
``contract``): rows are written by the store's appends and read back
through the read model, as the listing and ``verify`` read them."""

from __future__ import annotations

import uuid
from datetime import timedelta

from service.events import Append, NewEvent
from service.writes import NOW, GameRow
from service.readmodel import Cursor, GameFilter

META = {"actor": "public", "command_id": "c-1", "request_id": "r-1"}


def new_game(contract, tag: str, *, variant: str = "cassino", status: str = "waiting", finished: bool = False,
             players: tuple[str, ...] = ("Ann",)) -> uuid.UUID:
    """A game of one event whose row names ``tag`` among its players."""
    game = uuid.uuid4()
    row = {"variant": variant, "status": status, "player_names": [tag, *players], "version": 1}
    if finished:
        row |= {"finished_at": NOW, "winner": {"team": 0}}
    contract.store.append(Append(game, 0, [NewEvent("GameCreated", 1, {})], META, writes=[GameRow(row)]))
    return game


def listed(contract, where: GameFilter, limit: int = 50) -> list[uuid.UUID]:
    rows, _ = contract.read_model.page(where, None, limit)
    return [row["id"] for row in rows]


def test_a_page_lists_the_newest_first_and_its_cursor_continues_where_it_ended(contract):
    tag = f"t-{uuid.uuid4().hex[:8]}"
    games = [new_game(contract, tag) for _ in range(5)]
    where = GameFilter(players=(tag,))

    first, cursor = contract.read_model.page(where, None, 2)
    second, then = contract.read_model.page(where, cursor, 2)
    last, end = contract.read_model.page(where, then, 2)

    every = first + second + last
    assert sorted(row["id"] for row in every) == sorted(games)
    assert [(row["created_at"], row["id"]) for row in every] == sorted(
        ((row["created_at"], row["id"]) for row in every), reverse=True)
    assert (len(first), len(second), len(last), end) == (2, 2, 1, None)
    assert cursor == Cursor.of(first[-1]) and Cursor.parse(cursor.code) == cursor
    assert set(every[0]) == {"id", "variant", "status", "player_names", "version", "created_at", "updated_at",
                             "finished_at", "winner", "listed", "lobby", "awaiting", "deadline"}


def test_every_condition_of_a_filter_must_hold(contract):
    tag = f"t-{uuid.uuid4().hex[:8]}"
    waiting = new_game(contract, tag, players=("Ann", "Bob"))
    michigan = new_game(contract, tag, variant="michigan", status="in_progress", players=("Bob",))
    done = new_game(contract, tag, status="finished", finished=True, players=("Cy",))
    row = contract.read_model.evidence(done)[1]
    created, finished = row["created_at"], row["finished_at"]

    assert listed(contract, GameFilter(players=(tag,), statuses=("waiting", "finished"))) in (
        [done, waiting], [waiting, done])
    assert listed(contract, GameFilter(players=(tag,), variants=("michigan",))) == [michigan]
    assert set(listed(contract, GameFilter(players=(tag, "Bob")))) == {waiting, michigan}
    assert listed(contract, GameFilter(players=(tag, "Bob"), statuses=("in_progress",))) == [michigan]
    assert listed(contract, GameFilter(players=(tag, "Nobody"))) == []
    assert listed(contract, GameFilter(players=(tag,), finished_since=finished)) == [done]
    assert listed(contract, GameFilter(players=(tag,), finished_before=finished)) == []
    assert done in listed(contract, GameFilter(players=(tag,), created_since=created))
    assert done not in listed(contract, GameFilter(players=(tag,), created_before=created))
    assert len(listed(contract, GameFilter(players=(tag,), created_before=created + timedelta(days=1)))) == 3


def test_the_evidence_is_a_games_events_row_and_checkpoint(contract):
    store = contract.signing(b"k" * 32)
    game = uuid.uuid4()
    stored = store.append(Append(game, 0, [NewEvent("A", 1, {}), NewEvent("B", 1, {})], META,
                                 writes=[GameRow({"variant": "cassino", "status": "waiting",
                                                  "player_names": ["Ann"], "version": 2})]))

    events, row, checkpoint = contract.read_model.evidence(game)

    assert events == stored
    assert (row["status"], row["version"], row["finished_at"], row["winner"]) == ("waiting", 2, None, None)
    assert row["created_at"] == row["updated_at"] == stored[-1].recorded_at
    assert (checkpoint.version, checkpoint.head) == (2, stored[-1].hash)
    assert contract.read_model.evidence(uuid.uuid4()) == ([], None, None)


def test_game_ids_and_heads_cover_every_game(contract):
    game = new_game(contract, "heads")
    [head] = [h for h in contract.read_model.heads() if h["game_id"] == str(game)]

    assert game in contract.read_model.game_ids()
    assert head == {"game_id": str(game), "version": 1, "head": contract.store.load(game)[-1].hash}
    assert [h["game_id"] for h in contract.read_model.heads()] == sorted(
        h["game_id"] for h in contract.read_model.heads())


def test_a_rebuilt_row_is_what_the_events_make_and_rows_without_events_go(contract):
    game = new_game(contract, "rebuilt")
    events = contract.store.load(game)
    wanted = {"variant": "michigan", "status": "finished", "player_names": ["X"], "version": 1,
              "created_at": events[0].recorded_at, "updated_at": events[0].recorded_at,
              "finished_at": events[0].recorded_at, "winner": {"team": 1},
              "listed": True, "lobby": {"seats": [{"name": "X"}, {"open": True}]}, "awaiting": [1],
              "deadline": events[0].recorded_at + timedelta(seconds=30), "player_seats": {str(uuid.uuid4()): 0}}

    contract.read_model.rebuild(game, lambda stored: wanted if stored == events else {})

    assert contract.read_model.evidence(game)[1] == wanted
    assert contract.read_model.delete_rows_without_events() == 0
    assert contract.read_model.evidence(game)[1] == wanted


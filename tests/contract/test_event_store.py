"""The event store's contract, kept by both stores (see conftest's ``contract``).

What only PostgreSQL has (its triggers, prepared statements, notifications,
what its tables hold) is tested in tests/service/test_store.py.
"""

from __future__ import annotations

import threading
import uuid

import pytest

from service import checkpoints
from service.chain import chain, first_break
from service.events import Append, ConcurrencyError, EventStore, NewEvent
from service.writes import GameRow, IdempotencyRecord, SeatToken, Snapshot, seat_tokens
from service.memory.store import MemoryEventStore
from service.postgres.store import PostgresEventStore
from service.auth import hash_token

META = {"actor": "seat:0", "command_id": "c-1", "request_id": "r-1"}
#: A previous hash for appends that are meant to fail before it matters.
SOME_HASH = "a" * 64


def events(*types: str) -> list[NewEvent]:
    return [NewEvent(t, 1, {"n": i, "type": t}) for i, t in enumerate(types)]


def new_game() -> uuid.UUID:
    return uuid.uuid4()


def version(store, game: uuid.UUID) -> int:
    """The game's last version, 0 when it has none."""
    stored = store.load(game)
    return stored[-1].version if stored else 0


def _row(**changes):
    return {"variant": "cassino", "status": "waiting", "player_names": ["Ann", "Bob"], "version": 1,
            **changes}


def test_both_stores_have_every_method_of_the_contract():
    assert isinstance(MemoryEventStore(), EventStore)
    contract = {name for name in vars(EventStore) if not name.startswith("_")}
    assert "append" in contract and "read_all" in contract
    assert {name for name in contract if not hasattr(PostgresEventStore, name)} == set()
    assert {name for name in dir(MemoryEventStore) if not name.startswith("_")} == contract


def test_appended_events_load_back_in_version_order(contract):
    store, game = contract.store, new_game()
    stored = store.append(Append(game, 0, events("GameCreated", "HandDealt"), META))
    stored += store.append(Append(game, 2, events("CardTrailed"), META, previous_hash=stored[-1].hash))

    loaded = store.load(game)

    assert loaded == stored
    assert [e.version for e in loaded] == [1, 2, 3]
    assert [e.type for e in loaded] == ["GameCreated", "HandDealt", "CardTrailed"]
    assert loaded[1].data == {"n": 1, "type": "HandDealt"}
    assert all(e.metadata == META and e.game_id == game for e in loaded)
    assert loaded[0].position < loaded[1].position < loaded[2].position
    assert version(store, game) == 3
    assert game in store.game_ids()


def test_load_after_a_version_returns_only_later_events(contract):
    store, game = contract.store, new_game()
    store.append(Append(game, 0, events("A", "B", "C"), META))

    assert [e.version for e in store.load(game, after_version=2)] == [3]
    assert store.load(game, after_version=3) == []
    assert [e.version for e in store.load(game, after_version=1, until_version=2)] == [2]


def test_appends_chain_each_events_hash_to_the_one_before(contract):
    store, game = contract.store, new_game()
    first = store.append(Append(game, 0, events("A", "B"), META))
    second = store.append(Append(game, 2, events("C"), META, previous_hash=first[-1].hash))

    loaded = store.load(game)
    assert [e.hash for e in loaded] == [e.hash for e in first + second] == chain(game, loaded)
    assert first_break(game, loaded) is None


def test_an_append_after_the_first_needs_the_previous_hash_and_the_first_takes_none(contract):
    store, game = contract.store, new_game()
    with pytest.raises(ValueError, match="previous_hash"):
        store.append(Append(game, 0, events("A"), META, previous_hash=SOME_HASH))
    store.append(Append(game, 0, events("A"), META))
    with pytest.raises(ValueError, match="previous_hash"):
        store.append(Append(game, 1, events("B"), META))
    assert version(store, game) == 1


def test_an_event_may_carry_metadata_of_its_own(contract):
    store, game = contract.store, new_game()
    own = {"actor": "seat:1", "command_id": "c-9"}
    store.append(Append(game, 0, [NewEvent("A", 1, {}), NewEvent("B", 1, {}, metadata=own)], META))

    assert [e.metadata for e in store.load(game)] == [META, own]


def test_an_unknown_game_has_version_zero_and_no_events(contract):
    game = new_game()
    assert version(contract.store, game) == 0
    assert contract.store.load(game) == []
    assert game not in contract.store.game_ids()


def test_a_stale_expected_version_raises_and_writes_nothing(contract):
    store, game = contract.store, new_game()
    stored = store.append(Append(game, 0, events("A", "B"), META, writes=[GameRow(_row(version=2))]))

    with pytest.raises(ConcurrencyError) as raised:
        store.append(Append(
            game, 1, events("C"), META,
            previous_hash=stored[0].hash,
            writes=[IdempotencyRecord("key-1", "hash", {"status": 200}, "seat:0"),
                    GameRow(_row(version=99, status="finished")), SeatToken(0, hash_token("t0")),
                    Snapshot(3, "code-1", b"state")],
        ))

    assert raised.value.expected_version == 1
    assert [e.type for e in store.load(game)] == ["A", "B"]
    assert store.find_idempotent(game, "seat:0", "key-1") is None
    assert store.seat_token_hashes(game) == {}
    assert store.load_snapshot(game, "code-1") is None
    row = contract.games_row(game)
    assert (row["version"], row["status"]) == (2, "waiting")


def test_an_expected_version_ahead_of_the_game_raises(contract):
    store, game = contract.store, new_game()
    store.append(Append(game, 0, events("A"), META))

    with pytest.raises(ConcurrencyError):
        store.append(Append(game, 5, events("B"), META, previous_hash=SOME_HASH))
    assert version(store, game) == 1


def test_of_two_threads_appending_the_same_version_exactly_one_wins(contract):
    store = contract.store
    for _ in range(10):
        game = new_game()
        [created] = store.append(Append(game, 0, events("GameCreated"), META))

        outcomes = race(store, game, expected_version=1, previous_hash=created.hash, contenders=2)

        assert sorted(outcomes) == ["lost", "won"]
        assert [e.type for e in store.load(game)] == ["GameCreated", "Move", "Next"]  # one whole append


def race(store, game, expected_version: int, previous_hash: str, contenders: int) -> list[str]:
    """Start ``contenders`` appends of the same version at once; who won?"""
    start = threading.Barrier(contenders)
    outcomes: list[str] = []

    def append() -> None:
        start.wait()
        try:
            store.append(Append(game, expected_version, events("Move", "Next"), META, previous_hash=previous_hash))
            outcomes.append("won")
        except ConcurrencyError:
            outcomes.append("lost")

    threads = [threading.Thread(target=append) for _ in range(contenders)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return outcomes


def test_the_idempotency_record_is_stored_with_the_events(contract):
    store, game = contract.store, new_game()
    response = {"status": 200, "body": {"version": 1}, "headers": {"ETag": '"1"'}}

    store.append(Append(game, 0, events("A"), META, writes=[IdempotencyRecord("k", "h1", response, "seat:0")]))

    assert store.find_idempotent(game, "seat:0", "k") == ("h1", response)
    assert store.find_idempotent(game, "seat:0", "other") is None
    assert store.find_idempotent(game, "seat:1", "k") is None  # another caller's keys are its own
    assert store.find_idempotent(new_game(), "seat:0", "k") is None


def test_a_record_filed_under_a_scope_is_found_there_and_not_under_the_game(contract):
    store, game, scope = contract.store, new_game(), new_game()
    store.append(Append(game, 0, events("A"), META, writes=[IdempotencyRecord("k", "h1", {}, "public", scope)]))

    assert store.find_idempotent(scope, "public", "k") == ("h1", {})
    assert store.find_idempotent(game, "public", "k") is None


def test_idempotency_keys_are_forgotten_when_they_expire_and_may_be_filed_again(contract):
    store, game = contract.store, new_game()
    [first] = store.append(Append(game, 0, events("A"), META,
                           writes=[IdempotencyRecord("secret-key", "h1", {}, "public")]))
    contract.expire_keys(game)

    assert store.find_idempotent(game, "public", "secret-key") is None
    store.append(Append(game, 1, events("B"), META, previous_hash=first.hash,
                 writes=[IdempotencyRecord("secret-key", "h2", {}, "public")]))
    assert store.find_idempotent(game, "public", "secret-key") == ("h2", {})


def test_a_reused_idempotency_key_raises_and_appends_nothing(contract):
    store, game = contract.store, new_game()
    [first] = store.append(Append(game, 0, events("A"), META, writes=[IdempotencyRecord("k", "h1", {}, "seat:0")]))

    with pytest.raises(ConcurrencyError):
        store.append(Append(game, 1, events("B"), META, previous_hash=first.hash,
                     writes=[IdempotencyRecord("k", "h2", {}, "seat:0")]))

    assert version(store, game) == 1
    assert store.find_idempotent(game, "seat:0", "k") == ("h1", {})


def test_seat_tokens_hashes_are_kept_by_seat(contract):
    store, game = contract.store, new_game()
    hashes = {0: hash_token("alpha"), 1: hash_token("beta")}
    store.append(Append(game, 0, events("A"), META, writes=seat_tokens(hashes)))

    assert store.seat_token_hashes(game) == hashes
    assert store.seat_token_hashes(new_game()) == {}


def test_a_seat_given_a_token_twice_is_a_conflict(contract):
    store, game = contract.store, new_game()
    [first] = store.append(Append(game, 0, events("A"), META, writes=[SeatToken(0, hash_token("alpha"))]))

    with pytest.raises(ConcurrencyError):
        store.append(Append(game, 1, events("B"), META, previous_hash=first.hash,
                     writes=[SeatToken(0, hash_token("other"))]))
    assert store.seat_token_hashes(game) == {0: hash_token("alpha")}
    assert version(store, game) == 1


def test_the_games_row_is_inserted_then_updated(contract):
    store, game = contract.store, new_game()
    [first] = store.append(Append(game, 0, events("A"), META, writes=[GameRow(_row(version=1))]))
    [second] = store.append(Append(game, 1, events("B"), META, previous_hash=first.hash,
                            writes=[GameRow({"status": "finished", "version": 2,
                                             "winner": {"team": 1, "reason": "target"}})]))

    row = contract.games_row(game)
    assert {c: row[c] for c in ("variant", "status", "player_names", "version", "winner")} == {
        "variant": "cassino", "status": "finished", "player_names": ["Ann", "Bob"], "version": 2,
        "winner": {"team": 1, "reason": "target"}}
    assert (row["created_at"], row["updated_at"]) == (first.recorded_at, second.recorded_at)


def test_an_unknown_games_column_is_refused(contract):
    with pytest.raises(ValueError, match="drop_table"):
        contract.store.append(Append(new_game(), 0, events("A"), META, writes=[GameRow({"drop_table": 1})]))


def test_snapshots_are_only_returned_to_the_code_version_that_wrote_them(contract):
    store, game = contract.store, new_game()
    [first] = store.append(Append(game, 0, events("A"), META, writes=[Snapshot(1, "code-1", b"\x00state")]))
    store.append(Append(game, 1, events("B"), META, previous_hash=first.hash,
                 writes=[Snapshot(2, "code-1", b"\x00later")]))

    assert store.load_snapshot(game, "code-1") == Snapshot(2, "code-1", b"\x00later")
    assert store.load_snapshot(game, "code-2") is None


def test_read_all_pages_through_every_game_in_global_order(contract):
    store = contract.store
    # Tests share the PostgreSQL database: start after an event of our own.
    [mark] = store.append(Append(new_game(), 0, events("Mark"), META))
    first, second = new_game(), new_game()
    appended = store.append(Append(first, 0, events("A1", "A2"), META))
    store.append(Append(second, 0, events("B1"), META))
    store.append(Append(first, 2, events("A3"), META, previous_hash=appended[-1].hash))

    page = store.read_all(mark.position, limit=3)
    rest = store.read_all(page[-1].position, limit=3)

    assert [e.type for e in page + rest] == ["A1", "A2", "B1", "A3"]
    assert rest[-1] == store.load(first)[-1]
    with pytest.raises(ValueError):
        store.read_all(mark.position, limit=0)


def test_the_horizon_is_past_every_event_appended_and_read_settles_below_it(contract):
    store = contract.store
    before = store.horizon()
    [appended] = store.append(Append(new_game(), 0, events("A1"), META))
    after = store.horizon()

    assert before.settled <= before.reached <= appended.position < after.settled <= after.reached
    assert appended in store.read_all(appended.position - 1, limit=1)  # below the settled horizon: readable


def test_append_needs_events(contract):
    with pytest.raises(ValueError):
        contract.store.append(Append(new_game(), 0, [], META))


def test_positions_are_consecutive_within_an_append_and_leave_a_gap_before_the_next(contract):
    """As PostgreSQL makes them (from the transaction's id), so the memory
    wiring makes them too: nothing that passes there counts on no gaps."""
    store, first, second = contract.store, new_game(), new_game()
    one = store.append(Append(first, 0, events("A1", "A2", "A3"), META))
    two = store.append(Append(second, 0, events("B1", "B2"), META))

    assert [e.position - one[0].position for e in one] == [0, 1, 2]
    assert [e.position - two[0].position for e in two] == [0, 1]
    assert two[0].position > one[-1].position + 1
    assert store.read_all(one[-1].position, limit=2) == two  # past the gap, nothing between
    assert store.read_all(one[-1].position + 1, limit=2) == two


def test_load_head_is_load_with_the_checkpoint_of_the_same_moment(contract):
    store, game = contract.store, new_game()
    assert store.load_head(game) == ([], None)
    stored = store.append(Append(game, 0, events("A", "B"), META))

    found, checkpoint = store.load_head(game, 1)

    assert found == store.load(game, 1) == stored[1:]
    assert checkpoint is None  # these stores sign no heads: they have no checkpoint key


def test_a_store_with_a_checkpoint_key_signs_each_new_head_and_reads_it_with_the_events(contract):
    from service import checkpoints

    store, game = contract.signing(b"k" * 32), new_game()
    [*_, last] = store.append(Append(game, 0, events("A", "B"), META))
    [newest] = store.append(Append(game, 2, events("C"), META, previous_hash=last.hash))

    assert store.load_head(game) == (store.load(game), checkpoints.sign(b"k" * 32, game, 3, newest.hash))
    assert store.load_head(game, 2) == (store.load(game, 2), checkpoints.sign(b"k" * 32, game, 3, newest.hash))


def test_appends_of_several_games_are_written_together_each_as_append_writes_it(contract):
    store = contract.signing(b"k" * 32)
    games = [new_game() for _ in range(3)]
    firsts = [store.append(Append(g, 0, events("A"), META, writes=[GameRow(_row())])) for g in games]

    written = store.append_each([Append(g, 1, events("B", "C"), META, previous_hash=first[-1].hash,
                                        writes=[GameRow({"version": 3, "status": "finished"})])
                                 for g, first in zip(games, firsts)])

    for game, stored in zip(games, written):  # in the order given
        assert isinstance(stored, list)
        assert stored == store.load(game, 1)
        assert [(e.game_id, e.version, e.type) for e in stored] == [(game, 2, "B"), (game, 3, "C")]
        assert first_break(game, store.load(game)) is None
        assert store.load_head(game)[1] == checkpoints.sign(b"k" * 32, game, 3, stored[-1].hash)
        row = contract.games_row(game)
        assert (row["version"], row["status"]) == (3, "finished")
    assert len({e.position for stored in written for e in stored}) == 6


def test_an_append_of_several_that_loses_its_version_check_is_left_out_and_the_others_written(contract):
    store = contract.store
    games = [new_game() for _ in range(4)]
    firsts = [store.append(Append(g, 0, events("A"), META, writes=[GameRow(_row())])) for g in games]
    moved = games[2]
    store.append(Append(moved, 1, events("Moved"), META, previous_hash=firsts[2][-1].hash))

    written = store.append_each([Append(g, 1, events("TimedOut"), META, previous_hash=first[-1].hash,
                                        writes=[GameRow({"version": 2, "status": "finished"})])
                                 for g, first in zip(games, firsts)])

    assert isinstance(written[2], ConcurrencyError) and written[2].game_id == moved
    assert [e.type for e in store.load(moved)] == ["A", "Moved"]
    assert (contract.games_row(moved)["status"]) == "waiting"
    for i in (0, 1, 3):
        assert [e.type for e in store.load(games[i])] == ["A", "TimedOut"] == ["A", written[i][0].type]
        assert contract.games_row(games[i])["status"] == "finished"


def test_appends_written_together_are_one_per_game(contract):
    game = new_game()
    [first] = contract.store.append(Append(game, 0, events("A"), META))
    with pytest.raises(ValueError, match="one append per game"):
        contract.store.append_each([Append(game, 1, events("B"), META, previous_hash=first.hash),
                                    Append(game, 2, events("C"), META, previous_hash=SOME_HASH)])
    assert contract.store.append_each([]) == []
    assert version(contract.store, game) == 1


def test_several_games_heads_are_read_in_one_go_each_from_its_snapshot_on(contract):
    store = contract.signing(b"k" * 32)
    plain, snapped, unknown = new_game(), new_game(), new_game()
    store.append(Append(plain, 0, events("A", "B"), META))
    first = store.append(Append(snapped, 0, events("A", "B"), META))
    later = store.append(Append(snapped, 2, events("C", "D"), META, previous_hash=first[-1].hash,
                                writes=[Snapshot(3, "code-1", b"state at 3")]))

    heads = store.load_heads([plain, snapped, unknown], "code-1")

    assert set(heads) == {plain, snapped}
    assert heads[plain] == (None, store.load(plain), store.load_head(plain)[1])
    assert heads[snapped] == (Snapshot(3, "code-1", b"state at 3"), store.load(snapped, 2),
                              checkpoints.sign(b"k" * 32, snapped, 4, later[-1].hash))
    assert store.load_heads([snapped], "code-2")[snapped] == (None, store.load(snapped), heads[snapped].checkpoint)
    assert store.load_heads([snapped], None)[snapped].snapshot is None
    assert store.load_heads([], "code-1") == {}

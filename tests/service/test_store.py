"""The event store against a real PostgreSQL."""

from __future__ import annotations

import threading
import uuid

import psycopg
import pytest

from service.chain import chain, first_break
from service.store import (
    ConcurrencyError,
    IdempotencyRecord,
    NewEvent,
    Snapshot,
)
from service.tokens import hash_token

META = {"actor": "seat:0", "command_id": "c-1", "request_id": "r-1"}
#: A previous hash for appends that are meant to fail before it matters.
SOME_HASH = "a" * 64


def events(*types: str) -> list[NewEvent]:
    return [NewEvent(t, 1, {"n": i, "type": t}) for i, t in enumerate(types)]


def new_game() -> uuid.UUID:
    return uuid.uuid4()


def test_appended_events_load_back_in_version_order(store):
    game = new_game()
    stored = store.append(game, 0, events("GameCreated", "HandDealt"), META)
    stored += store.append(game, 2, events("CardTrailed"), META, previous_hash=stored[-1].hash)

    loaded = store.load(game)

    assert loaded == stored
    assert [e.version for e in loaded] == [1, 2, 3]
    assert [e.type for e in loaded] == ["GameCreated", "HandDealt", "CardTrailed"]
    assert loaded[1].data == {"n": 1, "type": "HandDealt"}
    assert all(e.metadata == META and e.game_id == game for e in loaded)
    assert loaded[0].position < loaded[1].position < loaded[2].position
    assert store.game_version(game) == 3


def test_load_after_a_version_returns_only_later_events(store):
    game = new_game()
    store.append(game, 0, events("A", "B", "C"), META)

    assert [e.version for e in store.load(game, after_version=2)] == [3]
    assert store.load(game, after_version=3) == []
    assert [e.version for e in store.load(game, after_version=1, until_version=2)] == [2]


def test_appends_chain_each_events_hash_to_the_one_before(store):
    game = new_game()
    first = store.append(game, 0, events("A", "B"), META)
    second = store.append(game, 2, events("C"), META, previous_hash=first[-1].hash)

    loaded = store.load(game)
    assert [e.hash for e in loaded] == [e.hash for e in first + second] == chain(game, loaded)
    assert first_break(game, loaded) is None


def test_an_append_after_the_first_needs_the_previous_hash_and_the_first_takes_none(store):
    game = new_game()
    with pytest.raises(ValueError, match="previous_hash"):
        store.append(game, 0, events("A"), META, previous_hash=SOME_HASH)
    store.append(game, 0, events("A"), META)
    with pytest.raises(ValueError, match="previous_hash"):
        store.append(game, 1, events("B"), META)
    assert store.game_version(game) == 1


def test_an_event_may_carry_metadata_of_its_own(store):
    game = new_game()
    own = {"actor": "seat:1", "command_id": "c-9"}
    store.append(game, 0, [NewEvent("A", 1, {}), NewEvent("B", 1, {}, metadata=own)], META)

    assert [e.metadata for e in store.load(game)] == [META, own]


def test_an_unknown_game_has_version_zero_and_no_events(store):
    game = new_game()
    assert store.game_version(game) == 0
    assert store.load(game) == []


def test_a_stale_expected_version_raises_and_writes_nothing(store, database_url):
    game = new_game()
    stored = store.append(game, 0, events("A", "B"), META, game_row=_row(version=2))

    with pytest.raises(ConcurrencyError) as raised:
        store.append(
            game,
            1,
            events("C"),
            META,
            previous_hash=stored[0].hash,
            idempotency=IdempotencyRecord("key-1", "hash", {"status": 200}, "seat:0"),
            game_row=_row(version=99, status="finished"),
            seat_token_hashes={0: hash_token("t0")},
            snapshot=Snapshot(3, "code-1", b"state"),
        )

    assert raised.value.expected_version == 1
    assert [e.type for e in store.load(game)] == ["A", "B"]
    assert store.find_idempotent(game, "seat:0", "key-1") is None
    assert store.seat_for_token(game, hash_token("t0")) is None
    assert store.load_snapshot(game, "code-1") is None
    with psycopg.connect(database_url) as conn:
        row = conn.execute("SELECT version, status FROM games WHERE id = %s", (game,)).fetchone()
    assert row == (2, "waiting")


def test_an_expected_version_ahead_of_the_game_raises(store):
    game = new_game()
    store.append(game, 0, events("A"), META)

    with pytest.raises(ConcurrencyError):
        store.append(game, 5, events("B"), META, previous_hash=SOME_HASH)
    assert store.game_version(game) == 1


def test_of_two_threads_appending_the_same_version_exactly_one_wins(store):
    for _ in range(10):
        game = new_game()
        [created] = store.append(game, 0, events("GameCreated"), META)

        outcomes = race(store, game, expected_version=1, previous_hash=created.hash, contenders=2)

        assert sorted(outcomes) == ["lost", "won"]
        assert [e.version for e in store.load(game)] == [1, 2]


def race(store, game, expected_version: int, previous_hash: str, contenders: int) -> list[str]:
    """Start ``contenders`` appends of the same version at once; who won?"""
    start = threading.Barrier(contenders)
    outcomes: list[str] = []

    def append() -> None:
        start.wait()
        try:
            store.append(game, expected_version, events("Move"), META, previous_hash=previous_hash)
            outcomes.append("won")
        except ConcurrencyError:
            outcomes.append("lost")

    threads = [threading.Thread(target=append) for _ in range(contenders)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return outcomes


def test_a_writer_committing_the_same_version_meanwhile_makes_the_append_fail(
    store, database_url, wait_for_lock_wait
):
    """The unique (game_id, version) key catches what the version check cannot see yet."""
    game = new_game()
    store.append(game, 0, events("A"), META)
    outcome: list[object] = []

    with psycopg.connect(database_url) as other:
        other.execute(
            "INSERT INTO events (game_id, version, type, schema_version, data, hash)"
            " VALUES (%s, 2, 'Other', 1, '{}', repeat('0', 64))",
            (game,),
        )
        appending = threading.Thread(target=lambda: outcome.append(_try_append(store, game, 1)))
        appending.start()
        wait_for_lock_wait()
        other.commit()
        appending.join()

    assert isinstance(outcome[0], ConcurrencyError)
    assert [e.type for e in store.load(game)] == ["A", "Other"]


def test_the_idempotency_record_is_stored_with_the_events(store):
    game = new_game()
    response = {"status": 200, "body": {"version": 1}, "headers": {"ETag": '"1"'}}

    store.append(game, 0, events("A"), META, idempotency=IdempotencyRecord("k", "h1", response, "seat:0"))

    assert store.find_idempotent(game, "seat:0", "k") == ("h1", response)
    assert store.find_idempotent(game, "seat:0", "other") is None
    assert store.find_idempotent(game, "seat:1", "k") is None  # another caller's keys are its own
    assert store.find_idempotent(new_game(), "seat:0", "k") is None


def test_idempotency_keys_are_stored_hashed_and_forgotten_when_they_expire(store, database_url):
    game = new_game()
    [first] = store.append(game, 0, events("A"), META,
                           idempotency=IdempotencyRecord("secret-key", "h1", {}, "public"))
    with psycopg.connect(database_url, autocommit=True) as conn:
        assert conn.execute("SELECT count(*) FROM idempotency WHERE key = %s", ("secret-key",)).fetchone() == (0,)
        conn.execute("UPDATE idempotency SET expires_at = now() - interval '1 second' WHERE game_id = %s",
                     (game,))
    assert store.find_idempotent(game, "public", "secret-key") is None
    # Filed again once expired, the key files anew instead of conflicting.
    store.append(game, 1, events("B"), META, previous_hash=first.hash,
                 idempotency=IdempotencyRecord("secret-key", "h2", {}, "public"))
    assert store.find_idempotent(game, "public", "secret-key") == ("h2", {})


def test_a_reused_idempotency_key_raises_and_appends_nothing(store):
    game = new_game()
    [first] = store.append(game, 0, events("A"), META, idempotency=IdempotencyRecord("k", "h1", {}, "seat:0"))

    with pytest.raises(ConcurrencyError):
        store.append(game, 1, events("B"), META, previous_hash=first.hash,
                     idempotency=IdempotencyRecord("k", "h2", {}, "seat:0"))

    assert store.game_version(game) == 1
    assert store.find_idempotent(game, "seat:0", "k") == ("h1", {})


def test_seat_tokens_are_found_by_hash(store, database_url):
    game = new_game()
    store.append(game, 0, events("A"), META,
                 seat_token_hashes={0: hash_token("alpha"), 1: hash_token("beta")})

    assert store.seat_for_token(game, hash_token("beta")) == 1
    assert store.seat_for_token(game, hash_token("alpha")) == 0
    assert store.seat_for_token(game, hash_token("gamma")) is None
    assert store.seat_for_token(new_game(), hash_token("alpha")) is None
    with psycopg.connect(database_url) as conn:
        rows = conn.execute("SELECT token_hash FROM seat_tokens WHERE game_id = %s", (game,))
        stored = {token_hash for (token_hash,) in rows}
    assert "alpha" not in stored and hash_token("alpha") in stored


def test_the_games_row_is_inserted_then_updated(store, database_url):
    game = new_game()
    [first] = store.append(game, 0, events("A"), META, game_row=_row(version=1))
    store.append(game, 1, events("B"), META, previous_hash=first.hash,
                 game_row={"status": "finished", "version": 2, "winner": {"team": 1, "reason": "target"}})

    with psycopg.connect(database_url) as conn:
        row = conn.execute(
            "SELECT variant, status, player_names, version, winner, updated_at >= created_at"
            " FROM games WHERE id = %s", (game,)
        ).fetchone()
    assert row == ("cassino", "finished", ["Ann", "Bob"], 2, {"team": 1, "reason": "target"}, True)


def test_an_unknown_games_column_is_refused(store):
    with pytest.raises(ValueError, match="drop_table"):
        store.append(new_game(), 0, events("A"), META, game_row={"drop_table": 1})


def test_snapshots_are_only_returned_to_the_code_version_that_wrote_them(store):
    game = new_game()
    [first] = store.append(game, 0, events("A"), META, snapshot=Snapshot(1, "code-1", b"\x00state"))
    store.append(game, 1, events("B"), META, previous_hash=first.hash,
                 snapshot=Snapshot(2, "code-1", b"\x00later"))

    assert store.load_snapshot(game, "code-1") == Snapshot(2, "code-1", b"\x00later")
    assert store.load_snapshot(game, "code-2") is None


def test_read_all_pages_through_every_game_in_global_order(store, last_position):
    start = last_position()
    first, second = new_game(), new_game()
    appended = store.append(first, 0, events("A1", "A2"), META)
    store.append(second, 0, events("B1"), META)
    store.append(first, 2, events("A3"), META, previous_hash=appended[-1].hash)

    page = store.read_all(start, limit=3)
    rest = store.read_all(page[-1].position, limit=3)

    assert [e.type for e in page + rest] == ["A1", "A2", "B1", "A3"]
    assert rest[-1].position == last_position()


def test_append_needs_events(store):
    with pytest.raises(ValueError):
        store.append(new_game(), 0, [], META)


def _row(**changes):
    return {"variant": "cassino", "status": "waiting", "player_names": ["Ann", "Bob"], "version": 1,
            **changes}


def _try_append(store, game, expected):
    try:
        return store.append(game, expected, events("Mine"), META, previous_hash=SOME_HASH)
    except ConcurrencyError as error:
        return error


def test_an_append_is_kept_when_only_the_notification_after_its_commit_fails(store, monkeypatch, caplog):
    # A channel name past PostgreSQL's 63 bytes makes pg_notify fail, after the COMMIT.
    monkeypatch.setattr("service.store.channel", lambda game_id: "x" * 100)
    game = new_game()
    stored = store.append(game, 0, events("GameCreated", "HandDealt"), META)
    assert [e.version for e in stored] == [1, 2] and stored[0].position < stored[1].position
    assert store.load(game) == stored
    assert "not notified" in caplog.text
    # The connection went back to the pool in a usable state.
    assert store.append(game, 2, events("CardTrailed"), META, previous_hash=stored[-1].hash)


@pytest.fixture
def one_connection_store(database_url):
    """A store over a pool of one connection: every append shares its prepared statements."""
    from service.database import open_pool
    from service.store import EventStore

    pool = open_pool(database_url, max_size=1)
    yield EventStore(pool), pool
    pool.close()


def test_appends_go_on_after_a_conflict_rolled_their_connection_back(one_connection_store):
    store, _ = one_connection_store
    game = new_game()
    stored = store.append(game, 0, events("GameCreated"), META)
    for _ in range(6):  # enough for psycopg to prepare statements of its own, which a rollback deallocates
        store.load(game)
    with pytest.raises(ConcurrencyError):
        store.append(game, 0, events("GameCreated"), META)
    stored += store.append(game, 1, events("HandDealt"), META, previous_hash=stored[-1].hash)
    assert store.load(game) == stored
    assert chain(game, stored) == [e.hash for e in stored]


def test_appends_go_on_when_their_prepared_statement_is_gone(one_connection_store):
    store, pool = one_connection_store
    game = new_game()
    stored = store.append(game, 0, events("GameCreated"), META)
    stored += store.append(game, 1, events("HandDealt"), META, previous_hash=stored[-1].hash)
    with pool.connection() as conn:
        conn.execute("DEALLOCATE ALL")  # as a connection reset by a proxy might
    stored += store.append(game, 2, events("CardTrailed"), META, previous_hash=stored[-1].hash)
    assert store.load(game) == stored

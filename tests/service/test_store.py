"""What only the PostgreSQL event store has; its contract is tested in tests/contract."""

from __future__ import annotations

import threading

import psycopg
import pytest

from service.auth import hash_token
from service.chain import chain
from service.events import Append, ConcurrencyError, IdempotencyRecord, NewEvent
from service.postgres.notifications import CHANNEL, PAYLOAD_LIMIT, Seal, parse_notification, tag
from tests.contract.test_event_store import META, SOME_HASH, events, new_game

def test_a_writer_committing_the_same_version_meanwhile_makes_the_append_fail(
    store, database_url, wait_for_lock_wait
):
    """The unique (game_id, version) key catches what the version check cannot see yet."""
    game = new_game()
    store.append(Append(game, 0, events("A"), META))
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


def test_idempotency_keys_and_seat_tokens_are_stored_hashed(store, database_url):
    game = new_game()
    store.append(Append(game, 0, events("A"), META, idempotency=IdempotencyRecord("secret-key", "h1", {}, "public"),
                 seat_token_hashes={0: hash_token("alpha")}))

    with psycopg.connect(database_url, autocommit=True) as conn:
        keys = {k for (k,) in conn.execute("SELECT key FROM idempotency WHERE game_id = %s", (game,))}
        tokens = {h for (h,) in conn.execute("SELECT token_hash FROM seat_tokens WHERE game_id = %s", (game,))}
    assert keys == {hash_token("secret-key")}
    assert tokens == {hash_token("alpha")}


def _try_append(store, game, expected):
    try:
        return store.append(Append(game, expected, events("Mine"), META, previous_hash=SOME_HASH))
    except ConcurrencyError as error:
        return error


def test_an_append_is_kept_when_only_the_notification_after_its_commit_fails(store, monkeypatch, caplog):
    # A channel name past PostgreSQL's 63 bytes makes pg_notify fail, after the COMMIT.
    monkeypatch.setattr("service.postgres.store.CHANNEL", "x" * 100)
    game = new_game()
    stored = store.append(Append(game, 0, events("GameCreated", "HandDealt"), META))
    assert [e.version for e in stored] == [1, 2] and stored[0].position < stored[1].position
    assert store.load(game) == stored
    assert "not notified" in caplog.text
    # The connection went back to the pool in a usable state.
    assert store.append(Append(game, 2, events("CardTrailed"), META, previous_hash=stored[-1].hash))


KEY = b"n" * 32


@pytest.fixture
def sealed_store(pool):
    """A store that seals its notifications under ``KEY``."""
    from service.postgres.store import PostgresEventStore

    return PostgresEventStore(pool, seal=Seal(KEY))


def notices_of(database_url, append):
    """The payloads of CHANNEL's notifications sent while ``append()`` runs."""
    with psycopg.connect(database_url, autocommit=True) as listener:
        listener.execute(f"LISTEN {CHANNEL}")
        append()
        return [n.payload for n in listener.notifies(timeout=1.0, stop_after=1)]


def test_a_notification_carries_the_events_as_stored(sealed_store, database_url):
    store, game = sealed_store, new_game()
    first = store.append(Append(game, 0, events("A"), META))
    appended = []
    (payload,) = notices_of(database_url, lambda: appended.extend(
        store.append(Append(game, 1, events("B", "C"), META, previous_hash=first[-1].hash))))
    opened = parse_notification(payload, Seal(KEY)).open(game)
    assert (opened.game_id, opened.version) == (game, 3)
    assert opened.events() == appended == store.load(game, 1)


def test_events_too_large_for_a_notification_are_announced_without_them(sealed_store, database_url, caplog):
    game = new_game()
    large = [NewEvent("Large", 1, {"text": "é" * (PAYLOAD_LIMIT // 2)})]  # two bytes each in UTF-8
    (payload,) = notices_of(database_url, lambda: sealed_store.append(Append(game, 0, large, META)))
    opened = parse_notification(payload, Seal(KEY)).open(game)
    assert (opened.game_id, opened.version) == (game, 1) and opened.events() is None
    assert "not notified" not in caplog.text


def test_the_largest_events_a_notification_carries_fit_in_one():
    game, seal = new_game(), Seal(KEY)
    for size in range(PAYLOAD_LIMIT - 400, PAYLOAD_LIMIT, 7):
        rows = b'[{"text": "' + b"x" * (size * 3 // 4 - 200) + b'"}]'
        before, after = seal.notification(game, 12, 1795576220.5, 2, rows)
        payload = before + "9" * 20 + after  # the longest transaction id
        assert len(payload) < PAYLOAD_LIMIT
        opened = parse_notification(payload, seal).open(game)
        assert opened.version == 12 and (opened.carried is None or b"xxx" in opened.carried)


def test_a_payload_opens_only_under_its_key_for_its_game():
    game, seal = new_game(), Seal(KEY)
    before, after = seal.notification(game, 7, 1795576220.5, 2, b'[{"type": "A"}]')
    notice = parse_notification(before + "12345" + after, seal)
    assert notice.open(game).sent_at == 1795576220.5
    assert notice._replace(seal=Seal(b"m" * 32)).open(game) is None  # another key
    assert notice.open(new_game()) is None  # another game
    tampered = notice._replace(box=notice.box[:-6] + ("A" if notice.box[-6] != "A" else "B") + notice.box[-5:])
    assert tampered.open(game) is None
    assert notice._replace(tag=tag(new_game())).open(game) is None  # the box moved to another tag
    assert parse_notification(f"{game.hex}:7:1795576220.5", seal) is None  # the clear form of the code before
    assert parse_notification("not:a notification", seal) is None


@pytest.fixture
def one_connection_store(database_url):
    """A store over a pool of one connection: every append shares its prepared statements."""
    from service.postgres.database import open_pool
    from service.postgres.store import PostgresEventStore

    pool = open_pool(database_url, max_size=1)
    yield PostgresEventStore(pool), pool
    pool.close()


def test_appends_go_on_after_a_conflict_rolled_their_connection_back(one_connection_store):
    store, _ = one_connection_store
    game = new_game()
    stored = store.append(Append(game, 0, events("GameCreated"), META))
    for _ in range(6):  # enough for psycopg to prepare statements of its own, which a rollback deallocates
        store.load(game)
    with pytest.raises(ConcurrencyError):
        store.append(Append(game, 0, events("GameCreated"), META))
    stored += store.append(Append(game, 1, events("HandDealt"), META, previous_hash=stored[-1].hash))
    assert store.load(game) == stored
    assert chain(game, stored) == [e.hash for e in stored]


def test_appends_go_on_when_their_prepared_statement_is_gone(one_connection_store):
    store, pool = one_connection_store
    game = new_game()
    stored = store.append(Append(game, 0, events("GameCreated"), META))
    stored += store.append(Append(game, 1, events("HandDealt"), META, previous_hash=stored[-1].hash))
    with pool.connection() as conn:
        conn.execute("DEALLOCATE ALL")  # as a connection reset by a proxy might
    stored += store.append(Append(game, 2, events("CardTrailed"), META, previous_hash=stored[-1].hash))
    assert store.load(game) == stored

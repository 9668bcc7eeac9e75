"""What only the PostgreSQL event store has; its contract is tested in tests/contract."""

from __future__ import annotations

import json
import random
import threading
import uuid

import psycopg
import pytest

from service.auth import hash_token
from service.chain import chain, first_break
from service.checkpoints import mismatch
from service.events import Append, ConcurrencyError, NewEvent
from service.postgres.notifications import CHANNEL, PAYLOAD_LIMIT, Seal, parse_notification, tag
from service.postgres.positions import PER_TRANSACTION
from service.postgres.store import PostgresEventStore
from service.writes import IdempotencyRecord, PlayerNotice, SeatToken
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
            "INSERT INTO events (position, game_id, version, type, schema_version, data, hash)"
            " VALUES (pg_current_xact_id()::text::bigint * 65536 + 1, %s, 2, 'Other', 1, '{}', repeat('0', 64))",
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
    store.append(Append(game, 0, events("A"), META, writes=[IdempotencyRecord("secret-key", "h1", {}, "public"),
                                                            SeatToken(0, hash_token("alpha"))]))

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


def test_appends_of_several_games_are_one_transaction_and_each_game_is_notified(sealed_store, database_url):
    store, games = sealed_store, [new_game() for _ in range(3)]
    firsts = [store.append(Append(g, 0, events("A"), META)) for g in games]
    written: list = []
    payloads = notices_of(database_url, lambda: written.extend(store.append_each(
        [Append(g, 1, events("B", "C"), META, previous_hash=first[-1].hash) for g, first in zip(games, firsts)])))
    payloads += notices_of(database_url, lambda: None)  # the rest, if they came after the first
    assert len({e.position // PER_TRANSACTION for stored in written for e in stored}) == 1
    opened = {}
    for payload in payloads:
        notice = parse_notification(payload, Seal(KEY))
        opened |= {g: n for g in games if (n := notice.open(g)) is not None}
    assert set(opened) == set(games)
    for game, stored in zip(games, written):
        assert opened[game].version == 3 and opened[game].events() == stored == store.load(game, 1)


def test_of_appends_of_several_games_one_behind_its_game_is_left_out_and_the_others_written_together(
        one_connection_store):
    store, pool = one_connection_store
    games = [new_game() for _ in range(3)]
    firsts = [store.append(Append(g, 0, events("A"), META)) for g in games]
    with pool.connection() as conn:
        conn.execute("DEALLOCATE ALL")  # and the statements prepared again, after the conflict's rollback too
    written = store.append_each([Append(g, 0 if g == games[1] else 1, events("B"), META,
                                        previous_hash=None if g == games[1] else first[-1].hash)
                                 for g, first in zip(games, firsts)])
    assert isinstance(written[1], ConcurrencyError)
    assert [store.load(g) for g in games] == [firsts[0] + written[0], firsts[1], firsts[2] + written[2]]
    assert written[0][0].position // PER_TRANSACTION == written[2][0].position // PER_TRANSACTION


def test_of_appends_of_several_games_one_that_files_a_key_filed_before_is_left_out_by_itself(store):
    games = [new_game() for _ in range(3)]
    firsts = [store.append(Append(g, 0, events("A"), META)) for g in games]
    filed = IdempotencyRecord("key-1", "hash", {"versions": [2, 2]}, "seat:0")
    store.append(Append(games[1], 1, events("B"), META, previous_hash=firsts[1][-1].hash, writes=[filed]))
    written = store.append_each([Append(g, 2 if g == games[1] else 1, events("C"), META,
                                        previous_hash=store.load(g)[-1].hash, writes=[filed])
                                 for g in games])
    assert isinstance(written[1], ConcurrencyError)
    assert [[e.type for e in store.load(g)] for g in games] == [["A", "C"], ["A", "B"], ["A", "C"]]


def test_a_player_is_told_after_the_commit_and_not_of_an_append_refused(sealed_store, database_url):
    store, game, player = sealed_store, new_game(), uuid.uuid4()
    told = [PlayerNotice(player, [{"event": "your_turn", "game": str(game), "version": 2}])]
    [first] = store.append(Append(game, 0, events("A"), META))
    with psycopg.connect(database_url, autocommit=True) as listener:
        listener.execute(f"LISTEN {CHANNEL}")
        with pytest.raises(ConcurrencyError):
            store.append(Append(game, 0, events("B"), META, writes=[PlayerNotice(player, [{"refused": True}])]))
        store.append(Append(game, 1, events("B"), META, previous_hash=first.hash, writes=told))
        payloads = [n.payload for n in listener.notifies(timeout=1.0, stop_after=2)]
    opened = [parse_notification(p, Seal(KEY)).open_player(player) for p in payloads]
    assert [json.loads(o) for o in opened if o is not None] == [told[0].notices]


def test_appends_racing_alone_and_in_batches_never_leave_a_checkpoint_out_of_step(pool):
    """Under READ COMMITTED, single appends and appends of several games at
    once race on the same few games for two seconds, each from the head it
    just read: whatever wins or loses, every game's events end where its
    signed checkpoint says, and its chain holds."""
    store, games, stop = PostgresEventStore(pool, checkpoint_key=KEY), [new_game() for _ in range(4)], threading.Event()
    for game in games:
        store.append(Append(game, 0, events("GameCreated"), META))
    outcomes: list[object] = []

    def head(game) -> Append:
        stored, _ = store.load_head(game)
        return Append(game, stored[-1].version, events("Next"), META, previous_hash=stored[-1].hash)

    def race(seed: int, together: bool) -> None:
        chosen = random.Random(seed)
        while not stop.is_set():
            try:
                if together:
                    outcomes.extend(store.append_each([head(g) for g in chosen.sample(games, 3)]))
                else:
                    outcomes.append(store.append(head(chosen.choice(games))))
            except ConcurrencyError as lost:
                outcomes.append(lost)
            except Exception as error:  # noqa: BLE001 - anything else fails the test
                outcomes.append(error)
                stop.set()

    threads = [threading.Thread(target=race, args=(n, n % 2 == 1)) for n in range(4)]
    for thread in threads:
        thread.start()
    stop.wait(2)
    stop.set()
    for thread in threads:
        thread.join()

    assert not [o for o in outcomes if isinstance(o, Exception) and not isinstance(o, ConcurrencyError)]
    assert any(isinstance(o, ConcurrencyError) for o in outcomes) and any(isinstance(o, list) for o in outcomes)
    for game in games:
        stored, checkpoint = store.load_head(game)
        assert mismatch(KEY, game, checkpoint, stored) is None and first_break(game, stored) is None
        assert [e.version for e in stored] == list(range(1, len(stored) + 1))

"""The alembic migrations, on a real PostgreSQL."""

from __future__ import annotations

import uuid

import psycopg
import psycopg_pool
import pytest
from alembic import command

import migrations
from service.auth import created_under, hash_token
from service.cache import StateCache
from service.chain import chain, first_break
from service.checkpoints import key_from
from service.postgres.readmodel import PostgresReadModel
from service.commands import CreateGame
from service.events import Append, NewEvent
from service.games import GameService
from service.postgres.store import PostgresEventStore
from service.ops.verify import Evidence, check_checkpoint, check_hash_chain, check_projection
from service.web.app import close_app, create_app
from tests.conftest import TEST_SETTINGS, tamper_with

META = {"actor": "public"}
TABLES = {"events", "idempotency", "games", "seat_tokens", "snapshots", "stream_ticket_uses", "checkpoints"}


def revision(url: str) -> str:
    with psycopg.connect(url) as conn:
        return conn.execute("SELECT version_num FROM alembic_version").fetchone()[0]


def tables(url: str) -> set[str]:
    with psycopg.connect(url) as conn:
        rows = conn.execute(
            "SELECT tablename FROM pg_tables WHERE schemaname = 'public'"
        ).fetchall()
    return {name for (name,) in rows}


def test_the_session_database_is_at_the_head_revision(database_url):
    assert revision(database_url) == migrations.head()
    assert tables(database_url) >= TABLES


def test_upgrading_again_changes_nothing(database_url):
    migrations.upgrade(database_url)
    migrations.upgrade(database_url)
    assert revision(database_url) == migrations.head()


def test_migrations_apply_to_an_empty_database_and_downgrade_cleanly(scratch_url):
    migrations.upgrade(scratch_url)
    assert tables(scratch_url) >= TABLES

    command.downgrade(migrations.config(scratch_url), "base")
    assert tables(scratch_url) == {"alembic_version"}

    migrations.upgrade(scratch_url)
    assert revision(scratch_url) == migrations.head()


def test_events_stored_before_the_hash_chain_get_their_hashes_in_order(scratch_url):
    migrations.upgrade(scratch_url, "0001")
    games = [uuid.uuid4(), uuid.uuid4()]
    with psycopg.connect(scratch_url, autocommit=True) as conn:
        for game in games:
            conn.execute(
                "INSERT INTO events (game_id, version, type, schema_version, data)"
                " SELECT %s, v, 'E', 1, jsonb_build_object('n', v, 'name', 'Zoë')"
                " FROM generate_series(1, 3) AS v",
                (game,),
            )

    migrations.upgrade(scratch_url)

    with psycopg_pool.ConnectionPool(scratch_url, kwargs={"autocommit": True}, min_size=1) as pool:
        for game in games:
            stored = PostgresEventStore(pool).load(game)
            assert len(stored) == 3 and first_break(game, stored) is None
        with pool.connection() as conn, pytest.raises(psycopg.errors.RestrictViolation):
            conn.execute("UPDATE events SET type = 'F'")  # append-only again


def test_events_stored_before_0003_keep_their_positions_and_new_ones_come_after(scratch_url):
    migrations.upgrade(scratch_url, "0002")
    insert = ("INSERT INTO events (game_id, version, type, schema_version, data, hash)"
              " SELECT %s, v, 'E', 1, '{}', repeat('0', 64) FROM generate_series(1, %s) AS v"
              " RETURNING position")
    with psycopg.connect(scratch_url, autocommit=True) as conn:
        old = [p for (p,) in conn.execute(insert, (uuid.uuid4(), 3)).fetchall()]
    migrations.upgrade(scratch_url)
    with psycopg_pool.ConnectionPool(scratch_url, kwargs={"autocommit": True}, min_size=1) as pool:
        store = PostgresEventStore(pool)
        with pool.connection() as conn:
            assert [p for (p,) in conn.execute("SELECT position FROM events ORDER BY position")] == old
        first = [e.position for e in store.append(Append(uuid.uuid4(), 0, [NewEvent("E", 1, {})] * 2, META))]
        second = [e.position for e in store.append(Append(uuid.uuid4(), 0, [NewEvent("E", 1, {})] * 2, META))]
    # Each transaction numbers its events from 1 above its id's base.
    assert old[-1] < first[0] and first[1] == first[0] + 1 and first[0] % 65536 == 1
    assert first[1] < second[0] and second[0] % 65536 == 1


def test_idempotency_records_before_0005_get_their_caller_and_a_hashed_key(scratch_url):
    migrations.upgrade(scratch_url, "0004")
    game = uuid.uuid4()
    with psycopg.connect(scratch_url, autocommit=True) as conn:
        conn.execute("INSERT INTO events (game_id, version, type, schema_version, data, metadata, hash)"
                     " SELECT %s, v, 'E', 1, '{}', jsonb_build_object('actor', 'seat:' || v), repeat('0', 64)"
                     " FROM generate_series(1, 2) AS v", (game,))
        conn.execute("INSERT INTO idempotency (game_id, key, request_hash, response) VALUES"
                     " (%s, 'play-1', 'h', '{\"versions\": [2, 2]}'),"
                     " ('00000000-0000-0000-0000-000000000000', 'create-1', 'h', '{\"game\": \"x\"}')",
                     (game,))
    migrations.upgrade(scratch_url)
    with psycopg_pool.ConnectionPool(scratch_url, kwargs={"autocommit": True}, min_size=1) as pool:
        store = PostgresEventStore(pool)
        assert store.find_idempotent(game, "seat:2", "play-1") == ("h", {"versions": [2, 2]})
        assert store.find_idempotent(game, "seat:1", "play-1") is None
        with pool.connection() as conn:
            assert conn.execute("SELECT key FROM idempotency").fetchall() != [("play-1",)]
            assert conn.execute("SELECT count(*) FROM idempotency").fetchone() == (1,)  # creations dropped


@pytest.mark.parametrize(
    "statement",
    [
        "UPDATE events SET type = 'Forged' WHERE game_id = %(game)s",
        "DELETE FROM events WHERE game_id = %(game)s",
        "DELETE FROM events WHERE false",
        "TRUNCATE events",
    ],
)
def test_events_cannot_be_changed_or_removed(database_url, statement):
    game = uuid.uuid4()
    with psycopg.connect(database_url, autocommit=True) as conn:
        conn.execute(
            "INSERT INTO events (position, game_id, version, type, schema_version, data, hash)"
            " VALUES (pg_current_xact_id()::text::bigint * 65536 + 1, %s, 1, 'GameCreated', 1, '{}', repeat('0', 64))",
            (game,),
        )
        with pytest.raises(psycopg.errors.RestrictViolation, match="append-only"):
            conn.execute(statement, {"game": game})
        assert conn.execute(
            "SELECT type FROM events WHERE game_id = %s", (game,)
        ).fetchall() == [("GameCreated",)]


def test_the_sqlalchemy_url_uses_the_psycopg_dialect():
    assert migrations.sqlalchemy_url("postgresql://u:p@h:5/db") == "postgresql+psycopg://u:p@h:5/db"
    assert migrations.sqlalchemy_url("postgres://u@h/db") == "postgresql+psycopg://u@h/db"
    with pytest.raises(ValueError):
        migrations.sqlalchemy_url("mysql://u@h/db")


def test_games_stored_under_chain_1_still_verify_and_go_on_under_chain_2(scratch_url):
    """Events are facts: 0006 leaves stored rows as they are; they keep their
    chain 1 hashes, and the game's next events chain on to them in chain 2,
    with the game's first checkpoint."""
    migrations.upgrade(scratch_url, "0004")
    game = uuid.uuid4()
    with psycopg.connect(scratch_url, autocommit=True) as conn:
        conn.execute(
            "INSERT INTO events (game_id, version, type, schema_version, data, metadata, hash)"
            " SELECT %s, v, 'E', 1, jsonb_build_object('n', v), '{\"actor\": \"public\"}', repeat('0', 64)"
            " FROM generate_series(1, 2) AS v", (game,))
    _rehash_as_chain_1(scratch_url, game)
    with psycopg.connect(scratch_url) as conn:
        before = conn.execute("SELECT xmin::text, hash FROM events WHERE game_id = %s ORDER BY version",
                              (game,)).fetchall()

    migrations.upgrade(scratch_url)

    key = key_from("token")
    with psycopg_pool.ConnectionPool(scratch_url, kwargs={"autocommit": True}, min_size=1) as pool:
        with pool.connection() as conn:
            after = conn.execute("SELECT xmin::text, hash FROM events WHERE game_id = %s ORDER BY version",
                                 (game,)).fetchall()
        assert after == before  # not a row rewritten
        old = Evidence(game, *PostgresReadModel(pool).evidence(game), key)
        assert [e.chain for e in old.events] == [1, 1]
        assert check_hash_chain(old).ok and check_checkpoint(old).ok
        store = PostgresEventStore(pool, key)
        store.append(Append(game, 2, [NewEvent("E", 1, {"n": 3})], {"actor": "public"}, previous_hash=before[-1][1]))
        new = Evidence(game, *PostgresReadModel(pool).evidence(game), key)
    assert [e.chain for e in new.events] == [1, 1, 2]
    assert check_hash_chain(new).ok and check_checkpoint(new).ok and new.checkpoint.version == 3


def _rehash_as_chain_1(url: str, game: uuid.UUID) -> None:
    with psycopg.connect(url) as conn:
        rows = conn.execute("SELECT version, type, schema_version, data FROM events WHERE game_id = %s"
                            " ORDER BY version", (game,)).fetchall()
    events = [type("E", (), {"version": v, "type": t, "schema_version": s, "data": d, "chain": 1})
              for v, t, s, d in rows]
    for event, hashed in zip(events, chain(game, events), strict=True):
        tamper_with(url, "UPDATE events SET hash = %s WHERE game_id = %s AND version = %s",
                    (hashed, game, event.version))


def test_a_games_row_takes_the_status_of_any_game_type(scratch_url):
    """After 0007 the row of a Mass Cool Casino game may be ``betting``; the
    statuses are the game types' own (``GameType.STATUSES``)."""
    insert = "INSERT INTO games (id, variant, status, player_names, version) VALUES (%s, %s, %s, '{A,B}', 1)"
    migrations.upgrade(scratch_url, "0006")
    with psycopg.connect(scratch_url, autocommit=True) as conn, pytest.raises(psycopg.errors.CheckViolation):
        conn.execute(insert, (uuid.uuid4(), "mass-cool-casino", "betting"))
    migrations.upgrade(scratch_url)
    with psycopg.connect(scratch_url, autocommit=True) as conn:
        for status in ("betting", "reshuffle"):
            conn.execute(insert, (uuid.uuid4(), "mass-cool-casino", status))


def test_finished_games_rows_name_their_winners_and_result_after_0010_and_verify(scratch_url):
    """Rows written before 0010 hold each game type's own outcome (Cassino's
    ``team``, Mass Cool Casino's ``seats``, and ``reason``); 0010 gives them
    ``winners`` and ``result`` as the fold does, so verify finds them right."""
    migrations.upgrade(scratch_url)
    app = create_app({**TEST_SETTINGS, "DATABASE_URL": scratch_url})
    try:
        client = app.test_client()
        partners = _finished(client, "partnership", 4, "resign", 1)  # side 0 (seats 0, 2) wins
        aborted = _finished(client, "cassino", 2, "abort", 0)
        pooled = _finished(client, "mass-cool-casino", 3, "resign", 2)
    finally:
        close_app(app)
    command.downgrade(migrations.config(scratch_url), "0009")
    assert _winners(scratch_url) == {  # as the code before 0010 wrote them
        partners: {"team": 0, "reason": "resigned"}, aborted: {"team": None, "reason": "aborted"},
        pooled: {"seats": [0, 1], "reason": "resigned"}}

    migrations.upgrade(scratch_url)

    assert _winners(scratch_url) == {
        partners: {"winners": [0, 2], "result": "resigned", "team": 0, "reason": "resigned"},
        aborted: {"winners": [], "result": "aborted", "team": None, "reason": "aborted"},
        pooled: {"winners": [0, 1], "result": "resigned", "seats": [0, 1], "reason": "resigned"}}
    with psycopg_pool.ConnectionPool(scratch_url, kwargs={"autocommit": True}, min_size=1) as pool:
        for game in (partners, aborted, pooled):
            finding = check_projection(Evidence(game, *PostgresReadModel(pool).evidence(game)))
            assert finding.ok, finding


def _finished(client, variant: str, seats: int, ending: str, seat: int) -> uuid.UUID:
    created = client.post("/v1/games", json={"variant": variant, "seats": [{"name": f"P{i}"} for i in range(seats)]})
    assert created.status_code == 201, created.get_json()
    game = created.get_json()
    ended = client.post(f"/v1/games/{game['id']}/{ending}", json={},
                        headers={"Authorization": f"Bearer {game['seats'][seat]['token']}"})
    assert ended.status_code == 200, ended.get_json()
    return uuid.UUID(game["id"])


def _winners(url: str) -> dict[uuid.UUID, dict]:
    with psycopg.connect(url) as conn:
        return dict(conn.execute("SELECT id, winner FROM games WHERE winner IS NOT NULL").fetchall())


def test_creation_keys_filed_under_one_id_before_0017_move_to_the_id_made_from_them_and_answer_retries(
        scratch_url):
    """A game created (as before 0017) with a random id and its key filed under the nil UUID: after the
    upgrade a retry finds the first answer, under the id made from the key; an expired record is dropped."""
    migrations.upgrade(scratch_url)
    key, expired = "creation-key-0123456789", "creation-key-9876543210"
    asked = {"variant": "cassino", "seats": ("Ann", "Bob"), "options": {}, "first_dealer": 0}
    with psycopg_pool.ConnectionPool(scratch_url, kwargs={"autocommit": True}, min_size=1) as pool:
        service = GameService(PostgresEventStore(pool), StateCache(), seat_key=b"the seat key")
        first = service.create(CreateGame(**asked, idempotency_key=key, game_id=uuid.uuid4()))
        service.create(CreateGame(**asked, idempotency_key=expired, game_id=uuid.uuid4()))
    assert first.game_id != created_under("public", key)

    command.downgrade(migrations.config(scratch_url), "0016")  # files them under the nil UUID, as before
    with psycopg.connect(scratch_url, autocommit=True) as conn:
        assert {game for (game,) in conn.execute("SELECT game_id FROM idempotency")} == {uuid.UUID(int=0)}
        conn.execute("UPDATE idempotency SET expires_at = now() - interval '1 second' WHERE key = %s",
                     (hash_token(expired),))
    migrations.upgrade(scratch_url)

    with psycopg.connect(scratch_url, autocommit=True) as conn:
        filed = conn.execute("SELECT game_id, key FROM idempotency").fetchall()
    assert filed == [(created_under("public", key), hash_token(key))]
    with psycopg_pool.ConnectionPool(scratch_url, kwargs={"autocommit": True}, min_size=1) as pool:
        store = PostgresEventStore(pool)
        again = GameService(store, StateCache(), seat_key=b"the seat key").create(
            CreateGame(**asked, idempotency_key=key))
        assert (again.game_id, again.tokens, again.state) == (first.game_id, first.tokens, first.state)
        assert len(store.game_ids()) == 2

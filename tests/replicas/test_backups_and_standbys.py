"""``casino backup``, ``casino restore`` and ``casino standby`` on the
embedded PostgreSQL: an operator's commands, run through ``casino``'s own
command line (in this process, but for the standby, which runs until it is
stopped).

The primary here is the embedded one as ``casino serve`` starts it with
``CASINO_PG_LISTEN``, ``CASINO_PG_PASSWORD`` and ``CASINO_WAL_ARCHIVE``:
reachable over TCP with a password, archiving its WAL into the backup
directory."""

from __future__ import annotations

import re
import signal
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

import psycopg
import pytest

import migrations
from service.ops import cli
from service.postgres.archiving import ArchiveKeeper
from service.postgres.database import EmbeddedPostgres, Exposure
from service.postgres.servers import Server, wait_for
from service.postgres.wal import last_commit
from service.web.app import close_app, create_app
from tests.api.conftest import ORDERED_DECK, Api
from tests.conftest import OPERATOR_TOKEN, TEST_SETTINGS, directory_for_postgres
from tests.service.serving import free_port, serve_environment

pytestmark = pytest.mark.postgres

PASSWORD = "a-password-for-tests"
CASINO = str(Path(sys.executable).with_name("casino"))


@dataclass
class Primary:
    directory: Path
    server: EmbeddedPostgres
    port: int
    url: str  # the casino database, through the socket
    api: Api

    @property
    def backups(self) -> Path:
        return self.directory / "backups"

    def version(self, game: str) -> int:
        with psycopg.connect(self.url) as conn:
            return conn.execute("SELECT max(version) FROM events WHERE game_id = %s", (game,)).fetchone()[0]


@pytest.fixture(scope="module")
def primary() -> Iterator[Primary]:
    with directory_for_postgres() as directory:
        port = free_port()
        exposure = Exposure(listen="127.0.0.1", password=PASSWORD, wal_archive=directory / "backups" / "wal",
                            port=port)
        server = EmbeddedPostgres(directory / "primary", temporary=True, exposure=exposure)
        url = server.database_url()
        migrations.upgrade(url)
        app = create_app({**TEST_SETTINGS, "DATABASE_URL": url})
        try:
            yield Primary(directory, server, port, url, Api(app, app.test_client()))
        finally:
            close_app(app)
            server.stop()


def casino(monkeypatch, capsys, *args: str, data: Path) -> tuple[int, str]:
    """``casino ARGS`` with ``CASINO_DATA_DIR=data`` and the operator's token: its exit status and output."""
    with monkeypatch.context() as patched:
        for name in ("DATABASE_URL", "CASINO_PG_LISTEN", "CASINO_WAL_ARCHIVE", "CASINO_BACKUP_DIR"):
            patched.delenv(name, raising=False)
        patched.setenv("CASINO_DATA_DIR", str(data))
        patched.setenv("CASINO_OPERATOR_TOKEN", OPERATOR_TOKEN)
        status = cli.main(list(args))
    said = capsys.readouterr()
    return status, said.out + said.err


def archived(primary: Primary) -> None:
    """Close the current WAL segment and wait until it is in the archive."""
    with psycopg.connect(primary.url, autocommit=True) as conn:
        (segment,) = conn.execute("SELECT pg_walfile_name(pg_switch_wal())").fetchone()
        wait_for(lambda: (primary.backups / "wal" / segment).exists(), 60, f"{segment} archived")


def test_a_restore_to_a_moment_has_every_game_as_it_was_then_and_each_verifies(primary, monkeypatch, capsys):
    api = primary.api
    status, said = casino(monkeypatch, capsys, "backup", "--into", str(primary.backups),
                          data=primary.directory / "primary")
    assert status == 0, said
    before = [api.create(first_dealer=1) for _ in range(3)]
    for game in before:
        api.deal(game, ORDERED_DECK)
        api.play(game, steps=2)
    kept = {game.id: primary.version(game.id) for game in before}
    time.sleep(0.05)
    moment = datetime.now(UTC)
    time.sleep(0.05)
    api.play(before[0], steps=3)
    after = api.create(first_dealer=1)
    archived(primary)

    restored = primary.directory / "restored"
    status, said = casino(monkeypatch, capsys, "restore", "--from", str(primary.backups), "--to", moment.isoformat(),
                          data=restored)
    assert status == 0, said
    assert f"Restored to {moment.isoformat()}; its last change was committed at" in said
    # casino verify, in a process of its own, starts the restored server, finds every game sound,
    # and the server stops with it: it waits for no process of the primary's (this one).
    environ = serve_environment(CASINO_DATA_DIR=str(restored), CASINO_OPERATOR_TOKEN=OPERATOR_TOKEN)
    done = subprocess.run([CASINO, "verify"], env=environ, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0 and "all sound" in done.stdout, done.stdout + done.stderr
    try:
        wait_for(lambda: not (restored / "pgdata" / "postmaster.pid").exists(), 30, "the restored server stopped")
    except TimeoutError:
        Server(restored / "pgdata").stop("immediate")  # not left running by a failed test
        raise

    server = EmbeddedPostgres(restored)  # started now, and stopped below
    try:
        with psycopg.connect(server.database_url()) as conn:
            versions = dict(conn.execute("SELECT game_id::text, max(version) FROM events"
                                         " WHERE game_id = ANY(%s::uuid[]) GROUP BY game_id",
                                         ([game.id for game in [*before, after]],)).fetchall())
    finally:
        server.stop()
    assert versions == kept  # as it was at the moment; the later game not at all
    assert primary.version(before[0].id) == kept[before[0].id] + 3


def test_a_restore_past_the_archive_is_refused_before_touching_anything(primary, monkeypatch, capsys):
    api = primary.api
    status, said = casino(monkeypatch, capsys, "backup", "--into", str(primary.backups),
                          data=primary.directory / "primary")
    assert status == 0, said
    archived_game = api.create(first_dealer=1)
    archived(primary)
    api.create(first_dealer=1)  # committed, not archived yet
    moment = datetime.now(UTC)

    refused = primary.directory / "refused"
    status, said = casino(monkeypatch, capsys, "restore", "--from", str(primary.backups), "--to", moment.isoformat(),
                          data=refused)
    assert status == 1
    last = datetime.fromisoformat(re.search(r"its last change was committed at (\S+):", said).group(1))
    assert last < moment and "Nothing was touched" in said and "pg_switch_wal()" in said, said
    assert not (refused / "pgdata").exists()

    # Without --to, the restore reaches that last change, and says so.
    status, said = casino(monkeypatch, capsys, "restore", "--from", str(primary.backups), data=refused)
    assert status == 0, said
    assert f"Restored to the last archived change; its last change was committed at {last.isoformat()}." in said
    server = EmbeddedPostgres(refused)
    try:
        with psycopg.connect(server.database_url()) as conn:
            assert conn.execute("SELECT count(*) FROM events WHERE game_id = %s",
                                (uuid.UUID(archived_game.id),)).fetchone()[0] > 0
    finally:
        server.stop()


def test_with_the_wal_streamed_a_restore_reaches_a_moment_a_second_old(primary, monkeypatch, capsys):
    """casino receive-wal streams the primary's WAL as it is written: a
    restore then reaches a moment that no archived segment holds yet."""
    api = primary.api
    status, said = casino(monkeypatch, capsys, "backup", "--into", str(primary.backups),
                          data=primary.directory / "primary")
    assert status == 0, said
    source = f"postgresql://postgres:{PASSWORD}@127.0.0.1:{primary.port}/casino"
    receiving = subprocess.Popen([CASINO, "receive-wal", source, "--into", str(primary.backups)],
                                 env=serve_environment(), stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    restored = primary.directory / "streamed"
    try:
        _line_with(receiving, "as it is written", 60)
        kept = api.create(first_dealer=1)
        time.sleep(0.05)
        moment = datetime.now(UTC)
        time.sleep(0.05)
        later = api.create(first_dealer=1)
        time.sleep(1.0)
        status, said = casino(monkeypatch, capsys, "restore", "--from", str(primary.backups),
                              "--to", moment.isoformat(), data=restored)
        assert status == 0, said
    finally:
        receiving.send_signal(signal.SIGTERM)
        assert receiving.wait(30) == 0
    server = EmbeddedPostgres(restored)
    try:
        with psycopg.connect(server.database_url()) as conn:
            found = {game for (game,) in conn.execute("SELECT DISTINCT game_id::text FROM events WHERE game_id"
                                                      " = ANY(%s::uuid[])", ([kept.id, later.id],)).fetchall()}
    finally:
        server.stop()
    assert found == {kept.id}


def test_the_archive_keeper_archives_what_was_written_and_finishes_no_empty_segment(primary):
    """casino serve's ArchiveKeeper (here every half second, not every minute)."""
    keeper = ArchiveKeeper(primary.url, every=0.5)
    keeper.start()
    try:
        before = datetime.now(UTC)
        primary.api.create(first_dealer=1)
        wait_for(lambda: (last_commit(primary.backups / "wal") or before) > before, 10, "the game archived")
    finally:
        keeper.stop()
    with psycopg.connect(primary.url, autocommit=True) as conn:
        (segment,) = conn.execute("SELECT pg_walfile_name(pg_current_wal_lsn())").fetchone()
        seen = keeper.tick(None)
        assert keeper.tick(seen) == seen  # nothing written in between: no switch
        assert conn.execute("SELECT pg_walfile_name(pg_current_wal_lsn())").fetchone() == (segment,)


def test_one_command_makes_a_standby_of_the_embedded_primary_on_another_machine(primary, monkeypatch, capsys):
    game = primary.api.create(first_dealer=1)
    source = f"postgresql://postgres:{PASSWORD}@127.0.0.1:{primary.port}/casino"
    data = primary.directory / "standby"
    env = serve_environment(CASINO_DATA_DIR=str(data), CASINO_PG_PORT=str(free_port()))
    running = subprocess.Popen([CASINO, "standby", source, "--name", "standby_t"], env=env,
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        said = _line_with(running, "is up", 120)
        standby_url = _url_in(said)
        assert _version_on(standby_url, game.id) == 2  # what the primary had
        primary.api.deal(game, ORDERED_DECK)
        wait_for(lambda: _version_on(standby_url, game.id) == 3, 30, "the deal replayed on the standby")
        with psycopg.connect(primary.url) as conn:
            streaming = conn.execute("SELECT application_name FROM pg_stat_replication"
                                     " WHERE state = 'streaming'").fetchall()
        assert ("standby_t",) in streaming

        status, said = casino(monkeypatch, capsys, "promote", data=data)
        assert status == 0, said
        with psycopg.connect(standby_url, autocommit=True) as conn:
            assert conn.execute("SELECT pg_is_in_recovery()").fetchone() == (False,)
    finally:
        running.send_signal(signal.SIGTERM)
        assert running.wait(60) == 0


def _line_with(process: subprocess.Popen, text: str, seconds: float) -> str:
    deadline = time.monotonic() + seconds
    assert process.stdout is not None
    for line in process.stdout:
        if text in line:
            return line
        if time.monotonic() > deadline:
            break
    raise AssertionError(f"casino standby never said {text!r}")


def _url_in(line: str) -> str:
    return next(word for word in line.split() if word.startswith("postgresql://")).rstrip(".")


def _version_on(url: str, game: str) -> int | None:
    with psycopg.connect(url, connect_timeout=10) as conn:
        return conn.execute("SELECT max(version) FROM events WHERE game_id = %s", (uuid.UUID(game),)).fetchone()[0]


"""The ``casino`` command.

Storage is the same for every subcommand: ``DATABASE_URL``, else the
embedded PostgreSQL in ``CASINO_DATA_DIR`` (default ``./.casino-data``),
started on demand and stopped when the last ``casino`` process using it ends.
``serve`` and ``migrate`` bring the schema up to date; the operator commands
(``verify``, ``heads``, ``export``, ``replay``, ``rebuild-projections``, in
``service.ops.commands``) only use it, and say so when it is behind.
"""

from __future__ import annotations

import argparse
import errno
import os
import signal
import socket
import sys
import tempfile
import uuid
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from datetime import datetime
from pathlib import Path
from typing import Any

import psycopg
import sqlalchemy.exc
from psycopg_pool import ConnectionPool

import migrations
from service import auth, checkpoints
from service.ops import backup as backups
from service.ops import commands as ops
from service.ops import serve as server
from service.ops import standby as standbys
from service.postgres import archiving, database, notifications, servers
from service.postgres.readmodel import PostgresReadModel
from service.postgres.store import PostgresEventStore


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="casino", description="The casino card-game service.")
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    serve_parser = commands.add_parser("serve", help="migrate the database, then serve the API")
    serve_parser.add_argument("--host", default="127.0.0.1", help="address to listen on")
    serve_parser.add_argument("--port", type=_port, default=os.environ.get("CASINO_PORT") or "8000",
                              help="port to listen on (default: CASINO_PORT, else 8000)")
    serve_parser.set_defaults(run=serve)

    migrate_parser = commands.add_parser("migrate", help="bring the database schema up to date")
    migrate_parser.set_defaults(run=migrate)

    verify_parser = commands.add_parser(
        "verify", help="check games' hash chains and read model; exit 1 if anything is wrong")
    verify_parser.add_argument("game", nargs="?", type=uuid.UUID, metavar="GAME",
                               help="the game's id (default: every game)")
    verify_parser.add_argument("--heads", type=Path, metavar="FILE",
                               help="also check heads kept from `casino heads` (every game in the file)")
    verify_parser.add_argument("--json", action="store_true", dest="as_json",
                               help="print each report whole, as JSON (full head hashes included)")
    verify_parser.set_defaults(run=verify)

    heads_parser = commands.add_parser(
        "heads", help="write every game's head (JSON), to keep outside the database for `verify --heads`")
    heads_parser.add_argument("-o", "--output", type=Path, metavar="FILE", help="write here, not to stdout")
    heads_parser.set_defaults(run=heads)

    export_parser = commands.add_parser("export", help="write a game's transcript (JSON)")
    export_parser.add_argument("game", type=uuid.UUID, metavar="GAME", help="the game's id")
    export_parser.add_argument("-o", "--output", type=Path, metavar="FILE", help="write here, not to stdout")
    export_parser.add_argument("--force", action="store_true",
                               help="export a game that fails verification all the same")
    export_parser.set_defaults(run=export)

    replay_parser = commands.add_parser(
        "replay", help="check a transcript and replay it into the database as a game")
    replay_parser.add_argument("file", type=Path, metavar="FILE", help="a transcript from casino export")
    replay_parser.add_argument("--print", action="store_true", dest="print_only",
                               help="print each step instead; write nothing")
    replay_parser.set_defaults(run=replay)

    rebuild_parser = commands.add_parser(
        "rebuild-projections", help="recompute the games read model from the events alone")
    rebuild_parser.set_defaults(run=rebuild_projections)

    backup_parser = commands.add_parser(
        "backup", help="take a base backup of the primary (the embedded one, or DATABASE_URL's)")
    backup_parser.add_argument("--into", type=Path, default=_backup_dir(), metavar="DIR",
                               help="the backup directory (default: CASINO_BACKUP_DIR)")
    backup_parser.set_defaults(run=take_backup)

    restore_parser = commands.add_parser(
        "restore", help="make CASINO_DATA_DIR's database from a base backup and the archived WAL")
    restore_parser.add_argument("--from", dest="source", type=Path, default=_backup_dir(), metavar="DIR",
                                help="the backup directory (default: CASINO_BACKUP_DIR)")
    restore_parser.add_argument("--to", type=_moment, metavar="TIME",
                                help="the moment to restore, with its offset (2026-01-31T18:00:00+00:00);"
                                     " default: the last change archived")
    restore_parser.set_defaults(run=restore)

    receive_parser = commands.add_parser(
        "receive-wal", help="stream a primary's WAL into the backup directory as it is written (pg_receivewal)")
    receive_parser.add_argument("primary", metavar="URL",
                                help="the primary, as a role that may replicate: postgresql://postgres:PASSWORD@HOST")
    receive_parser.add_argument("--into", type=Path, default=_backup_dir(), metavar="DIR",
                                help="the backup directory (default: CASINO_BACKUP_DIR)")
    receive_parser.set_defaults(run=receive_wal)

    standby_parser = commands.add_parser(
        "standby", help="run a hot standby of a primary in CASINO_DATA_DIR (copied from it the first time)")
    standby_parser.add_argument("primary", metavar="URL",
                                help="the primary, as a role that may replicate: postgresql://postgres:PASSWORD@HOST")
    standby_parser.add_argument("--name", default=socket.gethostname().replace("-", "_"),
                                help="its name on the primary, for synchronous_standby_names (default: the host's)")
    standby_parser.set_defaults(run=run_standby)

    promote_parser = commands.add_parser("promote", help="make the standby in CASINO_DATA_DIR the primary")
    promote_parser.set_defaults(run=promote)

    args = parser.parse_args(argv)
    try:
        status = args.run(args)
        sys.stdout.flush()  # here, where a reader gone away is caught, not at exit
        return status
    except (psycopg.OperationalError, sqlalchemy.exc.OperationalError) as error:
        print(f"casino: cannot use the database: {error}", file=sys.stderr)
        return 1
    except servers.Failed as error:
        print(f"casino: {error}", file=sys.stderr)
        return 1
    except (SchemaBehind, migrations.NotTheCoordinator) as error:
        print(f"casino: {error}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:  # Ctrl-C: the person knows why it stopped
        return 128 + signal.SIGINT
    except BrokenPipeError:
        return _reader_gone()


def _reader_gone() -> int:
    """What ``casino verify --json | head`` ends with once ``head`` has read
    enough: no more output, no traceback, and none at exit either, when
    Python would flush stdout into the closed pipe again (the recipe of
    Python's documentation on SIGPIPE)."""
    os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    return 128 + signal.SIGPIPE


def migrate(args: argparse.Namespace) -> int:
    migrations.upgrade(_database_url())
    print(f"Database schema is at revision {migrations.head()}.")
    return 0


def verify(args: argparse.Namespace) -> int:
    with _pool() as pool:
        read_model = PostgresReadModel(pool)
        found = ops.verify_games(read_model, args.game, sys.stdout, _checkpoint_key(), as_json=args.as_json)
        if args.heads is not None:
            try:
                kept = args.heads.read_text(encoding="utf-8")
            except (OSError, UnicodeDecodeError) as error:
                print(f"casino: cannot read {args.heads}: {error}", file=sys.stderr)
                return 1
            found = max(found, ops.check_heads(read_model, kept, sys.stdout))
        return found


def heads(args: argparse.Namespace) -> int:
    with _pool() as pool:
        return ops.export_heads(PostgresReadModel(pool), args.output, sys.stdout)


def export(args: argparse.Namespace) -> int:
    with _pool() as pool:
        return ops.export_game(PostgresReadModel(pool), args.game, args.output, _checkpoint_key(), force=args.force)


def replay(args: argparse.Namespace) -> int:
    try:
        text = args.file.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        print(f"casino: cannot read {args.file}: {error}", file=sys.stderr)
        return 1
    if args.print_only:
        return ops.replay_transcript(None, text, sys.stdout)
    with _pool() as pool:
        store = PostgresEventStore(pool, _checkpoint_key(), _seal())
        return ops.replay_transcript(store, text, sys.stdout)


def rebuild_projections(args: argparse.Namespace) -> int:
    with _pool() as pool:
        return ops.rebuild_projections(PostgresEventStore(pool), PostgresReadModel(pool), sys.stdout)


def take_backup(args: argparse.Namespace) -> int:
    if args.into is None:
        print("casino: say where backups go: --into DIR, or CASINO_BACKUP_DIR.", file=sys.stderr)
        return 1
    source = os.environ.get("DATABASE_URL") or database.EmbeddedPostgres(
        database.data_dir(), exposure=database.Exposure.from_environment()).admin_url
    return backups.backup(source, args.into.resolve(), sys.stdout)


def restore(args: argparse.Namespace) -> int:
    if args.source is None:
        print("casino: say where the backups are: --from DIR, or CASINO_BACKUP_DIR.", file=sys.stderr)
        return 1
    return backups.restore(args.source.resolve(), database.data_dir(), args.to, sys.stdout)


def receive_wal(args: argparse.Namespace) -> int:
    if args.into is None:
        print("casino: say where backups go: --into DIR, or CASINO_BACKUP_DIR.", file=sys.stderr)
        return 1
    return backups.receive(args.primary, args.into.resolve(), sys.stdout)


def run_standby(args: argparse.Namespace) -> int:
    return standbys.standby(args.primary, database.data_dir(), database.Exposure.from_environment(), args.name,
                            sys.stdout)


def promote(args: argparse.Namespace) -> int:
    return standbys.promote(database.data_dir(), sys.stdout)


def _backup_dir() -> Path | None:
    where = os.environ.get("CASINO_BACKUP_DIR")
    return Path(where) if where else None


def _moment(text: str) -> datetime:
    """A moment with its offset, for argparse."""
    try:
        moment = datetime.fromisoformat(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a moment like 2026-01-31T18:00:00+00:00") from None
    if moment.tzinfo is None:
        raise argparse.ArgumentTypeError(f"{text!r} has no offset: add +00:00 (or yours)")
    return moment


class SchemaBehind(Exception):
    pass


@contextmanager
def _pool() -> Iterator[ConnectionPool]:
    """A small pool on the configured database, whose schema must be current."""
    url = _database_url(sys.stderr)
    at = migrations.current(url)
    if at != migrations.head():
        raise SchemaBehind(f"The database schema is at revision {at or 'none'}, not {migrations.head()}:"
                           " run `casino migrate` first.")
    with database.open_pool(url) as pool:
        yield pool


def serve(args: argparse.Namespace) -> int:
    taken = _port_taken(args.host, args.port)
    if taken:
        print(f"casino: cannot serve on {args.host}:{args.port}: {taken}. Choose another port with"
              " --port N or CASINO_PORT=N (make run PORT=N).", file=sys.stderr)
        return 1
    options = server.options(args.host, args.port)
    url = _database_url()
    migrations.upgrade(url)
    app_config: dict[str, Any] = {
        "DATABASE_URL": url,
        "OPERATOR_TOKEN": os.environ.get("CASINO_OPERATOR_TOKEN") or _kept_operator_token(),
        "KEEP_DEADLINES": True,  # every worker claims the games whose clock has run out
        "PAIR_PLAYERS": True,  # and pairs the players waiting for a game
    }
    if not os.environ.get("CASINO_DB_POOL_MAX_SIZE"):
        app_config["DB_POOL_MAX_SIZE"] = options["threads"]
    if not os.environ.get("CASINO_STREAM_MAX_OPEN"):
        app_config["STREAM_MAX_OPEN"] = server.stream_capacity(options)

    with tempfile.TemporaryDirectory(prefix="casino-metrics-") as metrics_dir:
        # prometheus_client picks its storage when first imported (in the
        # workers): they all count in this directory.
        env = {"PROMETHEUS_MULTIPROC_DIR": metrics_dir, **os.environ}
        print(f"Serving the casino API on http://{options['bind']}/ ({server.describe(options)})",
              flush=True)
        keeper = _archive_keeper(url)
        try:
            return server.run(options, app_config, env, _said_at_start(options, url))
        finally:
            if keeper is not None:
                keeper.stop()


def _archive_keeper(url: str) -> archiving.ArchiveKeeper | None:
    """What keeps the embedded primary's archive a minute behind at most, when it archives (started)."""
    if os.environ.get("DATABASE_URL") or database.Exposure.from_environment().wal_archive is None:
        return None
    keeper = archiving.ArchiveKeeper(url)
    keeper.start()
    return keeper


def _said_at_start(options: Mapping[str, Any], url: str) -> dict[str, Any]:
    """The settings ``casino serve`` logs when it starts and stops: how it serves, on what (no secret)."""
    said = {"address": options["bind"], "workers": options["workers"], "worker_class": options["worker_class"],
            "threads": options["threads"], "database": database.shown(url), "keeps_deadlines": True}
    if os.environ.get("CASINO_REPLICA_URL"):
        said["replicas"] = database.shown(os.environ["CASINO_REPLICA_URL"])
    if not os.environ.get("DATABASE_URL"):
        archive = database.Exposure.from_environment().wal_archive
        said["wal_archive"] = str(archive) if archive else None
        said["archive_timeout_seconds"] = database.ARCHIVE_TIMEOUT if archive else None
    return said


def _port(text: str) -> int:
    """A TCP port number, for argparse (which also applies it to the default)."""
    if not text.isdigit() or not 1 <= int(text) <= 65535:
        raise argparse.ArgumentTypeError(f"{text!r} is not a port number (1 to 65535)")
    return int(text)


def _port_taken(host: str, port: int) -> str | None:
    """Why ``host:port`` cannot be listened on, or None if it can.

    Checked before anything starts: gunicorn, finding the address in use,
    would retry for seconds and then exit with a log of JSON lines. Bound
    with SO_REUSEADDR as gunicorn binds, so a closed connection still
    lingering in TIME_WAIT does not count as taken.
    """
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
    except socket.gaierror as error:
        return f"unknown host ({error.strerror})"
    family, kind, proto, _, address = infos[0]
    with socket.socket(family, kind, proto) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind(address)
        except OSError as error:
            if error.errno == errno.EADDRINUSE:
                return "the port is taken"
            return error.strerror or str(error)
    return None


def _database_url(out=None) -> str:
    out = out or sys.stdout
    if os.environ.get("DATABASE_URL"):
        print("Database: DATABASE_URL", file=out, flush=True)
    else:
        exposure = database.Exposure.from_environment().described()
        print(f"Database: embedded PostgreSQL in {database.data_dir() / 'pgdata'}"
              + (f", {exposure}" if exposure else ""), file=out, flush=True)
    return database.resolve_database_url()


def _checkpoint_key() -> bytes | None:
    """The key ``casino serve`` signs checkpoints with, from the same
    settings; None when there is none (signatures then go unchecked)."""
    return checkpoints.key_for({"CHECKPOINT_KEY": os.environ.get("CASINO_CHECKPOINT_KEY"),
                                "OPERATOR_TOKEN": _operator_token()})


def _seal() -> notifications.Seal | None:
    """What ``casino serve`` seals its notifications with, so that its live
    streams take a replayed game's events from them; None without a token."""
    token = _operator_token()
    return notifications.Seal(notifications.key_from(token)) if token else None


def _operator_token() -> str | None:
    """The operator token ``casino serve`` uses, if there is one yet."""
    token = os.environ.get("CASINO_OPERATOR_TOKEN")
    kept = database.data_dir() / auth.OPERATOR_TOKEN_FILE
    if not token and kept.is_file():
        token = kept.read_text(encoding="utf-8").strip()
    return token or None


def _kept_operator_token() -> str:
    directory = database.data_dir()
    token, created = auth.operator_token(directory)
    where = directory / auth.OPERATOR_TOKEN_FILE
    if created:
        print(f"Operator token (shown this once; kept in {where}):\n  {token}", flush=True)
    else:
        print(f"Operator token: kept in {where}", flush=True)
    return token

"""The ``casino`` command.

Storage is the same for every subcommand: ``DATABASE_URL``, else the
embedded PostgreSQL in ``CASINO_DATA_DIR`` (default ``./.casino-data``),
started on demand and stopped when the last ``casino`` process using it ends.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile

import psycopg
import sqlalchemy.exc

import migrations
from service import database, gunicorn_conf, tokens


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="casino", description="The Cassino game service.")
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    serve_parser = commands.add_parser("serve", help="migrate the database, then serve the API")
    serve_parser.add_argument("--host", default="127.0.0.1", help="address to listen on")
    serve_parser.add_argument("--port", type=int, default=8000, help="port to listen on")
    serve_parser.set_defaults(run=serve)

    migrate_parser = commands.add_parser("migrate", help="bring the database schema up to date")
    migrate_parser.set_defaults(run=migrate)

    args = parser.parse_args(argv)
    try:
        return args.run(args)
    except (psycopg.OperationalError, sqlalchemy.exc.OperationalError) as error:
        print(f"casino: cannot use the database: {error}", file=sys.stderr)
        return 1


def migrate(args: argparse.Namespace) -> int:
    migrations.upgrade(_database_url())
    print(f"Database schema is at revision {migrations.head()}.")
    return 0


def serve(args: argparse.Namespace) -> int:
    options = gunicorn_conf.options(args.host, args.port)
    url = _database_url()
    migrations.upgrade(url)
    app_config = {
        "DATABASE_URL": url,
        "OPERATOR_TOKEN": os.environ.get("CASINO_OPERATOR_TOKEN") or _kept_operator_token(),
    }
    if not os.environ.get("CASINO_DB_POOL_MAX_SIZE"):
        app_config["DB_POOL_MAX_SIZE"] = options["threads"]
    if not os.environ.get("CASINO_STREAM_MAX_OPEN"):
        # Live streams may take half of a worker's threads; requests keep the rest.
        app_config["STREAM_MAX_OPEN"] = max(1, options["threads"] // 2)

    with tempfile.TemporaryDirectory(prefix="casino-metrics-") as metrics_dir:
        # Must be set before prometheus_client is first imported (by the
        # app, below): it picks its storage at import time.
        os.environ.setdefault("PROMETHEUS_MULTIPROC_DIR", metrics_dir)
        from service.server import Server

        print(
            f"Serving the Cassino API on http://{options['bind']}/ "
            f"({options['workers']} workers x {options['threads']} threads)",
            flush=True,
        )
        Server(options, app_config).run()
    return 0


def _database_url() -> str:
    if os.environ.get("DATABASE_URL"):
        print("Database: DATABASE_URL", flush=True)
    else:
        print(f"Database: embedded PostgreSQL in {database.data_dir() / 'pgdata'}", flush=True)
    return database.resolve_database_url()


def _kept_operator_token() -> str:
    directory = database.data_dir()
    token, created = tokens.operator_token(directory)
    where = directory / tokens.OPERATOR_TOKEN_FILE
    if created:
        print(f"Operator token (shown this once; kept in {where}):\n  {token}", flush=True)
    else:
        print(f"Operator token: kept in {where}", flush=True)
    return token

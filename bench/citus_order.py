"""The global order on Citus: a cursor of one position per node, or logical
decoding? Measured on one cluster (a coordinator and two workers, Citus
from tests/citus/build.py), its nodes at ``wal_level=logical``:

- ``append_ms``: one append through a worker (two events, its own game's
  next version), the positions numbered as the store numbers them;
- ``append_ms_with_slots``: the same with a logical replication slot on
  each node, as logical decoding needs (each node's WAL kept until decoded);
- ``cursor_page_ms``: a page of ``PAGE`` events read by cursor
  (``PostgresEventStore.read_all``: every node's horizon, its prepared
  transactions, each node's range, the versions before the page's),
  and ``settled_ms``, the horizons alone;
- ``decode_ms_per_event``: decoding the appends from every node's slot
  (``test_decoding``, the cheapest output plugin: the least logical
  decoding costs), per event, before any process has merged, numbered and
  stored them anew for readers.

Run: ``python bench/citus_order.py`` (under ``flock /work/bench.lock``). Last line: JSON.
"""

from __future__ import annotations

import json
import statistics
import sys
import tempfile
import time
import uuid
from pathlib import Path

import psycopg

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import migrations  # noqa: E402
from service.events import Append, Cursor, NewEvent  # noqa: E402
from service.postgres.database import open_pool  # noqa: E402
from service.postgres.store import PostgresEventStore, _settled  # noqa: E402
from tests.citus import build, cluster  # noqa: E402

APPENDS = 300
PAGE = 100
META = {"actor": "bench"}


def appends(stores: list[PostgresEventStore], count: int) -> float:
    """Milliseconds per append, through the stores in turn, each on games of its own."""
    heads: dict[uuid.UUID, tuple[int, str | None]] = {}
    games = [uuid.uuid4() for _ in range(20)]
    started = time.perf_counter()
    for n in range(count):
        game = games[n % len(games)]
        version, head = heads.get(game, (0, None))
        stored = stores[n % len(stores)].append(Append(game, version, [NewEvent("E", 1, {"n": n}),
                                                                       NewEvent("F", 1, {})], META,
                                                       previous_hash=head))
        heads[game] = (version + 2, stored[-1].hash)
    return (time.perf_counter() - started) * 1000 / count


def main() -> None:
    settings = {**cluster.SETTINGS, "wal_level": "logical", "max_replication_slots": "4", "max_wal_senders": "4"}
    with tempfile.TemporaryDirectory(prefix="casino-bench-") as directory:
        Path(directory).chmod(0o755)
        nodes = cluster.Cluster(Path(directory) / "citus", build.programs())
        original, cluster.SETTINGS = cluster.SETTINGS, settings
        try:
            nodes.start()
            migrations.upgrade(nodes.url)
            pools = [open_pool(node.url(cluster.DATABASE), max_size=2) for node in nodes.nodes]
            stores = [PostgresEventStore(pool) for pool in pools]
            workers = stores[1:]
            appends(workers, 50)  # warm: statements prepared, connections made
            plain = appends(workers, APPENDS)
            for node in nodes.nodes:
                node.sql("SELECT pg_create_logical_replication_slot('bench', 'test_decoding')", (),
                         cluster.DATABASE)
            with_slots = appends(workers, APPENDS)
            started, decoded = time.perf_counter(), 0
            for node in nodes.nodes:
                with psycopg.connect(node.url(cluster.DATABASE)) as conn:
                    decoded += conn.execute("SELECT count(*) FROM pg_logical_slot_get_changes('bench', NULL, NULL)"
                                            " WHERE data LIKE 'table public.events_%%: INSERT:%%'").fetchone()[0]
            decode_ms = (time.perf_counter() - started) * 1000 / max(decoded, 1)
            for node in nodes.nodes:
                node.sql("SELECT pg_drop_replication_slot('bench')", (), cluster.DATABASE)
            pages, settled, cursor = [], [], Cursor()
            with pools[0].connection() as conn:
                for _ in range(20):
                    t = time.perf_counter()
                    _settled(conn, cursor, stores[0]._nodes)
                    settled.append((time.perf_counter() - t) * 1000)
            while True:
                t = time.perf_counter()
                page = stores[0].read_all(cursor, PAGE)
                if len(page) < PAGE:
                    break
                pages.append((time.perf_counter() - t) * 1000)
                cursor = cursor.past(page)
            for pool in pools:
                pool.close()
        finally:
            cluster.SETTINGS = original
            nodes.remove()
    print(json.dumps({"appends": APPENDS, "append_ms": round(plain, 3), "append_ms_with_slots": round(with_slots, 3),
                      "slot_append_cost_ratio": round(with_slots / plain, 3), "events_decoded": decoded,
                      "decode_ms_per_event": round(decode_ms, 4), "page": PAGE, "pages": len(pages),
                      "cursor_page_ms": round(statistics.median(pages), 3),
                      "cursor_ms_per_event": round(statistics.median(pages) / PAGE, 4),
                      "settled_ms": round(statistics.median(settled), 3)}))


if __name__ == "__main__":
    main()

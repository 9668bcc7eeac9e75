"""Asking every node of a Citus cluster, or running a statement of its own
on each: one connection kept to each node besides the one a question comes
from (found in ``pg_dist_node``, by its group, the URL's own settings kept:
``make_conninfo``), made when first needed and again after it breaks.
Citus' ``run_command_on_all_nodes`` and ``run_command_on_shards`` do the
same, but connect anew each time: some 40 ms a question on this machine
under load, against well under 1 ms on a connection kept (and each new
connection a new backend to start, on the node asked)."""

from __future__ import annotations

import threading
import time
import weakref
from collections.abc import Callable, Mapping
from typing import Any

import psycopg
from psycopg import sql
from psycopg.conninfo import make_conninfo

#: Seconds a node has to accept a connection before it counts as not answering.
CONNECT_SECONDS = 2

#: Seconds ``run`` keeps what it read of the cluster's layout (its nodes, and ``remembered``'s).
LAYOUT_SECONDS = 5.0


class Nodes:
    """The nodes of the cluster ``url``'s server belongs to."""

    def __init__(self, url: str):
        self._url = url
        self._lock = threading.Lock()
        self._connections: dict[str, psycopg.Connection] = {}
        self._groups: weakref.WeakKeyDictionary[psycopg.Connection, int] = weakref.WeakKeyDictionary()
        self._kept: dict[object, tuple[float, Any]] = {}

    def ask(self, conn: psycopg.Connection, *queries: str) -> list[dict[int, object | None]]:
        """Each query's one value on every node, by group (None from a node
        that did not answer), asked of every node in turn, each query after
        the one before has been asked of all of them. ``conn`` is a
        connection to one of the nodes: it answers for that one."""
        own, others = self._nodes(conn)
        answers: list[dict[int, object | None]] = []
        with self._lock:
            for query in queries:
                answered: dict[int, object | None] = {own: (conn.execute(query).fetchone() or (None,))[0]}
                for group, url in others.items():
                    answered[group] = self._answer(url, query)
                answers.append(answered)
        return answers

    def run(self, conn: psycopg.Connection, statements: Mapping[int, tuple[sql.Composed, Mapping[str, Any]]]
            ) -> dict[int, list[tuple] | None]:
        """Each statement (with its parameters) run on the node of its group,
        its rows (None from a node that did not answer, or refused it). ``conn``
        is a connection to one of the nodes: it runs that one's. The nodes
        are as read at most ``LAYOUT_SECONDS`` ago (a claim several times a
        second need not read them each time: a node added is asked from
        then on, one gone fails until then)."""
        own = self._groups.get(conn)
        if own is None:
            own = self._groups[conn] = self._group(conn)
        others = self.remembered(("nodes", own), lambda: self._others(conn, own))
        rows: dict[int, list[tuple] | None] = {}
        with self._lock:
            for group, (statement, params) in statements.items():
                if group == own:
                    try:
                        rows[group] = conn.execute(statement, params).fetchall()
                    except psycopg.Error:
                        rows[group] = None
                elif group in others:
                    rows[group] = self._rows(others[group], statement, params)
                else:
                    rows[group] = None
        return rows

    def remembered(self, key: object, read: Callable[[], Any]) -> Any:
        """What ``read()`` gave for ``key`` at most ``LAYOUT_SECONDS`` ago (read again after)."""
        now = time.monotonic()
        kept = self._kept.get(key)
        if kept is None or now - kept[0] > LAYOUT_SECONDS:
            kept = self._kept[key] = (now, read())
        return kept[1]

    def forget(self, key: object) -> None:
        """Read ``key`` again the next time it is asked for."""
        self._kept.pop(key, None)

    def _nodes(self, conn: psycopg.Connection) -> tuple[int, dict[int, str]]:
        """The group of ``conn``'s node, and how to reach each other node, by group (read now)."""
        own = self._group(conn)
        return own, self._others(conn, own)

    @staticmethod
    def _group(conn: psycopg.Connection) -> int:
        (own,) = conn.execute("SELECT groupid FROM pg_dist_local_group").fetchone() or (0,)
        return own

    def _others(self, conn: psycopg.Connection, own: int) -> dict[int, str]:
        return {group: make_conninfo(self._url, host=host, port=str(port))
                for group, host, port in conn.execute("SELECT groupid, nodename, nodeport FROM pg_dist_node"
                                                      " WHERE isactive AND noderole = 'primary'").fetchall()
                if group != own}

    def _rows(self, url: str, statement: sql.Composed, params: Mapping[str, Any]) -> list[tuple] | None:
        try:
            return self._connection(url).execute(statement, params).fetchall()
        except psycopg.Error:
            self._drop(url)
            return None

    def _connection(self, url: str) -> psycopg.Connection:
        node = self._connections.get(url)
        if node is None or node.closed:
            node = self._connections[url] = psycopg.connect(url, autocommit=True, connect_timeout=CONNECT_SECONDS)
        return node

    def _drop(self, url: str) -> None:
        dropped = self._connections.pop(url, None)
        if dropped is not None:
            dropped.close()

    def _answer(self, url: str, query: str) -> object | None:
        try:
            return (self._connection(url).execute(query).fetchone() or (None,))[0]
        except psycopg.Error:
            self._drop(url)
            return None

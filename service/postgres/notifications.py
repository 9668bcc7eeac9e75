"""Notifications of appends, for live streams: PostgreSQL's ``NOTIFY`` and
``LISTEN``, sealed under a key the database does not hold.

Every append notifies one channel, ``CHANNEL``, after its commit, with the
game, its new version and, when they fit in a notification, the events
themselves. One channel for every game, so that a worker listens once for
all the streams it serves (``service.streams.Hub``), whatever their games.
A worker that finds the events in the notification hands them to its
streams with no read of its own.

Sealed
    ``LISTEN`` and ``NOTIFY`` need no right on any table: any role that may
    connect to the database can listen on the channel, and notify it. So a
    payload is sealed (``Seal``): AES-256-GCM under a key derived from the
    operator token, like the checkpoint key, which every ``casino serve``
    of one deployment shares and the database never sees. A listener
    learns from a payload only that some game's events were appended, and
    how many bytes they took; it cannot tell which game (the payload names
    it by a hash of its id), nor read a hidden card, a deck or a seed. A
    payload that does not open under the key (forged, altered, sealed under
    another key, or not a payload at all) is refused: the hub counts it and
    reads the game it names, if it streams that game, so its streams stay
    right.

A payload is ``<tag>:<xid>:<box>``. ``tag`` names the game: the first 12
bytes of a SHA-256 of its id, in URL-safe base64 (``tag``), which tells
whoever does not know the id nothing, and needs no key, so that a worker
whose key differs still knows which game to read. ``xid`` is the
appending transaction's id: the events' positions are made from it (see
``service.postgres.positions``), and since it is known only in that
transaction, the SQL writes it between the two parts that the service seals
beforehand (``Seal.notification``). It is no secret, and the one part not
sealed: a role that can notify could pair a genuine box with another id,
but a box comes to its listeners only after the notification it came in,
which PostgreSQL delivers first (its queue keeps the order of commits), and
by then the hub has the box's version and drops any copy. ``box`` is base64
of a 12-byte random nonce and the AES-GCM ciphertext, its associated data
the tag, of ``<game id, hex>:<version>:<unix time>``, followed, when they
fit, by ``:`` and a JSON object: the events' ``chain`` and their rows, each
with its ``type``, ``schema_version``, ``data``, ``metadata``, ``at`` (the
time recorded) and ``hash``, and, when the transaction appended other
games' events before them (``EventStore.append_each``), ``first``: which
of the transaction's events the first is (from 1; see
``service.postgres.positions``). PostgreSQL refuses payloads of 8000 bytes or
more; the events of an append too large for one stay out of the box, and
the streams read them.

An append to a game a player holds a seat in may also tell that player
something (``service.notices``: their turn, the game started or ended):
one payload more per player told, on the same channel, ``<tag>:0:<box>``
with the player's tag (a hash of another message than a game's, so never
a game's tag) and the box sealing ``<player id, hex>:<the notices' JSON>``.
A worker opens only the payloads of the players whose streams it serves.

Random nonces keep one key safe for some 2**32 payloads (NIST SP 800-38D);
the key changes with the operator token. The code before sealing read only
clear payloads: while a rolling upgrade runs both, the streams served by
each get the other's appends when they reconnect (within
``STREAM_MAX_SECONDS``).
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import hmac
import logging
import os
import threading
import time
from collections.abc import Callable
from datetime import datetime
from typing import NamedTuple
from uuid import UUID

import psycopg
from cryptography.exceptions import InvalidTag
from cryptography.hazmat.primitives.ciphers.aead import AESGCM
from psycopg import sql
from psycopg.conninfo import make_conninfo

from service import jsonio, metrics
from service.announcements import player_tag, tag
from service.events import StoredEvent
from service.postgres.database import reached
from service.postgres.positions import position

CHANNEL = "casino_events"

#: Seconds between attempts to listen again after the connection broke.
RECONNECT_SECONDS = 1.0

#: Seconds between looks at a Citus cluster's nodes, for those added since.
NODES_SECONDS = 5.0

#: PostgreSQL refuses a payload of this many bytes or more.
PAYLOAD_LIMIT = 8000

#: The most digits a transaction id (a 64-bit xid8) takes.
_XID_DIGITS = 20
_NONCE_BYTES = 12
#: What sealing adds to a box: the nonce and GCM's 16-byte tag.
_SEAL_OVERHEAD = _NONCE_BYTES + 16

_log = logging.getLogger("casino.streams")


def key_from(operator_token: str) -> bytes:
    """The notifications' key, made one way from the operator token and used for nothing else."""
    return hmac.new(operator_token.encode(), b"casino notifications v1", hashlib.sha256).digest()


class Notice(NamedTuple):
    """A payload as it came: the game's tag, the transaction id and the
    sealed box; and the seal it is opened with, if it names a game wanted."""

    tag: str
    xid: str
    box: str
    seal: Seal

    def open(self, game_id: UUID) -> Announcement | None:
        """What the payload announces of ``game_id``; None if it does not open, or names another game."""
        return self.seal.open(self, game_id)

    def open_player(self, player_id: UUID) -> bytes | None:
        """What the payload tells ``player_id`` (JSON); None if it does not open, or names another player."""
        return self.seal.open_player(self, player_id)


class Announcement(NamedTuple):
    """One append, opened: its game, the game's new version, when it was
    sent (Unix time) and, when they fit, the events appended (``events``)."""

    game_id: UUID
    version: int
    sent_at: float
    xid: int
    carried: bytes | None = None  # the events' JSON, decoded only by events()

    def events(self) -> list[StoredEvent] | None:
        """The events the append stored, as the store would read them back
        (key order in ``data`` aside), or None when they did not fit."""
        if self.carried is None:
            return None
        found = jsonio.loads(self.carried)
        rows, first = found["events"], found.get("first", 1)
        before = self.version - len(rows)
        return [StoredEvent(position(self.xid, first + i), self.game_id, before + 1 + i, row["type"],
                            row["schema_version"], row["data"], row["metadata"],
                            datetime.fromisoformat(row["at"]), row["hash"], found["chain"])
                for i, row in enumerate(rows)]


class Seal:
    """Seals notifications under one key, and opens them."""

    def __init__(self, key: bytes):
        self._aead = AESGCM(key)

    def notification(self, game_id: UUID | str, version: int, now: float, chain: int,
                     events: bytes, first: int = 1) -> tuple[str, str]:
        """The payload announcing that ``game_id`` reached ``version`` at
        ``now`` with ``events``, the JSON of the rows the store writes, the
        first of them the transaction's ``first`` event, in two parts: what
        comes before the appending transaction's id and what comes after
        it. The id is known only in the transaction, so the SQL puts it
        between."""
        game = UUID(str(game_id))
        named = tag(game)
        header = f"{game.hex}:{version}:{now:.6f}".encode()
        carried = b":" + jsonio.dumps({"chain": chain, "events": jsonio.raw(events)}
                                      | ({"first": first} if first != 1 else {}))
        room = PAYLOAD_LIMIT - len(named) - _XID_DIGITS - 2  # two colons
        if _base64_length(len(header) + len(carried) + _SEAL_OVERHEAD) >= room:
            carried = b""
        return f"{named}:", ":" + self._seal(header + carried, named)

    def open(self, notice: Notice, game_id: UUID) -> Announcement | None:
        """What a payload announces of ``game_id``, if it opens under this
        key and names that game; else None."""
        try:
            sealed = base64.b64decode(notice.box, validate=True)
            text = self._aead.decrypt(sealed[:_NONCE_BYTES], sealed[_NONCE_BYTES:], notice.tag.encode())
            game, version, sent_at, *carried = text.split(b":", 3)
            if UUID(hex=game.decode()) != game_id:
                return None
            return Announcement(game_id, int(version), float(sent_at), int(notice.xid),
                                carried[0] if carried else None)
        except (InvalidTag, ValueError, binascii.Error):
            return None

    def player_notification(self, player_id: UUID, notices: bytes) -> str:
        """The payload telling the player ``player_id`` of ``notices`` (JSON:
        what its stream sends, ``service.notices``): ``<tag>:0:<box>``, the
        box sealing ``<player id, hex>:<notices>``. It carries no
        transaction id (nothing is read by position), hence the 0."""
        named = player_tag(player_id)
        return f"{named}:0:" + self._seal(player_id.hex.encode() + b":" + notices, named)

    def open_player(self, notice: Notice, player_id: UUID) -> bytes | None:
        """The notices a payload tells ``player_id`` (their JSON), if it opens
        under this key and names that player; else None."""
        try:
            sealed = base64.b64decode(notice.box, validate=True)
            text = self._aead.decrypt(sealed[:_NONCE_BYTES], sealed[_NONCE_BYTES:], notice.tag.encode())
            named, _, notices = text.partition(b":")
            return notices if UUID(hex=named.decode()) == player_id else None
        except (InvalidTag, ValueError, binascii.Error):
            return None

    def _seal(self, text: bytes, named: str) -> str:
        nonce = os.urandom(_NONCE_BYTES)
        return base64.b64encode(nonce + self._aead.encrypt(nonce, text, named.encode())).decode()


def _base64_length(size: int) -> int:
    return 4 * -(-size // 3)


def parse_notification(payload: str, seal: Seal) -> Notice | None:
    """A notification's payload split into its parts, to be opened with
    ``seal``; None if it is not one. Nothing is opened here: a worker opens
    only the payloads of the games it streams (``Notice.open``)."""
    tag, _, rest = payload.partition(":")
    xid, _, box = rest.partition(":")
    if len(tag) != 16 or not xid.isdigit() or not box:
        return None
    return Notice(tag, xid, box, seal)


def listen(url: str, seal: Seal, *, connected: Callable[[], None], notice: Callable[[Notice], None],
           disconnected: Callable[[], None], stopped: Callable[[], bool]) -> None:
    """Listen on ``CHANNEL`` until ``stopped()``: one connection, made again
    a second after it breaks. ``connected()`` runs each time listening
    starts (whatever was appended while nobody listened must be read then),
    ``notice`` for each notification, to be opened with ``seal``,
    ``disconnected()`` each time it stops or fails to start. A payload that
    is no notification at all is counted as refused, and dropped."""
    while not stopped():
        try:
            with psycopg.connect(url, autocommit=True, connect_timeout=5) as conn:
                conn.execute(sql.SQL("LISTEN {}").format(sql.Identifier(CHANNEL)))
                connected()
                while not stopped():
                    for notify in conn.notifies(timeout=1.0):
                        found = parse_notification(notify.payload, seal)
                        if found is None:
                            metrics.NOTIFICATIONS_REFUSED.inc()
                        else:
                            notice(found)
        except psycopg.Error as error:
            _log.warning("live streams not notified, they poll until the listener is back: %s", error)
        finally:
            disconnected()
        if not stopped():
            time.sleep(RECONNECT_SECONDS)


def listen_everywhere(url: str, seal: Seal, *, connected: Callable[[], None], notice: Callable[[Notice], None],
                      disconnected: Callable[[], None], stopped: Callable[[], bool]) -> None:
    """``listen``, on the server of ``url`` and, when it is a node of a Citus
    cluster, on every other node of it too: an append notifies on the node
    its service is connected to (``service.postgres.store``), and the
    services of one deployment may each be connected to another node.

    The nodes are those ``pg_dist_node`` lists (each by its group: the
    node ``url`` reached is heard as the service reached it), looked at again every
    ``NODES_SECONDS``, so that a node added later is heard from then on,
    and one removed no longer. Each node has a connection of its own, made
    again a second after it breaks (a node restarted, say). ``connected()``
    runs once every node is heard (again), so the streams read once
    whatever was appended meanwhile, from the version each has sent;
    ``disconnected()`` each time one node is no longer heard (the streams
    poll until it is back). On plain PostgreSQL, this is ``listen``."""
    while not stopped():
        try:
            with psycopg.connect(url, autocommit=True, connect_timeout=5) as conn:
                found = conn.execute("SELECT to_regclass('pg_catalog.pg_dist_node') IS NOT NULL").fetchone()
        except psycopg.Error as error:
            _log.warning("live streams not notified, they poll until the listener is back: %s", error)
            disconnected()
            time.sleep(RECONNECT_SECONDS)
            continue
        if not (found and found[0]):
            listen(url, seal, connected=connected, notice=notice, disconnected=disconnected, stopped=stopped)
            return
        break
    nodes = Nodes(url, seal, connected, notice, disconnected, stopped)
    while not stopped():
        try:
            nodes.look()
        except psycopg.Error as error:
            _log.warning("could not read the cluster's nodes (the nodes known are still heard): %s", error)
            if nodes.none:
                disconnected()
        waited = 0.0
        while waited < NODES_SECONDS and not stopped():
            time.sleep(min(1.0, NODES_SECONDS - waited))
            waited += 1.0
    nodes.stop()


class Nodes:
    """The nodes heard by ``listen_everywhere``: one listening thread each,
    by group, for the address the group has now. A group's address changes
    when a standby is promoted in place of its node (``citus_update_node``,
    docs/scaling.md): its thread for the old one is stopped, and one for
    the new one started."""

    def __init__(self, url: str, seal: Seal, connected: Callable[[], None], notice: Callable[[Notice], None],
                 disconnected: Callable[[], None], stopped: Callable[[], bool]):
        self._url, self._seal, self._notice = url, seal, notice
        self._connected, self._disconnected, self._stopped = connected, disconnected, stopped
        self._lock = threading.Lock()
        self._heard: set[int] = set()  # the groups whose connection listens now
        # Each group heard: the address the cluster names its node by (in
        # pg_dist_node) when its thread started, and an event set to stop that thread.
        self._ends: dict[int, tuple[tuple[str, int] | None, threading.Event]] = {}

    @property
    def none(self) -> bool:
        """Whether no node is heard yet."""
        return not self._ends

    def look(self) -> None:
        """Start hearing the nodes not heard yet, and stop hearing those gone
        (or heard at an address the cluster no longer names them by)."""
        with psycopg.connect(self._url, autocommit=True, connect_timeout=5) as conn:
            (own,) = conn.execute("SELECT groupid FROM pg_dist_local_group").fetchone() or (0,)
            named = {group: (host, port) for group, host, port in conn.execute(
                "SELECT groupid, nodename, nodeport FROM pg_dist_node WHERE isactive AND noderole = 'primary'")}
            nodes = {group: make_conninfo(self._url, host=host, port=str(port))
                     for group, (host, port) in named.items()}
            # This node as the service reaches it, not as the cluster names it;
            # and this one alone, when the URL names several (workers, say).
            nodes[own] = reached(self._url, conn)
        with self._lock:
            for group in [group for group, (address, _) in self._ends.items() if named.get(group) != address]:
                self._ends.pop(group)[1].set()
                self._heard.discard(group)
            for group, node_url in nodes.items():
                if group not in self._ends:
                    self._ends[group] = (named.get(group), end := threading.Event())
                    threading.Thread(target=self._hear, args=(group, node_url, end), daemon=True,
                                     name=f"casino-listener-{group}").start()

    def stop(self) -> None:
        with self._lock:
            for _, end in self._ends.values():
                end.set()

    def _hear(self, group: int, url: str, end: threading.Event) -> None:
        """Listen on ``url`` for ``group`` until ``end`` is set. What a thread
        says after that is not heeded: a thread for the group's new address
        may be listening by then."""
        listen(url, self._seal, connected=lambda: self._up(group, end), notice=self._notice,
               disconnected=lambda: self._down(group, end), stopped=lambda: end.is_set() or self._stopped())

    def _up(self, group: int, end: threading.Event) -> None:
        with self._lock:
            if end.is_set():
                return
            self._heard.add(group)
            everywhere = self._heard >= set(self._ends)
        if everywhere:
            self._connected()

    def _down(self, group: int, end: threading.Event) -> None:
        with self._lock:
            if end.is_set():
                return
            self._heard.discard(group)
        self._disconnected()

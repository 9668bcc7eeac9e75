"""Putting the service together: adapters in, ``Services`` out.

``bootstrap(adapters, settings)`` builds every part of the service over
one set of ``Adapters``: what the service needs from outside the process.
Two wirings make them: ``service.postgres.wiring`` (the real one, over a
connection pool) and ``service.memory.wiring`` (one process's memory: the
fast tests). Nothing above the adapters knows which it runs on; the web
app (``service.web.app``) asks only ``Services``.

A new adapter (a clock, a table of deadlines, a replica to read from) is a
field of ``Adapters`` typed by its protocol, an implementation in each
wiring, and a contract test in tests/contract that holds both to it. A new
use case is a method of the service layer that ``Services`` hands to the
blueprints. What reacts to the game service's appends (the live streams,
the players' streams, the computer seats, the metrics) is a handler on its
message bus (``service.messagebus``), registered here (``reactions``).
Replicas are ``Replica``s, each an event store and a read model over a
standby; reads that may come from one go through ``Services.reads``
(``service.replicas``).
"""

from __future__ import annotations

import secrets
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

from service.announcements import Listen
from service.auth import Authenticator, TicketUses, player_key_from, seat_key_from
from service.cache import StateCache
from service.computer import ComputerPlayers
from service.deadlines import DeadlineClaims
from service.events import EventStore
from service.games import GameReads, GameService
from service.messagebus import CommandAppended, GameCreated, MessageBus
from service.metrics import COMMANDS_APPENDED
from service.move_cursors import MoveCursors, cursor_key_from
from service.players import Players, PlayerService
from service.pairing import Pairer, Pairings, game_for
from service.ratings import Ratings
from service.readmodel import ReadModel
from service.replicas import Reads, Replica, Source
from service.snapshots import snapshot_key_from
from service.streams import Hub
from service.timeouts import TimeKeeper
from service.turns import TurnClaims


@dataclass(frozen=True)
class Adapters:
    """What the service needs from outside the process; each wiring gives all of it."""

    store: EventStore  # games' events and what is written with them
    read_model: ReadModel  # the games read model: listing, auditing
    ticket_uses: TicketUses  # stream tickets' single use
    deadlines: DeadlineClaims  # where the time keeper claims the games whose clock has run out
    computer_turns: TurnClaims  # where the time keeper claims the games that await a computer seat
    players: Players  # players, and the seats they hold
    ratings: Ratings  # players' ratings, kept by the appends that rate games
    pairings: Pairings  # the players waiting to be paired
    #: Hears of other processes' appends, for live streams; None: no other process appends.
    listen: Listen | None
    #: Whether the adapters answer within so many seconds (``/readyz``).
    ready: Callable[[float], bool]
    close: Callable[[], None]
    #: What the adapters raise when what they reach cannot be reached just now (503).
    unavailable: tuple[type[Exception], ...] = ()
    #: Errors of a type that means "unavailable" only when its test says so
    #: (a Citus coordinator's internal error that a worker was lost, say): 503; else 500.
    unavailable_when: Mapping[type[Exception], Callable[[Exception], bool]] = field(default_factory=dict)
    #: Standbys to take reads off the primary (``service.replicas``); none by default.
    replicas: tuple[Replica, ...] = ()
    #: Registers what to run when the adapters reach another database server
    #: than before (a failover, a restart, a restore): what was read from the
    #: one before may be ahead of this one.
    on_new_server: Callable[[Callable[[], None]], None] = lambda callback: None


@dataclass(frozen=True)
class Settings:
    """What the service is told: the operator's token (the secret its keys
    are derived from, None for none), the key that signs checkpoints, how
    many events a live stream may hold for a slow reader, and how long a
    read waits for a replica."""

    operator_token: str | None
    checkpoint_key: bytes | None
    stream_buffer_events: int = 128
    #: Seconds a read waits for a replica behind what its client has seen, before the primary answers it.
    replica_wait: float = 0.1


@dataclass(frozen=True)
class Services:
    """The parts of the service one app uses, built once by ``bootstrap``.

    Commands go to ``games`` (``create``, ``execute``), whose message bus
    (``bus``) hands what they appended to the reactions; reads go to
    ``games`` (a game, its events, the global log) and ``read_model`` (the
    listing, the evidence ``verify`` checks) on the primary, or to
    ``reads`` when they may come from a replica."""

    games: GameService
    players: PlayerService
    computers: ComputerPlayers
    read_model: ReadModel
    reads: Reads
    hub: Hub
    authenticator: Authenticator
    move_cursors: MoveCursors
    checkpoint_key: bytes | None
    adapters: Adapters
    keeper: TimeKeeper
    pairer: Pairer
    bus: MessageBus

    def ready(self, timeout: float) -> bool:
        return self.adapters.ready(timeout)

    def close(self) -> None:
        self.keeper.stop()
        self.pairer.stop()
        self.hub.close()
        self.adapters.close()


def reactions(bus: MessageBus, hub: Hub, keeper: TimeKeeper) -> None:
    """What reacts to the game service's appends, each a handler on ``bus``:
    the game's live streams publish its events, the players' streams tell
    them what concerns them, the time keeper is woken when a computer seat
    is awaited and told of each deadline written, and the metrics count the appends."""

    def publish(message: CommandAppended) -> None:
        hub.games.publish(message.game_id, list(message.stored), message.state)

    def tell(message: GameCreated | CommandAppended) -> None:
        if message.told:
            hub.players.tell(message.told)

    def keep_time(message: GameCreated | CommandAppended) -> None:
        if message.computer_due:
            keeper.wake()
        if message.deadline is not None:
            keeper.expect(message.deadline)

    def count(message: GameCreated | CommandAppended) -> None:
        COMMANDS_APPENDED.inc()

    bus.subscribe(GameCreated, tell)
    bus.subscribe(GameCreated, keep_time)
    bus.subscribe(GameCreated, count)
    bus.subscribe(CommandAppended, publish)
    bus.subscribe(CommandAppended, tell)
    bus.subscribe(CommandAppended, keep_time)
    bus.subscribe(CommandAppended, count)


def bootstrap(adapters: Adapters, settings: Settings) -> Services:
    token = settings.operator_token
    snapshot_key = snapshot_key_from(token) if token else None
    hub = Hub(adapters.store.load, capacity=settings.stream_buffer_events, listen=adapters.listen)
    bus = MessageBus()
    games = GameService(adapters.store, StateCache(), snapshot_key=snapshot_key,
                        seat_key=seat_key_from(token) if token else None,
                        checkpoint_key=settings.checkpoint_key, bus=bus, ratings=adapters.ratings.of)
    adapters.on_new_server(games.cache.clear)
    replicas = [Source(GameReads(replica.store, StateCache(), snapshot_key=snapshot_key,
                                 checkpoint_key=settings.checkpoint_key), replica.read_model, True)
                for replica in adapters.replicas]
    computers = ComputerPlayers(games)
    keeper = TimeKeeper(games, computers, adapters.deadlines, adapters.computer_turns, adapters.store.now)
    reactions(bus, hub, keeper)
    return Services(
        games=games,
        players=PlayerService(adapters.players, player_key_from(token) if token else secrets.token_bytes(32)),
        computers=computers,
        read_model=adapters.read_model,
        reads=Reads(Source(games, adapters.read_model, False), replicas, wait=settings.replica_wait,
                    unavailable=adapters.unavailable),
        hub=hub,
        authenticator=Authenticator(token, adapters.store, adapters.ticket_uses, players=adapters.players,
                                    settled=games.settled),
        move_cursors=MoveCursors(cursor_key_from(token) if token else secrets.token_bytes(32)),
        checkpoint_key=settings.checkpoint_key,
        adapters=adapters,
        keeper=keeper,
        pairer=Pairer(adapters.pairings, lambda group: games.create(game_for(group)), adapters.store.now),
        bus=bus,
    )

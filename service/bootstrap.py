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
blueprints. Replicas are ``Replica``s, each an event store and a read
model over a standby; reads that may come from one go through
``Services.reads`` (``service.replicas``).
"""

from __future__ import annotations

import secrets
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from uuid import UUID

from domain.standing import is_finished

from service.announcements import Listen
from service.auth import Authenticator, TicketUses, player_key_from, seat_key_from
from service.cache import StateCache
from service.commands import CreateGame, GameCommand
from service.computer import ComputerPlayers
from service.deadlines import DeadlineClaims
from service.events import EventStore
from service.games import Applied, Created, GameReads, GameService
from service.players import Players, PlayerService
from service.pairing import Pairer, Pairings, game_for
from service.ratings import Ratings
from service.readmodel import ReadModel
from service.replicas import Reads, Replica, Source
from service.snapshots import snapshot_key_from
from service.streams import Hub
from service.timeouts import TimeKeeper


@dataclass(frozen=True)
class Adapters:
    """What the service needs from outside the process; each wiring gives all of it."""

    store: EventStore  # games' events and what is written with them
    read_model: ReadModel  # the games read model: listing, auditing
    ticket_uses: TicketUses  # stream tickets' single use
    deadlines: DeadlineClaims  # where the time keeper claims the games whose clock has run out
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

    Commands go through ``create`` and ``execute``, which let the computer
    seats take their turns after each; reads go to ``games`` (a game, its
    events, the global log) and ``read_model`` (the listing, the evidence
    ``verify`` checks) on the primary, or to ``reads`` when they may come
    from a replica."""

    games: GameService
    players: PlayerService
    computers: ComputerPlayers
    read_model: ReadModel
    reads: Reads
    hub: Hub
    authenticator: Authenticator
    checkpoint_key: bytes | None
    adapters: Adapters
    keeper: TimeKeeper
    pairer: Pairer

    def create(self, command: CreateGame) -> Created:
        created = self.games.create(command)
        self.computers.take_turns(created.game_id, command.request_id)
        return created

    def execute(self, command: GameCommand) -> Applied:
        applied = self.games.execute(command)
        self.computers.take_turns(command.game_id, command.request_id)
        return applied

    def ready(self, timeout: float) -> bool:
        return self.adapters.ready(timeout)

    def close(self) -> None:
        self.keeper.stop()
        self.pairer.stop()
        self.hub.close()
        self.adapters.close()


def bootstrap(adapters: Adapters, settings: Settings) -> Services:
    token = settings.operator_token
    snapshot_key = snapshot_key_from(token) if token else None
    hub = Hub(adapters.store.load, capacity=settings.stream_buffer_events, listen=adapters.listen)
    games = GameService(adapters.store, StateCache(), snapshot_key=snapshot_key,
                        seat_key=seat_key_from(token) if token else None,
                        checkpoint_key=settings.checkpoint_key, appended=hub.games.publish, told=hub.players.tell,
                        ratings=adapters.ratings.of)
    adapters.on_new_server(games.cache.clear)
    replicas = [Source(GameReads(replica.store, StateCache(), snapshot_key=snapshot_key,
                                 checkpoint_key=settings.checkpoint_key), replica.read_model, True)
                for replica in adapters.replicas]
    computers = ComputerPlayers(games)

    def time_out(command: GameCommand) -> Applied:
        """A time-out, then the computer seats' turns if the game goes on."""
        applied = games.execute(command)
        if not is_finished(applied.state):
            computers.take_turns(command.game_id, command.request_id)
        return applied

    def time_outs(commands: Sequence[GameCommand]) -> Mapping[UUID, Applied]:
        """Time-outs appended together, then the computer seats' turns in each game that goes on."""
        done = games.execute_together(commands)
        for game_id, applied in done.items():
            if not is_finished(applied.state):
                computers.take_turns(game_id)
        return done

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
        checkpoint_key=settings.checkpoint_key,
        adapters=adapters,
        keeper=TimeKeeper(time_out, time_outs, games.load, adapters.deadlines, adapters.store.now),
        pairer=Pairer(adapters.pairings, lambda group: games.create(game_for(group)), adapters.store.now),
    )

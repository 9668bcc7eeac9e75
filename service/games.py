"""The service layer: create a game, run a command (``service.commands``)
on one, and read one: its state, its stored events, the global log, the
game as it was at a version.

A command goes: get the game from the repository (``service.repository``:
the cache, a snapshot, the events after either, checked against the
game's checkpoint and hash chain; read from the store only when the cache
is empty or turns out to be behind), check ``If-Match``,
let the game's rules decide (``domain.game_types``: the service knows no game's
rules), add whatever the rules then do by themselves (``follow_up``), and
append it all, with the read model's row and the idempotency record, in one
transaction. The result is the domain's: the version before, the events,
the state after. What a caller may see of it is ``service.views``' to say,
and HTTP is ``service.web``'s.
"""

from __future__ import annotations

import dataclasses
import itertools
import secrets
import threading
import uuid
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any, NamedTuple

from cachetools import FIFOCache

from domain.errors import OptionError, RuleViolation
from domain.game_types import GAME_TYPES, GameType, State, game_of
from domain.rating import Rating
from domain.seating import Holder
from domain.standing import WAITING

from service import chronicle
from service.auth import PUBLIC, created_under, hash_token, new_token, player, seat_token
from service.cache import StateCache
from service.chain import first_break
from service.commands import CreateGame, GameCommand, Request, fresh_seed, request_hash
from service.deadlines import Deadline
from service.events import (Append, ConcurrencyError, Cursor, EventStore, Horizon, NewEvent, RatingsMoved, StoredEvent,
                            Unfoldable, decode, refold, refold_checked)
from service.messagebus import CommandAppended, GameCreated, MessageBus
from service.notices import Told, notices
from service.projection import LISTED, player_seat_changes, row_changes, seat_changes
from service.ratings import rating_writes
# What a reader of a game may be told, defined with the repository that tells it, named here too.
from service.repository import CorruptGame as CorruptGame
from service.repository import GameNotFound as GameNotFound
from service.repository import GameRepository, corrupt_game
from service.repository import Loaded as Loaded
from service.snapshots import code_version, seal
from service.turns import ComputerToMove
from service.writes import (GameRow, IdempotencyRecord, Write, player_notices, player_seats,
                            seat_tokens)

SNAPSHOT_EVERY = 100
#: How many times a command that finishes a rated game is decided again when
#: another game moved one of its players' ratings first (``service.ratings``).
MOVED_RATINGS = 5

#: How long after the answer that completes a rematch the time keeper looks
#: whether its new game was made (``_rematch_due``): the answer's own request
#: makes it within milliseconds, so the keeper then finds it there.
REMATCH_LOOK = timedelta(seconds=1)
#: The key of a game's first event's metadata that lists its computer seats (``service.computer``).
COMPUTER_SEATS = "computer_seats"
#: The metadata of a game's first event that says only players may take its open seats, no guest.
PLAYERS_ONLY = "players_only"


def game_type(variant: str) -> GameType:
    """The game a variant belongs to; ``OptionError`` naming the variants for an unknown one."""
    try:
        return game_of(variant)
    except KeyError:
        known = ", ".join(v for game in GAME_TYPES.values() for v in game.VARIANTS)
        raise OptionError(f"Unknown variant {variant!r}; the variants are {known}.") from None


class NoSuchVersion(LookupError):
    """The game has no such version: it is at version ``last``."""

    def __init__(self, version: int, last: int):
        super().__init__(f"The game has no version {version}: it is at version {last}.")
        self.version = version
        self.last = last


class PreconditionFailed(Exception):
    """``If-Match`` named a version the game is no longer at."""

    def __init__(self, current: int):
        super().__init__(f"The game is at version {current}.")
        self.current = current


class VersionConflict(Exception):
    """Another command was appended first."""


class KeyReused(Exception):
    """The idempotency key was used before for a different request."""


class TokensLost(Exception):
    """A creation (of a game, a player, a seat by a join) was retried, but
    its tokens cannot be made again: the secret they were derived with has
    changed since (see ``create``). ``detail`` says so to a person."""

    def __init__(self, detail: str = "A game was created under this Idempotency-Key, but its seats' tokens can"
                 " no longer be given again: the service's secret has been replaced since. Create a new game."):
        super().__init__(detail)
        self.detail = detail


@dataclass(frozen=True)
class Created:
    """A new game: its id, its state, each seat's token (in clear only here),
    and the position of its last event in the global order."""

    game_id: uuid.UUID
    state: State
    tokens: tuple[str | None, ...]  # None for an open seat
    position: int


@dataclass(frozen=True)
class Applied:
    """What a command did: the game went from version ``before`` to ``state``
    by ``events``, the last of them at ``position`` in the global order;
    ``seated`` are the seats it seated someone in (a join), each with the
    seat's new token, in clear only here (None for a seat a player took:
    the player's token acts for it)."""

    game_id: uuid.UUID
    before: int
    events: tuple[Any, ...]
    state: State
    position: int
    seated: Mapping[int, str | None] = field(default_factory=dict)


def metadata(actor: str, command: Request) -> dict[str, Any]:
    """What every event of a command records besides itself."""
    return {"actor": actor, "command": command.name, "command_id": uuid.uuid4().hex,
            "request_id": command.request_id}


class ComputerSeats:
    """Which seats of each game the service plays itself (``service.computer``):
    read from the game's first event once and kept, for the ``capacity``
    games read last (a ``cachetools.FIFOCache``: first in, first out). They
    are fixed when the game is created."""

    def __init__(self, store: EventStore, capacity: int = 10_000):
        self._store = store
        self._known: FIFOCache = FIFOCache(maxsize=capacity)
        self._lock = threading.Lock()

    def of(self, game_id: uuid.UUID) -> tuple[int, ...]:
        with self._lock:
            known = self._known.get(game_id)
        if known is None:
            first = self._store.load(game_id, 0, 1)
            known = tuple(first[0].metadata.get(COMPUTER_SEATS, ())) if first else ()
            self.know(game_id, known)
        return known

    def know(self, game_id: uuid.UUID, seats: tuple[int, ...]) -> None:
        with self._lock:
            self._known[game_id] = seats


def computer_due(game: GameType, state: State, computers: tuple[int, ...]) -> bool:
    """Whether one of the ``computers`` seats has something to do in ``state``."""
    return bool(computers) and game.computer_command(state, computers, None) is not None


def _computer_to_move(game: GameType, state: State, computers: tuple[int, ...], at: Any) -> ComputerToMove | None:
    """The write that says whether a computer is awaited after an append at
    ``at``; None for a game without computer seats (nothing to write)."""
    if not computers:
        return None
    return ComputerToMove(at if computer_due(game, state, computers) else None)


class GameReads:
    """Games read from one store, through a cache of folded states: a
    game's state, its stored events, the global log, the game as it was at
    a version. ``GameService`` reads its primary this way; each replica is
    read the same way (``service.replicas``), through a cache of its own,
    so that what a replica answers is what it holds."""

    def __init__(self, store: EventStore, cache: StateCache, *, snapshot_key: bytes | None = None,
                 checkpoint_key: bytes | None = None):
        """``snapshot_key`` signs the snapshots written and is needed to read
        them (``service.snapshots``); without it there are none. With
        ``checkpoint_key`` (the store's, which signs each game's head), a game
        read from the store must end where its signed checkpoint says, or it
        is a ``CorruptGame``: no append ever signs a head over a history
        changed behind the service's back."""
        self._store = store
        self._snapshot_key = snapshot_key
        self._checkpoint_key = checkpoint_key
        self.repository = GameRepository(store, cache, snapshot_key=snapshot_key, checkpoint_key=checkpoint_key)

    @property
    def cache(self) -> StateCache:
        """The repository's cache of folded states (one replaced stands for a restart's empty one)."""
        return self.repository.cache

    @cache.setter
    def cache(self, cache: StateCache) -> None:
        self.repository.cache = cache

    def load(self, game_id: uuid.UUID) -> State:
        """The game's current state; raises GameNotFound, or CorruptGame if
        its stored events do not fold."""
        return self.repository.get(game_id).state

    def rules_of(self, game_id: uuid.UUID) -> GameType:
        """The rules of the game ``game_id``, from the cache when it has the
        game (a game's type never changes, so a stale state tells it as well)."""
        cached = self.repository.cached(game_id)
        return game_of((cached or self.repository.get(game_id)).state.variant)

    def settled(self, game_id: uuid.UUID) -> bool:
        """Whether the game's seats can no longer change hands, as far as
        this process knows without asking: it has the game, and past
        waiting for its players (which a game never goes back to)."""
        cached = self.repository.cached(game_id)
        return cached is not None and cached.state.status != WAITING

    def guests_welcome(self, game_id: uuid.UUID) -> bool:
        """Whether a guest may take an open seat of the game: unless it was created with ``guests`` false."""
        first = self._store.load(game_id, 0, 1)
        return not (first and first[0].metadata.get(PLAYERS_ONLY))

    def events(self, game_id: uuid.UUID, after: int = 0, until: int | None = None) -> list[StoredEvent]:
        """The game's stored events after version ``after`` (up to ``until``), as
        stored: a damaged game's too, for the operator looking into it."""
        return self._store.load(game_id, after, until)

    def log(self, after: Cursor | int, limit: int) -> list[StoredEvent]:
        """Up to ``limit`` events of every game after ``after`` (a cursor, or
        a position), in the one global order (``EventStore.read_all``)."""
        return self._store.read_all(after, limit)

    def horizon(self) -> Horizon:
        """Where the global order stands on the store's server now (``EventStore.horizon``)."""
        return self._store.horizon()

    def state_at(self, game_id: uuid.UUID, version: int) -> State:
        """The game as it was at ``version``: GameNotFound, NoSuchVersion, or
        CorruptGame from the first break in its hash chain on (a history
        that might fold but is not the one played shows nothing from there)."""
        stored = self._store.load(game_id)
        if not stored:
            raise GameNotFound(game_id)
        if version > stored[-1].version:
            raise NoSuchVersion(version, stored[-1].version)
        broken = first_break(game_id, stored)
        if broken is not None and version >= broken.version:
            raise CorruptGame(game_id, broken.version, stored[-1].version)
        try:
            return refold_checked(e for e in stored if e.version <= version)
        except Unfoldable as error:
            raise corrupt_game(game_id, stored, error) from error


class GameService(GameReads):
    """Commands on games, on the primary store, and the same reads there."""

    def __init__(self, store: EventStore, cache: StateCache, *, snapshot_key: bytes | None = None,
                 seat_key: bytes | None = None, checkpoint_key: bytes | None = None, bus: MessageBus | None = None,
                 ratings: Callable[[Sequence[str], str], Mapping[str, Rating]] = lambda players, variant: {}):
        """``seat_key`` derives the tokens of games created with an
        idempotency key (``service.auth.seat_token``); every process serving
        the database needs the same one, and without it each makes its own.
        ``bus`` is handed what each creation and command appended, once it
        is stored (``service.messagebus``: the reactions are registered
        there, in the bootstrap). ``ratings(players, variant)`` reads the
        players' ratings as they stand, for a rated game that finishes
        (``service.ratings``). The rest is ``GameReads``'."""
        super().__init__(store, cache, snapshot_key=snapshot_key, checkpoint_key=checkpoint_key)
        self._bus = bus or MessageBus()
        self._seat_key = seat_key or secrets.token_bytes(32)
        self._ratings = ratings
        self.computer_seats = ComputerSeats(store)

    # -- commands -----------------------------------------------------------

    def create(self, command: CreateGame) -> Created:
        """Start a game; the seats' tokens are made here and only their
        hashes are kept.

        A retry with an idempotency key used before is found when the append
        files the key a second time. It gets the same game and the same
        tokens: a game created under a key has its tokens derived from the
        key (``_tokens``), so they are made again rather than kept, none is
        replaced, and all of concurrent retries get tokens that work. Only
        the key's holder can retry, so a creation key must be a secret
        random value (the edge refuses short ones). However the game has moved
        since (a join, a leave, a deal), the retry gets the first answer: the
        game as it was created and the same tokens. The key's record keeps
        the tokens' hashes, so a secret replaced since is told apart from a
        seat left since.

        The game's id is made from the key (``service.auth.created_under``),
        and the key's record is filed under that id: the record is one of
        the game's rows, written in the game's own append (on Citus, on the
        game's node alone). A retry finds the game taken and its record
        there. A key used again once its record has expired files anew
        under the same id, beside a game of a new one.
        """
        game = game_type(command.variant)
        names, key = command.seats, command.idempotency_key
        first = command.first_dealer if command.first_dealer is not None else secrets.randbelow(len(names))
        at = self._store.now()
        events = game.decide(None, game.create_command(command.variant, names, first, command.options,
                                                       fresh_seed(), command.clock, command.rated), at)
        created = game.fold(events, times=itertools.repeat(at))
        state = created
        sitting_down = (*([command.me] if command.me is not None else []), *command.seated)
        for sitting in sitting_down:  # the creator, or a pairing's players, seated in the same append
            joined = game.decide(state, game.join_command(sitting.seat, sitting.name, str(sitting.player)), at)
            state = game.fold(joined, state, itertools.repeat(at))
            events = [*events, *joined]
        new = _NewGame(command, game, [_new(game, e) for e in events], created, state, at)
        if key is None:
            return self._append_creation(new, command.game_id or uuid.uuid4())
        fingerprint = request_hash(PUBLIC.actor, command.name, command.body())
        scope = created_under(PUBLIC.actor, key)
        # The game takes the id its key is filed under, so both are in one place. Once that id's record
        # has expired (and the key is used again), the key files anew there beside a game of a new id.
        for game_id in (command.game_id or scope, uuid.uuid4()):
            try:
                return self._append_creation(new, game_id, IdempotencyRecord(
                    key, fingerprint, {}, actor=PUBLIC.actor, scope=scope))
            except ConcurrencyError:  # the key was filed before, or (a paired game) one of its pairings has ended
                retried = self._retried_creation(scope, key, fingerprint)
                if retried is not None:
                    return retried
                if game_id != scope or not self._store.load(game_id, until_version=1):
                    raise
        raise AssertionError("a game of a new id is never there already")

    def _append_creation(self, new: _NewGame, game_id: uuid.UUID, filed: IdempotencyRecord | None = None) -> Created:
        """Append the creation ``new`` as the game ``game_id``, with ``filed``
        (its key's record, to which the game's id, version and tokens are added)."""
        command, game, state = new.command, new.game, new.state
        tokens = self._tokens(game_id, command.seats, filed.key if filed is not None else None)
        told = _started(game_id, state, command, notices(game_id, new.created, state))
        record = None if filed is None else dataclasses.replace(
            filed, response={"game": str(game_id), "version": state.version, "tokens": _hash_list(tokens)})
        computer = _computer_to_move(game, state, command.computers, new.at)
        sitting_down = (*([command.me] if command.me is not None else []), *command.seated)
        due = _deadline(game, None, state)
        writes = [GameRow(row_changes(state, listed=command.listed)), *seat_tokens(_hashes(tokens)),
                  *_optional(record, due, computer),
                  *player_seats({s.player: s.seat for s in sitting_down}), *player_notices(told), *command.paired]
        stored = self._store.append(Append(game_id, 0, new.events, _creation_metadata(command), writes=writes,
                                           at=new.at))
        self.repository.added(game_id, Loaded(state, stored[-1].hash))
        self.computer_seats.know(game_id, tuple(command.computers))
        self._bus.handle(GameCreated(game_id, stored, state, told, computer is not None and computer.at is not None,
                                     due.at if due is not None else None))
        return Created(game_id, state, tuple(tokens), stored[-1].position)

    def _retried_creation(self, scope: uuid.UUID, key: str, fingerprint: str) -> Created | None:
        """The game first created under ``key`` (filed under ``scope``), as it
        was then, with its seats' tokens made again; None if there is none. A
        seat left since has the token the first answer gave it (which no
        longer acts for it)."""
        found = self._filed(scope, PUBLIC.actor, key, fingerprint)
        if found is None:
            return None
        game_id = uuid.UUID(found["game"])
        stored = self._store.load(game_id, until_version=found["version"])
        state = refold(stored)
        guests = tuple(holder.name if holder is not None and holder.player is None else None
                       for holder in game_of(state.variant).seat_holders(state))  # a player's seat has no token
        tokens = self._tokens(game_id, guests, key)
        if "tokens" in found:
            if found["tokens"] != _hash_list(tokens):
                raise TokensLost()  # the secret was replaced: never answer with other tokens than the first
        else:  # filed before the record kept the hashes: the seats' own must still match
            self._check_seats_kept(game_id, tokens)
        return Created(game_id, state, tuple(tokens), stored[-1].position)

    def _check_seats_kept(self, game_id: uuid.UUID, tokens: list[str | None]) -> None:
        """Raise TokensLost unless each seat a creation gave a token still has it."""
        kept = self._store.seat_token_hashes(game_id)
        if any(kept.get(seat) != hashed for seat, hashed in _hashes(tokens).items()):
            raise TokensLost("A game was created under this Idempotency-Key, but a seat's token no longer works:"
                             " the seat has been left since, or the service's secret replaced.")

    def _tokens(self, game_id: uuid.UUID, names: tuple[str | None, ...], key: str | None) -> list[str | None]:
        """The tokens of a new game's seats named ``names``: random, or derived
        from its creation's idempotency key; None for an open seat, whose
        token is made when a player joins it."""
        if key is None:
            return [new_token() if name is not None else None for name in names]
        return [seat_token(self._seat_key, key, game_id, i) if name is not None else None
                for i, name in enumerate(names)]

    def execute(self, command: GameCommand) -> Applied:
        """Decide and append one command, and what its game then does by itself.

        The command is decided on the cached state without asking the
        database whether the game moved on: the append's version check does
        that anyway. If the command is refused or the append loses, the
        cache may just have been behind (another worker appended), so the
        events after it are read and, if there were any, the command is
        decided again on the game as it is now, as if it had come a moment
        later. A cache that is current costs no read at all.

        With an idempotency key, a retry of the same request gets the first
        result again. The key is not looked up first: the append files it in
        the same transaction as the events, and a key filed before makes the
        append fail. Only then, or when the command is refused (a retry
        usually is: the game has moved on), is the first result looked for,
        so a first attempt costs no extra round trip.
        """
        meta = metadata(command.actor, command)
        loaded, tries = self._to_decide_on(command)
        fingerprint = "" if command.idempotency_key is None else request_hash(
            command.filed_as, command.name, command.filed_body(game_of(loaded.state.variant)))
        while True:
            try:
                applied = self._attempt(command, loaded, meta, fingerprint)
                break
            except (RuleViolation, PreconditionFailed, ConcurrencyError) as refusal:
                again = self._read_again(command, loaded, refusal, tries)
                if again is None:
                    return self._replayed_or_refused(command, fingerprint, refusal)
                loaded = again
        return applied

    def _to_decide_on(self, command: GameCommand) -> tuple[Loaded, _Tries]:
        """The game to decide the command on first: as cached, unless the cache
        has none or is not at the version ``If-Match`` names (then read)."""
        loaded = self.repository.cached(command.game_id)
        if loaded is not None and command.expected_version in (None, loaded.version):
            return loaded, _Tries(read=False)
        return self.repository.get(command.game_id), _Tries(read=True)

    def _attempt(self, command: GameCommand, loaded: Loaded, meta: Mapping[str, Any], fingerprint: str) -> Applied:
        """Check ``If-Match`` against ``loaded``, then decide and append the
        command on it; decided again (up to ``MOVED_RATINGS`` times, then a
        ``VersionConflict``) while another game moves the ratings it read."""
        for _ in range(MOVED_RATINGS + 1):
            if command.expected_version is not None and command.expected_version != loaded.version:
                raise PreconditionFailed(loaded.version)
            try:
                return self._decide_and_append(command, loaded, meta, fingerprint)
            except RatingsMoved:
                continue  # the game is where it was: decide it again on the ratings as they are now
        raise VersionConflict()

    def _read_again(self, command: GameCommand, loaded: Loaded, refusal: Exception, tries: _Tries) -> Loaded | None:
        """After ``refusal``: the game read again to decide the command on once
        more, or None when the refusal stands. A refusal of a game as cached
        may be the cache's being behind (``_caught_up``); an append lost after
        a read, with no ``If-Match``, is decided again on the game as another
        command left it, up to the command's ``decide_again`` times."""
        if not tries.read:
            tries.read = True
            return self._caught_up(command.game_id, loaded, refusal)
        if (isinstance(refusal, ConcurrencyError) and command.expected_version is None
                and tries.lost < command.decide_again):
            tries.lost += 1
            fresh = self.repository.get(command.game_id)
            return fresh if fresh.version != loaded.version else None
        return None

    def _caught_up(self, game_id: uuid.UUID, cached: Loaded, refusal: Exception) -> Loaded | None:
        """The game read after the cached state ``cached`` was refused: if it
        moved on, the game as it is; if not, and the store refused the
        append all the same, the store is behind the cache (events it once
        held are gone): the game read afresh, and found damaged. None when
        the refusal stands."""
        loaded = self.repository.get(game_id)
        if loaded.version != cached.version:
            return loaded
        if isinstance(refusal, ConcurrencyError):
            self.repository.forget(game_id)
            return self.repository.get(game_id)
        return None

    def _replayed_or_refused(self, command: GameCommand, fingerprint: str, refusal: Exception) -> Applied:
        """The answer to a command whose refusal stands: the first result, when
        it is a retry of one filed under its idempotency key; else the
        refusal, a lost append told as ``PreconditionFailed`` (with the
        game's version now) under ``If-Match``, else as ``VersionConflict``."""
        retried = self._first_result(command, fingerprint) if command.idempotency_key is not None else None
        if retried is not None:
            return retried
        if not isinstance(refusal, ConcurrencyError):
            raise refusal
        if command.expected_version is not None:
            raise PreconditionFailed(self.load(command.game_id).version) from None
        raise VersionConflict() from None

    def dry_run(self, command: GameCommand) -> tuple[State, RuleViolation | None]:
        """What :meth:`execute` would decide about ``command`` now, with
        nothing appended: the game as it stands, and the RuleViolation the
        rules refuse the command with (None when they accept it)."""
        state = self.load(command.game_id)
        game = game_of(state.variant)
        try:
            game.decide(state, command.rules(game), self._store.now())
        except RuleViolation as refusal:
            return state, refusal
        return state, None

    def execute_together(self, commands: Sequence[GameCommand]) -> dict[uuid.UUID, Applied]:
        """Decide each of ``commands`` (one per game, none with an
        idempotency key or ``If-Match``) on its game as cached, or read, and
        append them all at once (``EventStore.append_each``, each with its
        own version check): what was appended, by game. A command its game's
        rules refuse as the game stood, or whose append lost to another, is
        left out, for the caller to ``execute`` by itself (which reads the
        game afresh and decides again); so is one whose game cannot be read."""
        assert all(c.idempotency_key is None and c.expected_version is None for c in commands)
        games = self.repository.get_each([command.game_id for command in commands])
        decided: dict[uuid.UUID, _Decided] = {}
        for command in commands:
            if command.game_id not in games:
                continue
            try:
                decided[command.game_id] = self._decide(command, games[command.game_id],
                                                        metadata(command.actor, command), "")
            except RuleViolation:
                continue
        written = self._store.append_each([d.append for d in decided.values()])
        done = {}
        for (game_id, decision), stored in zip(decided.items(), written, strict=True):
            if not isinstance(stored, ConcurrencyError):
                done[game_id] = self._recorded(decision, stored)
        return done

    def _decide_and_append(self, command: GameCommand, loaded: Loaded, meta: Mapping[str, Any],
                           fingerprint: str) -> Applied:
        """Decide the command and its follow-ups on ``loaded`` and append
        them; what was applied."""
        decision = self._decide(command, loaded, meta, fingerprint)
        return self._recorded(decision, self._store.append(decision.append))

    def _decide(self, command: GameCommand, loaded: Loaded, meta: Mapping[str, Any], fingerprint: str) -> _Decided:
        """The command and its follow-ups decided on ``loaded``, and the append that stores them."""
        game_id, state = command.game_id, loaded.state
        game = game_of(state.variant)
        # The moment the command is decided at is its events' recorded_at:
        # the game's clock counts from it (docs/design.md, "Time is data").
        at = self._store.now()
        times = itertools.repeat(at)
        events = game.decide(state, command.rules(game), at)
        after = game.fold(events, state, times)
        new = [_new(game, e) for e in events]
        # What the rules do by themselves after a command (a reshuffle, say)
        # is appended with it, so no game is ever left waiting for it.
        while (follow := game.follow_up(after, fresh_seed())) is not None:
            more = game.decide(after, follow, at)
            after = game.fold(more, after, times)
            events += more
            follow_meta = {**meta, "actor": "service", "command": type(follow).__name__}
            new += [_new(game, e, follow_meta) for e in more]
        rated: list[Write] = []
        if players := game.players_to_rate(after):
            # A rated game that just finished is rated in the same append,
            # on its players' ratings as they stand now (service.ratings).
            more = game.decide(after, game.rate_command(self._ratings(players, after.variant)), at)
            after = game.fold(more, after, times)
            events += more
            new += [_new(game, e, {**meta, "actor": "service", "command": "Rate"}) for e in more]
            rated = rating_writes(after.variant, after.rating_changes)
        record = None
        if command.idempotency_key is not None:
            # The result itself is not filed: the versions it covers are
            # enough to give it again (see _first_result).
            record = IdempotencyRecord(command.idempotency_key, fingerprint,
                                       {"versions": [state.version + 1, after.version]}, actor=command.filed_as)
        snapshot = None
        if self._snapshot_key is not None and after.version // SNAPSHOT_EVERY > state.version // SNAPSHOT_EVERY:
            snapshot = seal(self._snapshot_key, game_id, after, code_version())
        changed = seat_changes(state, after)  # nothing, but while the game waits for its players
        seated = self._seated_tokens(game_id, changed, command.idempotency_key)
        told = notices(game_id, state, after)  # nothing, but for a game players hold seats in
        tokens = {seat: None for seat in changed} | {s: hash_token(t) for s, t in seated.items() if t}
        computer = _computer_to_move(game, after, self.computer_seats.of(game_id), at)
        due = _deadline(game, state, after) or _rematch_due(state, after, at)
        writes = [GameRow(row_changes(after, state)),
                  *_optional(record, snapshot, due, computer),
                  *seat_tokens(tokens), *player_seats(player_seat_changes(state, changed)), *player_notices(told),
                  *rated]
        append = Append(game_id, state.version, new, meta, previous_hash=loaded.hash, writes=writes, at=at)
        return _Decided(append, tuple(events), state, after, seated, told,
                        computer is not None and computer.at is not None, due.at if due is not None else None)

    def _recorded(self, decision: _Decided, stored: list[StoredEvent]) -> Applied:
        """The decision's stored events: the game as they leave it cached, then
        the bus told (``CommandAppended``); what was applied."""
        game_id = decision.append.game_id
        chronicle.appended(game_id, decision.append.metadata["command"], decision.before, decision.after,
                           decision.events, decision.append.at)
        self.repository.added(game_id, Loaded(decision.after, stored[-1].hash))
        self._bus.handle(CommandAppended(game_id, decision.append.metadata["command"], stored, decision.after,
                                         decision.told, decision.computer_due, decision.deadline))
        return Applied(game_id, decision.append.expected_version, decision.events, decision.after,
                       stored[-1].position, decision.seated)

    def _seated_tokens(self, game_id: uuid.UUID, changed: Mapping[int, Holder | None],
                       key: str | None) -> dict[int, str | None]:
        """The seats that someone took (of ``changed``, the seats that
        changed hands), each with its new token: a guest's is random, or
        derived from the join's idempotency key (``seat_token``, under a
        purpose of its own), so that a retry makes it again; a player's seat
        has none (None)."""
        return {seat: None if holder.player is not None else
                new_token() if key is None else seat_token(self._seat_key, "join|" + key, game_id, seat)
                for seat, holder in changed.items() if holder is not None}

    def _first_result(self, command: GameCommand, fingerprint: str) -> Applied | None:
        """What the command filed under its key did, or None: made again from
        the events it appended."""
        assert command.idempotency_key is not None
        game_id = command.game_id
        found = self._filed(game_id, command.filed_as, command.idempotency_key, fingerprint)
        if found is None:
            return None
        first, last = found["versions"]
        stored = self._store.load(game_id, until_version=last)
        before = refold(stored[:first - 1])
        events = tuple(decode(e) for e in stored[first - 1:])
        after = refold(stored[first - 1:], before)
        seated = self._seated_tokens(game_id, seat_changes(before, after), command.idempotency_key)
        kept = self._store.seat_token_hashes(game_id) if any(seated.values()) else {}
        if any(token is not None and kept.get(seat) != hash_token(token) for seat, token in seated.items()):
            # The seat was left since (or the secret replaced): never answer with a token that does not work.
            raise TokensLost("A seat was taken under this Idempotency-Key, but its token no longer works: the"
                             " seat has been left since, or the service's secret replaced. Join again.")
        return Applied(game_id, first - 1, events, after, stored[-1].position, seated)

    def _filed(self, scope: uuid.UUID, actor: str, key: str, fingerprint: str) -> dict[str, Any] | None:
        """What ``actor`` filed under ``key``; KeyReused if it was for another request."""
        found = self._store.find_idempotent(scope, actor, key)
        if found is None:
            return None
        first_hash, response = found
        if first_hash != fingerprint:
            raise KeyReused()
        return response


class _NewGame(NamedTuple):
    """A creation decided, before it has an id: its command, its game, its
    events, the state they make before anyone sits down and after, and when."""

    command: CreateGame
    game: GameType
    events: list[NewEvent]
    created: State
    state: State
    at: datetime


class _Decided(NamedTuple):
    """A command decided: the append that stores it, its events (the
    domain's), the states before and after them, the seats it seated (with their new
    tokens), what it tells the players, whether a computer seat is then
    awaited, and the deadline it writes, if it sets or moves one."""

    append: Append
    events: tuple[Any, ...]
    before: State
    after: State
    seated: dict[int, str | None]
    told: Told
    computer_due: bool = False
    deadline: datetime | None = None


@dataclass
class _Tries:
    """Where a command's attempts stand (``GameService.execute``): whether the
    game was read from the store (not only taken from the cache), and how
    many appends were lost after a read."""

    read: bool
    lost: int = 0


def _deadline(game: GameType, before: State | None, after: State) -> Deadline | None:
    """The game's deadline after an append that goes from ``before`` to
    ``after``, if it sets, moves or clears one; None for a game without a
    clock, or a deadline that stays as it was (nothing to write)."""
    if after.clock is None:
        return None
    due = game.deadline(after)
    if before is not None and game.deadline(before) == due:
        return None
    return Deadline(due)


def _rematch_due(before: State, after: State, at: datetime) -> Deadline | None:
    """A deadline on the finished game, ``REMATCH_LOOK`` after the answer
    that completes its rematch: when the time keeper looks whether the new
    game exists, and creates it if the process that appended the answer died
    before it did (``service.rematches``). None for any other append."""
    made = after.rematch
    if made is None or made.game_id is None or (before.rematch is not None and before.rematch.game_id is not None):
        return None
    return Deadline(at + REMATCH_LOOK)


def _optional(*writes: Write | None) -> list[Write]:
    """The writes given, but None (a write this append has none of)."""
    return [w for w in writes if w is not None]


def _creation_metadata(command: CreateGame) -> dict[str, Any]:
    """What a creation's events record besides themselves: who created it (a
    player seated by it, else the public), and the game's lasting terms
    (its computer seats, listed in the lobby, players only)."""
    actor = player(command.me.player).actor if command.me is not None else PUBLIC.actor
    meta = metadata(actor, command)
    if command.computers:
        meta[COMPUTER_SEATS] = list(command.computers)
    if command.listed:
        meta[LISTED] = True
    if not command.guests:
        meta[PLAYERS_ONLY] = True
    return meta


def _hash_list(tokens: list[str | None]) -> list[str | None]:
    """The hashes of a creation's tokens, seat by seat (None: an open seat), as its key's record keeps them."""
    return [None if token is None else hash_token(token) for token in tokens]


def _started(game_id: uuid.UUID, state: State, command: CreateGame, told: Told) -> dict[uuid.UUID, list[Any]]:
    """What a new game tells its players (``told``), and before it, to each
    player of a pairing it is made for, or of the game it is the rematch of,
    that it has begun for them (``game_started``, with the pairing it ends,
    or the game it is the rematch of)."""
    begun = {"event": "game_started", "game": str(game_id), "version": state.version}
    started = {p.player: [{**begun, "pairing": str(p.pairing)}] for p in command.paired}
    if command.rematch_of is not None:
        started |= {s.player: [{**begun, "rematch_of": str(command.rematch_of)}] for s in command.seated}
    return {player: [*started.get(player, []), *told.get(player, [])] for player in {*started, *told}}


def _hashes(tokens: list[str | None]) -> dict[int, str]:
    """The hashes of the seats' tokens, by seat (an open seat has none)."""
    return {i: hash_token(t) for i, t in enumerate(tokens) if t is not None}


def _new(game: GameType, event: Any, metadata: Mapping[str, Any] | None = None) -> NewEvent:
    stored = game.to_json(event)
    return NewEvent(stored["type"], stored["schema_version"], stored["data"], metadata)

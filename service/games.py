"""The service layer: run a command against a game, end to end.

Each command is: take the game from the cache (reading the events after it
only when the cache is empty or turns out to be behind), check the
preconditions (``If-Match``), let the domain decide, append the events with
the read model and idempotency record in one transaction, and answer with
what the caller may see. Flask stays out of this module; the blueprints turn
its results and errors into HTTP.
"""

from __future__ import annotations

import hashlib
import secrets
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, NamedTuple

import domain
from domain import GameState, RuleViolation, decide, fold, to_json

from service import jsonio, snapshots
from service.cache import StateCache, code_version
from service.caller import PUBLIC, Caller
from service.metrics import COMMANDS_APPENDED
from service.projection import decode, refold, row_changes
from service.redaction import redact
from service.store import (CREATION_SCOPE, ConcurrencyError, EventStore, IdempotencyRecord, NewEvent,
                           StoredEvent)
from service.tokens import hash_token, new_token, seat_token
from service.views import game_view

SNAPSHOT_EVERY = 100
TOKEN_TRUST_SECONDS = 60.0


class GameNotFound(LookupError):
    pass


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
    """A game's creation was retried, but its tokens cannot be made again:
    the secret they were derived with has changed since (see ``create``)."""


@dataclass(frozen=True)
class Answer:
    """A command's result: the HTTP status and JSON body, as first answered."""

    status: int
    body: dict[str, Any]


def log_revealed(state: GameState) -> bool:
    """Whether the whole log is public: the game is over and its options allow it."""
    return state.status == "finished" and state.options.public_log


def event_json(stored: StoredEvent, caller: Caller, reveal: bool = False) -> dict[str, Any]:
    """A stored event as the API's event log shows it to ``caller``."""
    out = {"version": stored.version, **redact(_stored_form(stored), caller, reveal),
           "recorded_at": stored.recorded_at.isoformat()}
    if caller.is_operator:
        out["position"] = stored.position
        out["metadata"] = stored.metadata
        out["hash"] = stored.hash
    return out


def new_event_json(version: int, event, caller: Caller, reveal: bool = False) -> dict[str, Any]:
    """An event just decided, as a command's answer shows it to ``caller``."""
    return {"version": version, **redact(to_json(event), caller, reveal)}


def request_hash(caller: Caller, action: str, body: Any) -> str:
    """What tells a retry (same caller, action and body) from another request under the same key."""
    return hashlib.sha256(jsonio.dumps([caller.actor, action, body], sort_keys=True)).hexdigest()


class Loaded(NamedTuple):
    """A folded state and the hash of its last event, which the next append chains to."""

    state: GameState
    hash: str

    @property
    def version(self) -> int:
        return self.state.version


class GameService:
    def __init__(self, store: EventStore, cache: StateCache, clock: Callable[[], float] = time.monotonic, *,
                 snapshot_key: bytes | None = None, seat_key: bytes | None = None):
        """``snapshot_key`` signs the snapshots written and is needed to read
        them (see ``service.snapshots``); without it there are none.
        ``seat_key`` derives the tokens of games created with an idempotency
        key (``service.tokens.seat_token``); every process serving the
        database needs the same one, and without it each makes its own."""
        self.store = store
        self.cache = cache
        self._clock = clock
        self._snapshot_key = snapshot_key
        self._seat_key = seat_key or secrets.token_bytes(32)
        # Tokens found, per game: token hash -> (seat, until when to trust it).
        self._seats: dict[uuid.UUID, dict[str, tuple[int, float]]] = {}

    def seat_for_token(self, game_id: uuid.UUID, token_hash: str) -> int | None:
        """The seat the token is for, or None. A hit is kept for
        ``TOKEN_TRUST_SECONDS``: the service never changes a game's tokens,
        but one withdrawn in the database stops working everywhere within
        this time."""
        known = self._seats.get(game_id, {}).get(token_hash)
        if known is not None and known[1] > self._clock():
            return known[0]
        found = self.store.seat_for_token(game_id, token_hash)
        if found is not None:
            self._seats.setdefault(game_id, {})[token_hash] = (found, self._clock() + TOKEN_TRUST_SECONDS)
        return found

    # -- reading ------------------------------------------------------------

    def load(self, game_id: uuid.UUID) -> GameState:
        """The game's current state; raises GameNotFound."""
        return self._load(game_id).state

    def _load(self, game_id: uuid.UUID) -> Loaded:
        loaded = self.cache.get(game_id)
        state = loaded.state if loaded is not None else None
        after = state.version if state is not None else 0
        if loaded is None and self._snapshot_key is not None:
            snapshot = self.store.load_snapshot(game_id, code_version())
            state = snapshots.unseal(self._snapshot_key, game_id, snapshot) if snapshot is not None else None
            if state is not None:
                # A snapshot holds no hash: read its last event again for the
                # link the chain continues from (one more row, same round trip).
                after = state.version - 1
        events = self.store.load(game_id, after)
        if not events and loaded is None:
            raise GameNotFound(game_id)
        if events:
            state = refold((e for e in events if state is None or e.version > state.version), state)
            loaded = Loaded(state, events[-1].hash)
        self.cache.put(game_id, loaded)
        return loaded

    # -- commands -----------------------------------------------------------

    def create(self, command: domain.CreateGame, meta: dict[str, Any],
               answer: Callable[[uuid.UUID, GameState, list[str]], Answer], *,
               idempotency_key: str | None = None, fingerprint: str = "") -> Answer:
        """Start a game and answer with ``answer(id, state, tokens)``; the
        seats' tokens are made here and only their hashes are kept.

        A retry with an idempotency key used before is found when the append
        files the key a second time. It gets the same game and the same
        tokens: a game created under a key has its tokens derived from the
        key (``_tokens``), so they are made again rather than kept, none is
        replaced, and all of concurrent retries get tokens that work. Only
        the key's holder can retry, so a creation key must be a secret
        random value (the edge refuses short ones).
        """
        events = decide(None, command)
        game_id = uuid.uuid4()
        tokens = self._tokens(game_id, len(command.players), idempotency_key)
        state = fold(events)
        first = answer(game_id, state, tokens)
        record = None
        if idempotency_key is not None:
            record = IdempotencyRecord(idempotency_key, fingerprint, {"game": str(game_id), "version": state.version},
                                       actor=PUBLIC.actor, scope=CREATION_SCOPE)
        try:
            stored = self.store.append(game_id, 0, [_new(e) for e in events], meta, idempotency=record,
                                       game_row=row_changes(state, created=True),
                                       seat_token_hashes={i: hash_token(t) for i, t in enumerate(tokens)})
        except ConcurrencyError:  # a new game's only conflict: the key was filed before
            replay = self._replay_creation(idempotency_key, fingerprint, answer) if idempotency_key else None
            if replay is None:
                raise
            return replay
        self.cache.put(game_id, Loaded(state, stored[-1].hash))
        COMMANDS_APPENDED.inc()
        return first

    def _replay_creation(self, key: str, fingerprint: str,
                         answer: Callable[[uuid.UUID, GameState, list[str]], Answer]) -> Answer | None:
        """The game first created under ``key``, with its seats' tokens; None if there is none."""
        found = self._filed(CREATION_SCOPE, PUBLIC, key, fingerprint)
        if found is None:
            return None
        game_id = uuid.UUID(found["game"])
        state = refold(self.store.load(game_id, until_version=found["version"]))
        tokens = self._tokens(game_id, len(state.seats), key)
        if self.store.seat_token_hashes(game_id) != {i: hash_token(t) for i, t in enumerate(tokens)}:
            raise TokensLost()  # never answer with tokens that do not work
        return answer(game_id, state, tokens)

    def _tokens(self, game_id: uuid.UUID, seats: int, key: str | None) -> list[str]:
        """The seats' tokens of a new game: random, or derived from its creation's idempotency key."""
        if key is None:
            return [new_token() for _ in range(seats)]
        return [seat_token(self._seat_key, key, game_id, i) for i in range(seats)]

    def execute(self, game_id: uuid.UUID, caller: Caller, make_command: Callable[[GameState], Any], *,
                if_match: int | None, idempotency_key: str | None, fingerprint: str,
                meta: dict[str, Any]) -> Answer:
        """Decide and append one command; answer with the new version, the
        events the caller may see, and the caller's view.

        ``make_command`` builds the command from the current state (a deal
        needs to know whose turn it is to deal, say).

        The command is decided on the cached state without asking the
        database whether the game moved on: the append's version check does
        that anyway. If the command is refused or the append loses, the
        cache may just have been behind (another worker appended), so the
        events after it are read and, if there were any, the command is
        decided again on the game as it is now, as if it had come a moment
        later. A cache that is current costs no read at all.

        With an idempotency key, a retry of the same request gets the first
        answer again. The key is not looked up first: the append files it in
        the same transaction as the events, and a key filed before makes the
        append fail. Only then, or when the command is refused (a retry
        usually is: the game has moved on), is the first answer looked for,
        so a first attempt costs no extra round trip.
        """
        loaded = self.cache.get(game_id)
        read = loaded is None or (if_match is not None and if_match != loaded.version)
        if read:
            loaded = self._load(game_id)
        while True:
            try:
                if if_match is not None and if_match != loaded.version:
                    raise PreconditionFailed(loaded.version)
                events = decide(loaded.state, make_command(loaded.state))
                after = fold(events, loaded.state)
                answer, head = self._append(game_id, loaded, after, events, meta, idempotency_key, fingerprint,
                                            caller)
                break
            except (RuleViolation, PreconditionFailed, ConcurrencyError) as refusal:
                if not read:
                    read, cached = True, loaded
                    loaded = self._load(game_id)
                    if loaded.version != cached.version:
                        continue
                replay = self._replay(game_id, idempotency_key, fingerprint, caller) if idempotency_key else None
                if replay is not None:
                    return replay
                if not isinstance(refusal, ConcurrencyError):
                    raise
                if if_match is not None:
                    raise PreconditionFailed(self.load(game_id).version) from None
                raise VersionConflict() from None
        self.cache.put(game_id, Loaded(after, head))
        COMMANDS_APPENDED.inc()
        return answer

    def _append(self, game_id, loaded: Loaded, after, events, meta, key, fingerprint,
                caller) -> tuple[Answer, str]:
        """Append; the answer, and the hash of the new last event."""
        state = loaded.state
        answer = command_answer(state.version, after, events, caller)
        # The answer itself is not filed: the versions it covers are enough
        # to give it again (see _replay), and a few bytes are cheaper to
        # write with every command than the caller's whole view.
        record = None
        if key is not None:
            record = IdempotencyRecord(key, fingerprint, {"versions": [state.version + 1, after.version]},
                                       actor=caller.actor)
        snapshot = None
        if self._snapshot_key is not None and after.version // SNAPSHOT_EVERY > state.version // SNAPSHOT_EVERY:
            snapshot = snapshots.seal(self._snapshot_key, game_id, after, code_version())
        stored = self.store.append(game_id, state.version, [_new(e) for e in events], meta,
                                   previous_hash=loaded.hash, idempotency=record,
                                   game_row=row_changes(after, created=False), snapshot=snapshot)
        return answer, stored[-1].hash

    def _replay(self, game_id, key: str, fingerprint: str, caller: Caller) -> Answer | None:
        """The first answer to the command filed under ``key``, or None: made
        again from the events it appended, as it was first made."""
        found = self._filed(game_id, caller, key, fingerprint)
        if found is None:
            return None
        first, last = found["versions"]
        stored = self.store.load(game_id, until_version=last)
        events = [decode(e) for e in stored[first - 1:]]
        return command_answer(first - 1, fold(events, refold(stored[:first - 1])), events, caller)

    def _filed(self, scope, caller: Caller, key: str, fingerprint: str) -> dict[str, Any] | None:
        """What ``caller`` filed under ``key``; KeyReused if it was for another request."""
        found = self.store.find_idempotent(scope, caller.actor, key)
        if found is None:
            return None
        first_hash, response = found
        if first_hash != fingerprint:
            raise KeyReused()
        return response


def command_answer(version: int, after: GameState, events, caller: Caller) -> Answer:
    """The answer to a command that took the game from ``version`` to
    ``after`` by appending ``events``: the new version, the events as the
    caller may see them, and the caller's view."""
    reveal = log_revealed(after)
    shown = [new_event_json(version + 1 + i, e, caller, reveal) for i, e in enumerate(events)]
    return Answer(200, {"version": after.version, "events": shown, "game": game_view(after, caller)})


def _new(event) -> NewEvent:
    j = to_json(event)
    return NewEvent(j["type"], j["schema_version"], j["data"])


def _stored_form(e: StoredEvent) -> dict[str, Any]:
    return {"type": e.type, "schema_version": e.schema_version, "data": e.data}

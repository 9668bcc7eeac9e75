"""The game repository: where the service gets a game to decide a command
on, or to read, from one ``get``.

In the manner of Cosmic Python's repository: the service layer asks for a
game by its id and gets it folded, whatever it took. What it takes is this
module's alone: the cache of folded states (``service.cache``); else the
game's sealed snapshot (``service.snapshots``) when the service has the
key that opens it; then the events stored after either, read with the
game's signed checkpoint in one round trip, checked against it
(``service.checkpoints``: the history must end where the signature says)
and folded, a history that will not fold named by its first break in the
hash chain (``service.chain``). What was read is cached for the next
command. A command's path then reads handler, service, repository, store,
and back, with no return to a room it left.
"""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from typing import NamedTuple

from domain.game_types import State

from service.cache import StateCache
from service.chain import first_break
from service.checkpoints import Checkpoint, mismatch
from service.events import EventStore, StoredEvent, Unfoldable, refold_checked
from service.snapshots import code_version, unseal


class GameNotFound(LookupError):
    pass


class CorruptGame(Exception):
    """The game's stored events do not fold into a game: they were changed
    behind the service's back. ``version`` is the first bad one (the first
    break in the hash chain, if that comes before the event that would not
    fold); ``last_version`` is the last one stored."""

    def __init__(self, game_id: uuid.UUID, version: int, last_version: int):
        super().__init__(f"Game {game_id} is damaged from version {version} on.")
        self.game_id = game_id
        self.version = version
        self.last_version = last_version


def corrupt_game(game_id: uuid.UUID, events: list[StoredEvent], error: Unfoldable) -> CorruptGame:
    """The ``CorruptGame`` for a game whose stored ``events`` (all of them) failed to fold."""
    broken = first_break(game_id, events)
    first = min(error.version, broken.version) if broken is not None else error.version
    return CorruptGame(game_id, first, events[-1].version)


class Loaded(NamedTuple):
    """A folded state and the hash of its last event, which the next append chains to."""

    state: State
    hash: str

    @property
    def version(self) -> int:
        return self.state.version


class GameRepository:
    """Games folded from one store, through one cache (see the module's docstring)."""

    def __init__(self, store: EventStore, cache: StateCache, *, snapshot_key: bytes | None = None,
                 checkpoint_key: bytes | None = None):
        """``snapshot_key`` opens the game's snapshots (without it none is
        read). With ``checkpoint_key`` (the store's, which signs each game's
        head), a game read from the store must end where its signed
        checkpoint says, or it is a ``CorruptGame``."""
        self._store = store
        self.cache = cache
        self._snapshot_key = snapshot_key
        self._checkpoint_key = checkpoint_key

    def get(self, game_id: uuid.UUID) -> Loaded:
        """The game as it stands: as cached with the events stored after it
        (none, mostly), else from its snapshot or its first event. Raises
        GameNotFound, or CorruptGame when what is stored does not fold or
        does not end at the game's signed checkpoint."""
        loaded = self.cache.get(game_id)
        state = loaded.state if loaded is not None else None
        after = state.version if state is not None else 0
        if loaded is None and self._snapshot_key is not None:
            snapshot = self._store.load_snapshot(game_id, code_version())
            state = unseal(self._snapshot_key, game_id, snapshot) if snapshot is not None else None
            if state is not None:
                # A snapshot holds no hash: read its last event again for the
                # link the chain continues from (one more row, same round trip).
                after = state.version - 1
        events, checkpoint = self._store.load_head(game_id, after)
        if not events and loaded is None:
            raise GameNotFound(game_id)
        return self._folded(game_id, loaded, state, events, checkpoint)

    def cached(self, game_id: uuid.UUID) -> Loaded | None:
        """The game as this process last knew it, without asking the store (None: not known)."""
        return self.cache.get(game_id)

    def get_each(self, game_ids: Sequence[uuid.UUID]) -> dict[uuid.UUID, Loaded]:
        """The games as cached; those the cache does not have, read in one go
        (``EventStore.load_heads``). A game that cannot be read so (none such,
        damaged, a snapshot that does not open) is left out."""
        found = {game_id: loaded for game_id in game_ids if (loaded := self.cache.get(game_id)) is not None}
        wanted = [game_id for game_id in game_ids if game_id not in found]
        if not wanted:
            return found
        signed = self._snapshot_key is not None
        for game_id, head in self._store.load_heads(wanted, code_version() if signed else None).items():
            state = None
            if head.snapshot is not None:
                assert self._snapshot_key is not None
                state = unseal(self._snapshot_key, game_id, head.snapshot)
                if state is None:
                    continue
            try:
                found[game_id] = self._folded(game_id, None, state, head.events, head.checkpoint)
            except CorruptGame:
                continue
        return found

    def added(self, game_id: uuid.UUID, loaded: Loaded) -> None:
        """The game as an append of this process left it (kept unless a newer one is)."""
        self.cache.put(game_id, loaded)

    def forget(self, game_id: uuid.UUID) -> None:
        """Drop what is cached of the game: the next ``get`` reads it whole."""
        self.cache.drop(game_id)

    def _folded(self, game_id: uuid.UUID, loaded: Loaded | None, state: State | None,
                events: list[StoredEvent], checkpoint: Checkpoint | None) -> Loaded:
        """The game as cached (``loaded``; ``state``, from it or from a
        snapshot), with the ``events`` read after it (and checked against
        the game's signed ``checkpoint``) folded in; cached."""
        if events:
            if self._checkpoint_key is not None:
                self._check_head(game_id, events, checkpoint)
            try:
                state = refold_checked((e for e in events if state is None or e.version > state.version),
                                       state)
            except Unfoldable as error:
                raise corrupt_game(game_id, self._store.load(game_id), error) from error
            loaded = Loaded(state, events[-1].hash)
        assert loaded is not None
        self.cache.put(game_id, loaded)
        return loaded

    def _check_head(self, game_id: uuid.UUID, events: list[StoredEvent], checkpoint: Checkpoint | None) -> None:
        """Refuse a game whose stored events do not end at its signed checkpoint."""
        found = mismatch(self._checkpoint_key, game_id, checkpoint, events)
        if found is not None:
            last = events[-1].version
            raise CorruptGame(game_id, found.first_bad_version or last, last)

"""``GameService.execute`` step by step, on a memory store that fails on
demand: the cache's staleness, ``If-Match``, the retries after a lost
append (another game moving a rating, another command landing first) and
the replay of an idempotent retry. Each test counts the reads of the
game's head, so that a step that reads when it need not fails too."""

from __future__ import annotations

import uuid
from collections.abc import Callable
from dataclasses import replace

import pytest

from domain import RuleViolation
from service.auth import seat
from service.cache import StateCache
from service.commands import CreateGame, Deal, SetClientSeed
from service.appends import Chained
from service.events import ConcurrencyError, RatingsMoved
from service.games import MOVED_RATINGS, GameService, KeyReused, PreconditionFailed, VersionConflict
from service.memory.store import MemoryEventStore


class FailingStore(MemoryEventStore):
    """A memory store whose next appends fail when told to (``fail``), each
    after letting ``first`` happen (another worker's command landing, say);
    it counts the reads of games' heads (``reads``)."""

    def __init__(self):
        super().__init__()
        self.failures: list[tuple[type[ConcurrencyError], Callable[[], object] | None]] = []
        self.reads = 0

    def fail(self, times: int = 1, error: type[ConcurrencyError] = ConcurrencyError,
             first: Callable[[], object] | None = None) -> None:
        self.failures += [(error, first)] * times

    def _write(self, append: Chained):
        if self.failures:
            error, first = self.failures.pop(0)
            if first is not None:
                first()
            raise error(append.append.game_id, append.append.expected_version)
        return super()._write(append)

    def load_head(self, game_id, after_version=0):
        self.reads += 1
        return super().load_head(game_id, after_version)


#: The version a game is at once created (its creation and the first deal's committed shuffle).
CREATED = 2


@pytest.fixture
def store() -> FailingStore:
    return FailingStore()


@pytest.fixture
def service(store) -> GameService:
    return GameService(store, StateCache())


@pytest.fixture
def game_id(service, store) -> uuid.UUID:
    created = service.create(CreateGame(variant="cassino", seats=("Ann", "Bob"), options={}, first_dealer=1))
    assert len(stored(store, created.game_id)) == CREATED
    return created.game_id


def rival(store: FailingStore) -> GameService:
    """Another worker over the same tables, with a cache and a store of its own (which never fails)."""
    return GameService(MemoryEventStore(store.tables), StateCache())


def seed(game_id: uuid.UUID, text: str, *, by: int = 0, if_match: int | None = None, key: str | None = None,
         again: int = 0) -> SetClientSeed:
    command = SetClientSeed(game_id=game_id, caller=seat(by), seed=text, expected_version=if_match,
                            idempotency_key=key)
    return replace(command, decide_again=again)


def stored(store: FailingStore, game_id: uuid.UUID) -> list[str]:
    return [e.type for e in store.load(game_id)]


# -- the cache's staleness -----------------------------------------------

def test_a_game_as_cached_is_decided_on_without_a_read(service, store, game_id):
    store.reads = 0
    applied = service.execute(seed(game_id, "abc"))
    assert store.reads == 0 and applied.state.version == len(stored(store, game_id))


def test_a_cache_left_behind_is_read_again_once_and_the_command_decided_on_the_game_as_it_is(
        service, store, game_id):
    rival(store).execute(seed(game_id, "the rival's", by=1))
    store.reads = 0
    applied = service.execute(seed(game_id, "abc"))
    assert store.reads == 1
    assert applied.before == CREATED + 1 and stored(store, game_id)[-2:] == ["ClientSeedSet", "ClientSeedSet"]


def test_a_store_behind_the_cache_makes_the_game_read_afresh(service, store, game_id):
    """The append loses though the game read again has not moved: the
    cache is ahead of the store (events it held are gone). The cache is
    dropped and the game read from its first event, then decided again."""
    store.fail()
    store.reads = 0
    applied = service.execute(seed(game_id, "abc"))
    assert store.reads == 2 and applied.before == CREATED


def test_a_refusal_of_the_game_as_cached_stands_once_a_read_shows_it_current(service, store, game_id):
    store.reads = 0
    with pytest.raises(RuleViolation):
        service.execute(Deal(game_id=game_id, caller=seat(0)))  # seat 1 deals
    assert store.reads == 1 and len(stored(store, game_id)) == CREATED


# -- If-Match -------------------------------------------------------------

def test_if_match_at_the_cached_version_reads_nothing(service, store, game_id):
    store.reads = 0
    service.execute(seed(game_id, "abc", if_match=CREATED))
    assert store.reads == 0


def test_if_match_ahead_of_the_cache_reads_first_and_is_met(service, store, game_id):
    rival(store).execute(seed(game_id, "the rival's", by=1))
    store.reads = 0
    applied = service.execute(seed(game_id, "abc", if_match=CREATED + 1))
    assert store.reads == 1 and applied.before == CREATED + 1


def test_if_match_behind_the_game_is_refused_with_its_version_and_appends_nothing(service, store, game_id):
    service.execute(seed(game_id, "abc"))
    with pytest.raises(PreconditionFailed) as refused:
        service.execute(seed(game_id, "xyz", if_match=CREATED))
    assert refused.value.current == CREATED + 1 and len(stored(store, game_id)) == CREATED + 1


def test_an_append_lost_under_if_match_is_refused_with_the_version_that_won(service, store, game_id):
    other = rival(store)
    store.fail(first=lambda: other.execute(seed(game_id, "the rival's", by=1)))
    service.load(game_id)
    with pytest.raises(PreconditionFailed) as refused:
        service.execute(seed(game_id, "abc", if_match=CREATED))
    assert refused.value.current == CREATED + 1 and stored(store, game_id)[-1] == "ClientSeedSet"


# -- retries after a lost append ----------------------------------------------

def test_an_append_lost_after_a_read_is_decided_again_as_often_as_the_command_allows(service, store, game_id):
    other = rival(store)
    service.execute(seed(game_id, "read", by=1))  # the cache is current: a lost append is no stale cache
    store.fail(times=2, first=lambda: other.execute(seed(game_id, "the rival's", by=1)))
    applied = service.execute(seed(game_id, "abc", again=2))  # the first loss is read, the second decided again
    assert applied.before == CREATED + 3 and len(stored(store, game_id)) == CREATED + 4


def test_an_append_lost_after_a_read_by_a_command_that_is_not_decided_again_is_a_conflict(
        service, store, game_id):
    other = rival(store)
    store.fail(times=2, first=lambda: other.execute(seed(game_id, "the rival's", by=1)))
    with pytest.raises(VersionConflict):
        service.execute(seed(game_id, "abc"))
    assert stored(store, game_id)[CREATED:] == ["ClientSeedSet", "ClientSeedSet"]  # the rival's two


@pytest.mark.parametrize("moved, appended", [(MOVED_RATINGS, True), (MOVED_RATINGS + 1, False)])
def test_a_command_is_decided_again_while_other_games_move_the_ratings_it_read(service, store, game_id, moved,
                                                                                  appended):
    store.fail(times=moved, error=RatingsMoved)
    store.reads = 0
    if appended:
        assert service.execute(seed(game_id, "abc")).before == CREATED
    else:
        with pytest.raises(VersionConflict):
            service.execute(seed(game_id, "abc"))
    assert store.reads == 0 and len(stored(store, game_id)) == CREATED + appended


# -- the replay of an idempotent retry ----------------------------------------

def test_a_retry_whose_first_attempt_was_appended_gets_its_answer_again(service, store, game_id):
    first = service.execute(seed(game_id, "abc", key="k"))
    service.execute(seed(game_id, "later", by=1))
    again = service.execute(seed(game_id, "abc", key="k"))
    assert again == first and len(stored(store, game_id)) == CREATED + 2


def test_a_retry_whose_answer_was_lost_with_the_connection_gets_the_first_answer(service, store, game_id):
    """The first attempt was appended by another process of the same
    client (a retry through a second worker), then this one's append finds
    the key filed: the answer is the first's, made again from its events."""
    other = rival(store)
    first = other.execute(seed(game_id, "abc", key="k"))
    service.load(game_id)
    store.reads = 0
    assert service.execute(seed(game_id, "abc", key="k")) == first
    assert len(stored(store, game_id)) == CREATED + 1


def test_a_key_used_for_another_request_is_refused(service, store, game_id):
    service.execute(seed(game_id, "abc", key="k"))
    with pytest.raises(KeyReused):
        service.execute(seed(game_id, "something else", key="k"))
    assert len(stored(store, game_id)) == CREATED + 1

"""The service layer (GameService) on the in-memory store: no PostgreSQL.

Commands, retries under an idempotency key, lost races, If-Match and a
cache left behind by another worker, checked on what the store holds.
"""

from __future__ import annotations

import uuid
from dataclasses import replace
from datetime import UTC, datetime, timedelta

import pytest

from domain import RuleViolation
from service.auth import Authenticator, created_under, hash_token, seat
from service.cache import StateCache
from service.commands import CreateGame, Deal, SetClientSeed
from service.events import ConcurrencyError, refold
from service.games import Applied, GameService, KeyReused, PreconditionFailed, TokensLost, VersionConflict
from service.memory.store import MemoryEventStore
from service.memory.tables import IDEMPOTENCY_LIFETIME, Tables


def new_game(service: GameService, key: str | None = None) -> tuple[uuid.UUID, list[str]]:
    created = service.create(CreateGame(variant="cassino", seats=("Ann", "Bob"), options={}, first_dealer=1,
                                        idempotency_key=key, request_id="r-1"))
    return created.game_id, list(created.tokens)


def seed(service: GameService, game_id: uuid.UUID, text: str, *, by: int = 0, key: str | None = None,
         if_match: int | None = None) -> Applied:
    return service.execute(SetClientSeed(game_id=game_id, caller=seat(by), seed=text, expected_version=if_match,
                                         idempotency_key=key, request_id="r-1"))


def version_of(store, game_id: uuid.UUID) -> int:
    return store.load(game_id)[-1].version


@pytest.fixture
def store() -> MemoryEventStore:
    return MemoryEventStore()


@pytest.fixture
def service(store) -> GameService:
    return GameService(store, StateCache())


def test_a_created_game_is_stored_whole_with_only_its_tokens_hashes(service, store):
    game_id, tokens = new_game(service)

    assert service.load(game_id) == refold(store.load(game_id))
    assert store.seat_token_hashes(game_id) == {0: hash_token(tokens[0]), 1: hash_token(tokens[1])}
    assert store.tables.rows[game_id]["player_names"] == ["Ann", "Bob"]
    assert Authenticator(None, store).seat_for_token(game_id, hash_token(tokens[1])) == 1


def test_a_creation_retried_under_its_key_gets_the_same_game_and_tokens(service, store):
    first = new_game(service, key="creation-key-0123456789")
    again = new_game(service, key="creation-key-0123456789")

    assert again == first
    assert store.game_ids() == [first[0]]


def test_a_keyed_creation_takes_the_id_made_from_its_key_and_files_the_key_under_it(service, store):
    """The record lies with the game (on Citus, on its node): not under one id shared by every creation."""
    one, _ = new_game(service, key="creation-key-0123456789")
    two, _ = new_game(service, key="creation-key-9876543210")
    plain, _ = new_game(service)

    assert one == created_under("public", "creation-key-0123456789") and two != one
    assert plain not in (created_under("public", "creation-key-0123456789"), one, two)
    assert {scope for scope, _, _ in store.tables.filed} == {one, two}
    assert sorted(store.game_ids()) == sorted([one, two, plain])


def test_a_creation_key_used_again_with_another_body_is_refused_and_makes_no_game(service, store):
    game_id, _ = new_game(service, key="creation-key-0123456789")
    versions = [e.version for e in store.load(game_id)]
    other = CreateGame(variant="cassino", seats=("Cy", "Dan", "Eve"), options={},
                       idempotency_key="creation-key-0123456789")

    with pytest.raises(KeyReused):
        service.create(other)
    assert store.game_ids() == [game_id] and [e.version for e in store.load(game_id)] == versions


def test_a_creation_key_used_again_after_its_record_expired_makes_a_new_game_which_its_retries_get():
    now = [datetime.now(UTC)]
    store = MemoryEventStore(Tables(now=lambda: now[0]))
    service = GameService(store, StateCache())
    key = "creation-key-0123456789"
    first, first_tokens = new_game(service, key=key)
    now[0] += IDEMPOTENCY_LIFETIME + timedelta(seconds=1)

    second, tokens = new_game(service, key=key)  # forgotten: a new game, though the key's id is taken
    assert second != first and sorted(store.game_ids()) == sorted([first, second])
    assert tokens != first_tokens
    assert new_game(service, key=key) == (second, tokens)  # its retries find it, under the key's id
    assert len(store.game_ids()) == 2
    with pytest.raises(KeyReused):
        service.create(CreateGame(variant="cassino", seats=("Cy", "Dan", "Eve"), options={}, idempotency_key=key))


def test_a_creation_filed_before_its_key_kept_the_tokens_hashes_is_checked_against_the_seats(service, store):
    """A key filed before the record kept the tokens' hashes: each seat the creation gave a token must still
    have it, or the retry is told that a seat was left or the secret replaced."""
    key = "creation-key-0123456789"
    game_id, tokens = new_game(service, key=key)
    for where, filed in list(store.tables.filed.items()):
        store.tables.filed[where] = replace(filed, response={k: v for k, v in filed.response.items() if k != "tokens"})
    assert new_game(service, key=key) == (game_id, tokens)
    other = GameService(store, StateCache(), seat_key=b"a replaced secret")
    with pytest.raises(TokensLost, match="left since, or the service's secret replaced"):
        new_game(other, key=key)


def test_a_command_is_appended_and_answered_with_the_new_version(service, store):
    game_id, _ = new_game(service)
    before = version_of(store, game_id)

    applied = seed(service, game_id, "abc")

    assert applied.before == before and applied.state.version == before + 1
    assert [type(e).__name__ for e in applied.events] == ["ClientSeedSet"]
    assert version_of(store, game_id) == before + 1
    assert store.tables.rows[game_id]["version"] == before + 1
    assert service.load(game_id) == refold(store.load(game_id))


def test_a_refused_command_appends_nothing(service, store):
    game_id, _ = new_game(service)
    before = version_of(store, game_id)

    with pytest.raises(RuleViolation):  # seat 1 deals first
        service.execute(Deal(game_id=game_id, caller=seat(0)))
    assert version_of(store, game_id) == before


def test_a_retry_under_the_same_key_gets_the_first_answer_and_appends_nothing(service, store):
    game_id, _ = new_game(service)
    first = seed(service, game_id, "abc", key="k")
    version = version_of(store, game_id)

    assert seed(service, game_id, "abc", key="k") == first
    assert version_of(store, game_id) == version
    with pytest.raises(KeyReused):
        seed(service, game_id, "other", key="k")
    assert version_of(store, game_id) == version


def test_a_key_is_the_callers_own(service, store):
    game_id, _ = new_game(service)
    seed(service, game_id, "abc", by=0, key="k")
    second = seed(service, game_id, "xyz", by=1, key="k")

    assert second.state.version == version_of(store, game_id)


def test_if_match_on_an_older_version_is_refused_with_the_current_one(service, store):
    game_id, _ = new_game(service)
    version = version_of(store, game_id)
    seed(service, game_id, "abc", if_match=version)

    with pytest.raises(PreconditionFailed) as refused:
        seed(service, game_id, "xyz", if_match=version)
    assert refused.value.current == version + 1
    assert version_of(store, game_id) == version + 1


def test_a_cache_left_behind_by_another_worker_is_caught_up_and_the_command_decided_again(service, store):
    game_id, _ = new_game(service)
    service.load(game_id)  # cached here
    other = GameService(store, StateCache())
    seed(other, game_id, "from the other worker", by=1)

    applied = seed(service, game_id, "abc")

    assert applied.state.version == version_of(store, game_id)
    assert [e.type for e in store.load(game_id)][-2:] == ["ClientSeedSet", "ClientSeedSet"]
    assert service.load(game_id) == refold(store.load(game_id))


class LosingStore(MemoryEventStore):
    """Loses every append of a command to an unseen rival: the game never moves on."""

    def _write(self, append):
        if append.append.expected_version > 0:
            raise ConcurrencyError(append.append.game_id, append.append.expected_version)
        return super()._write(append)


def test_an_append_lost_without_the_game_moving_on_is_a_version_conflict():
    store = LosingStore()
    service = GameService(store, StateCache())
    game_id, _ = new_game(service)
    version = version_of(store, game_id)

    with pytest.raises(VersionConflict):
        seed(service, game_id, "abc")
    with pytest.raises(PreconditionFailed):
        seed(service, game_id, "abc", if_match=version_of(store, game_id))
    assert version_of(store, game_id) == version

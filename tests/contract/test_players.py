"""The players' contract, kept by both wirings (see conftest's ``contract``):
players kept under their tokens' hashes, and found by them."""

from __future__ import annotations

import uuid

from service.auth import hash_token, new_player_token
from service.players import Player


def test_a_player_is_kept_under_its_token_hash_and_found_by_it(contract):
    player, token = Player(uuid.uuid4(), "Ann"), new_player_token()

    assert contract.players.add(player, hash_token(token)) == (player, hash_token(token))

    assert contract.players.player_for_token(hash_token(token)) == player.id
    assert contract.players.token_hash_of(player.id) == hash_token(token)
    assert contract.players.find(player.id) == player
    assert contract.players.player_for_token(hash_token(new_player_token())) is None
    assert contract.players.find(uuid.uuid4()) is None
    assert contract.players.token_hash_of(uuid.uuid4()) is None


def test_adding_a_player_whose_id_is_kept_changes_nothing_and_answers_the_one_kept(contract):
    first = Player(uuid.uuid4(), "Ann")
    contract.players.add(first, "a" * 64)

    assert contract.players.add(Player(first.id, "Bob"), "b" * 64) == (first, "a" * 64)

    assert contract.players.player_for_token("b" * 64) is None
    assert contract.players.find(first.id) == first


def test_a_player_without_seats_holds_none_and_lists_no_games(contract):
    player = Player(uuid.uuid4(), "Ann")
    contract.players.add(player, hash_token(new_player_token()))

    assert contract.players.seat_of(player.id, uuid.uuid4()) is None
    assert contract.read_model.player_games(player.id, (), None, 10) == ([], None)

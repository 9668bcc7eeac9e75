"""The players' contract, kept by both wirings (see conftest's ``contract``):
players kept under their tokens' hashes, and found by them."""

from __future__ import annotations

import secrets
import uuid
from datetime import UTC, datetime, timedelta

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


def hashes() -> dict[str, str]:
    """Hashes of tokens and codes of a test's own (the database is shared), by name."""
    return {name: secrets.token_hex(32) for name in "abcd123"}


def test_a_replaced_token_finds_the_player_no_more_and_ends_the_transfer_code(contract):
    player, h = Player(uuid.uuid4(), "Ann"), hashes()
    contract.players.add(player, h["a"])
    contract.players.add_transfer(player.id, h["c"], timedelta(minutes=10))

    contract.players.replace_token(player.id, h["b"])

    assert contract.players.player_for_token(h["a"]) is None
    assert contract.players.player_for_token(h["b"]) == player.id
    assert contract.players.token_hash_of(player.id) == h["b"]
    assert contract.players.claim(h["c"], h["d"]) is None


def test_a_transfer_code_is_claimed_once_before_it_expires_and_a_new_one_replaces_it(contract):
    player, h = Player(uuid.uuid4(), "Ann"), hashes()
    contract.players.add(player, h["a"])
    expires = contract.players.add_transfer(player.id, h["1"], timedelta(minutes=10))
    assert timedelta(minutes=9) < expires - datetime.now(UTC) <= timedelta(minutes=10, seconds=5)
    contract.players.add_transfer(player.id, h["2"], timedelta(minutes=10))  # the first is forgotten

    assert contract.players.claim(h["1"], h["b"]) is None
    assert contract.players.claim(h["2"], h["b"]) == player
    assert contract.players.claim(h["2"], h["c"]) is None  # spent
    assert contract.players.player_for_token(h["b"]) == player.id
    assert contract.players.player_for_token(h["a"]) is None
    contract.players.add_transfer(player.id, h["3"], timedelta(seconds=-1))
    assert contract.players.claim(h["3"], h["c"]) is None  # expired

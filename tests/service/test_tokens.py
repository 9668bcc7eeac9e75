from __future__ import annotations

import hashlib
import stat
from uuid import uuid4

from service.auth import OPERATOR_TOKEN_FILE, hash_token, new_token, operator_token, seat_key_from, seat_token


def test_tokens_are_long_random_and_stored_as_sha256_hex():
    token = new_token()
    assert len(token) >= 43 and token != new_token()
    assert hash_token(token) == hashlib.sha256(token.encode()).hexdigest()


def test_the_operator_token_is_made_once_and_kept_private(tmp_path):
    directory = tmp_path / "data"

    token, created = operator_token(directory)
    again, created_again = operator_token(directory)

    assert created and not created_again
    assert again == token
    path = directory / OPERATOR_TOKEN_FILE
    assert path.read_text().strip() == token
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert [p.name for p in directory.iterdir()] == [OPERATOR_TOKEN_FILE]


def test_a_seat_token_is_made_again_from_the_same_key_game_and_seat_and_from_nothing_less():
    secret, game = seat_key_from("operator"), uuid4()
    token = seat_token(secret, "k" * 22, game, 0)
    assert token == seat_token(secret, "k" * 22, game, 0) and len(token) == len(new_token())
    others = {seat_token(secret, "k" * 22, game, 1), seat_token(secret, "j" * 22, game, 0),
              seat_token(secret, "k" * 22, uuid4(), 0), seat_token(seat_key_from("other"), "k" * 22, game, 0)}
    assert token not in others and len(others) == 4

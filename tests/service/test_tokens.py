from __future__ import annotations

import hashlib
import stat

from service.tokens import OPERATOR_TOKEN_FILE, hash_token, new_token, operator_token


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

"""GET /v1/games/{id}/verify: the hash chain and the read model, checked
after someone with the tables' owner's rights has been at them."""

import psycopg
import pytest

from .conftest import ORDERED_DECK


@pytest.fixture
def game(api):
    """A game created, dealt, and six plays on: some ten events long."""
    game = api.create(first_dealer=1)
    api.deal(game, ORDERED_DECK)
    api.play(game, steps=6)
    return game


@pytest.fixture
def last(api, game) -> int:
    """The game's last version; the tests tamper with the events before it."""
    return api.view(game)["version"]


def report(api, game, operator) -> dict:
    response = api.get(f"{game.url}/verify", token=operator)
    assert response.status_code == 200
    return response.get_json()


def check(body: dict, name: str) -> dict:
    [found] = [c for c in body["checks"] if c["name"] == name]
    return found


def test_an_untouched_game_is_sound(api, operator, game, last):
    body = report(api, game, operator)
    assert body["ok"] is True and body["version"] == last
    assert [c["name"] for c in body["checks"]] == ["hash_chain", "order", "checkpoint", "projection", "shuffles"]
    assert all(c["ok"] and c["first_bad_version"] is None for c in body["checks"])
    assert body["head"] == api.events(game, operator)[-1]["hash"]


def test_an_event_edited_behind_the_services_back_is_named(api, operator, game, last, tamper):
    tamper("UPDATE events SET data = data || '{\"forged\": true}' WHERE game_id = %s AND version = %s",
           (game.id, last - 3))

    body = report(api, game, operator)

    assert body["ok"] is False
    assert check(body, "hash_chain")["first_bad_version"] == last - 3
    assert "does not match its hash" in check(body, "hash_chain")["detail"]


def test_a_deleted_event_is_named(api, operator, game, last, tamper):
    tamper("DELETE FROM events WHERE game_id = %s AND version = %s", (game.id, last - 4))

    chain = check(report(api, game, operator), "hash_chain")

    assert chain["ok"] is False and chain["first_bad_version"] == last - 4
    assert "missing" in chain["detail"]


def test_reordered_events_are_caught(api, operator, game, last, tamper):
    """The last two plays swap contents, hashes and all. Folding trusts
    events and ends in the same state: only the chain can tell."""
    tamper("UPDATE events e SET type = o.type, schema_version = o.schema_version, data = o.data,"
           " metadata = o.metadata, hash = o.hash FROM events o"
           " WHERE e.game_id = %(game)s AND o.game_id = %(game)s AND e.version IN (%(v)s, %(v)s + 1)"
           " AND o.version = 2 * %(v)s + 1 - e.version", {"game": game.id, "v": last - 1})

    body = report(api, game, operator)

    assert body["ok"] is False
    assert check(body, "hash_chain")["first_bad_version"] == last - 1
    assert check(body, "projection")["ok"] is True


def test_a_dropped_last_event_leaves_a_whole_chain_but_not_the_read_model(api, operator, game, last, tamper):
    tamper("DELETE FROM events WHERE game_id = %s AND version = %s", (game.id, last))

    body = report(api, game, operator)

    assert check(body, "hash_chain")["ok"] is True and body["version"] == last - 1
    projection = check(body, "projection")
    assert projection["ok"] is False
    assert {"field": "version", "stored": last, "expected": last - 1} in projection["differences"]


def test_a_changed_read_model_row_is_reported_column_by_column(api, operator, game, database_url):
    with psycopg.connect(database_url, autocommit=True) as conn:
        conn.execute("UPDATE games SET status = 'finished', player_names = '{Eve,Bob}' WHERE id = %s",
                     (game.id,))

    projection = check(report(api, game, operator), "projection")

    assert projection["ok"] is False
    assert {(d["field"], str(d["stored"]), str(d["expected"])) for d in projection["differences"]} == {
        ("status", "finished", "in_progress"), ("player_names", "['Eve', 'Bob']", "['P0', 'P1']")}


def test_only_the_operator_may_verify(api, game):
    assert api.get(f"{game.url}/verify").status_code == 401
    assert api.get(f"{game.url}/verify", token=game.tokens[0]).status_code == 403


def test_verifying_an_unknown_game_is_404(api, operator):
    response = api.get("/v1/games/00000000-0000-0000-0000-000000000001/verify", token=operator)
    assert response.status_code == 404 and response.get_json()["code"] == "not_found"


def test_a_deck_that_is_not_the_one_its_seed_gives_is_caught(api, operator, tamper):
    game = api.create(first_dealer=1)
    api.post(f"{game.url}/deal", json={}, token=game.tokens[1])  # dealt from the committed seed
    assert check(report(api, game, operator), "shuffles")["ok"] is True
    tamper("UPDATE events SET data = jsonb_set(data, '{deck,0}', data->'deck'->51)"
           " WHERE game_id = %s AND type = 'HandDealt'", (game.id,))
    found = check(report(api, game, operator), "shuffles")
    assert found["ok"] is False and "not the one its seed gives" in found["detail"]

"""Bad input gets a clear problem and changes nothing."""

import pytest

from .conftest import ORDERED_DECK


@pytest.fixture
def dealt(api):
    game = api.create(first_dealer=1)
    api.deal(game, ORDERED_DECK)  # seat 0 holds AS 2S 7S 8S; the table 3S 4S 9S 10S
    return game


def unchanged(api, game, operator):
    return len(api.events(game, operator))


def problem(response, status, code):
    assert response.status_code == status, response.get_json()
    assert response.mimetype == "application/problem+json"
    body = response.get_json()
    assert body["code"] == code and body["status"] == status
    assert body["detail"] and body["title"] and body["type"]
    return body


@pytest.mark.parametrize("raw,ctype", [
    (b"{not json", "application/json"),
    (b"[1, 2]", "application/json"),
    (b'"trail"', "application/json"),
    (b"card=AS", "application/x-www-form-urlencoded"),
])
def test_a_body_that_is_not_a_json_object_is_malformed(api, operator, dealt, raw, ctype):
    before = unchanged(api, dealt, operator)
    response = api.post(f"{dealt.url}/play", data=raw, headers={"Content-Type": ctype}, token=dealt.tokens[0])
    problem(response, 400, "malformed")
    assert unchanged(api, dealt, operator) == before


@pytest.mark.parametrize("body,field", [
    ({"card": "AS", "action": "trail", "bogus": 1}, "bogus"),
    ({"card": "ZZ", "action": "trail"}, "card"),
    ({"card": 7, "action": "trail"}, "card"),
    ({"action": "trail"}, "card"),
    ({"card": "AS", "action": "jump"}, "action"),
    ({"card": "AS", "action": "build", "value": "nine", "targets": ["3S"]}, "value"),
    ({"card": "AS", "action": "capture", "targets": "3S"}, "targets"),
    ({"card": "AS", "action": "capture", "targets": ["3S", "Q9"]}, "targets.1"),
])
def test_schema_errors_name_each_field(api, operator, dealt, body, field):
    before = unchanged(api, dealt, operator)
    answer = problem(api.post(f"{dealt.url}/play", json=body, token=dealt.tokens[0]), 400, "malformed")
    assert field in [e["field"] for e in answer["errors"]]
    assert unchanged(api, dealt, operator) == before


def test_a_whole_number_written_with_a_fraction_is_an_integer_as_json_schema_counts_it(api, operator, dealt):
    build = {"card": "AS", "action": "build", "targets": ["3S"]}
    refusals = [api.post(f"{dealt.url}/play", json={**build, "value": value}, token=dealt.tokens[0]).get_json()
                for value in (9, 9.0, 9e0)]
    assert refusals[0]["code"] == "rule_violation" and refusals[1:] == [refusals[0]] * 2
    problem(api.post(f"{dealt.url}/play", json={**build, "value": 9.5}, token=dealt.tokens[0]), 400, "malformed")
    legal = api.get(f"{dealt.url}/moves", token=dealt.tokens[0]).get_json()["moves"][0]
    floated = {k: float(v) if isinstance(v, int) else v for k, v in legal.items()}
    assert api.post(f"{dealt.url}/play", json=floated, token=dealt.tokens[0]).status_code == 200


def test_a_huge_body_is_refused_before_it_is_read(api, operator, dealt):
    before = unchanged(api, dealt, operator)
    response = api.post(f"{dealt.url}/play", data=b"{" + b" " * 200_000 + b"}",
                        headers={"Content-Type": "application/json"}, token=dealt.tokens[0])
    problem(response, 413, "payload_too_large")
    assert unchanged(api, dealt, operator) == before


def test_a_move_against_the_rules_names_the_rule(api, operator, dealt):
    before = unchanged(api, dealt, operator)
    answer = problem(api.post(f"{dealt.url}/play", json={"card": "AS", "action": "capture", "targets": ["9S"]},
                              token=dealt.tokens[0]), 422, "rule_violation")
    assert answer["rule"] == "illegal_capture"
    assert unchanged(api, dealt, operator) == before


def test_another_seats_token_cannot_play_out_of_turn(api, operator, dealt):
    before = unchanged(api, dealt, operator)
    answer = problem(api.post(f"{dealt.url}/play", json={"card": "5S", "action": "trail"},
                              token=dealt.tokens[1]), 422, "rule_violation")
    assert answer["rule"] == "not_your_turn"
    answer = problem(api.post(f"{dealt.url}/play", json={"card": "5S", "action": "trail"},
                              token=dealt.tokens[0]), 422, "rule_violation")
    assert answer["rule"] == "card_not_in_hand"
    assert unchanged(api, dealt, operator) == before


@pytest.mark.parametrize("header", ["Bearer nope", "Basic abc", "Bearer", "token"])
def test_a_wrong_token_is_401(api, dealt, header):
    response = api.post(f"{dealt.url}/play", json={"card": "AS", "action": "trail"},
                        headers={"Authorization": header})
    problem(response, 401, "unauthenticated")
    assert "WWW-Authenticate" in response.headers


def test_the_public_cannot_play_and_the_operator_cannot_play_for_a_seat(api, operator, dealt):
    problem(api.post(f"{dealt.url}/play", json={"card": "AS", "action": "trail"}), 401, "unauthenticated")
    problem(api.post(f"{dealt.url}/play", json={"card": "AS", "action": "trail"}, token=operator), 403, "forbidden")


def test_a_valid_token_on_the_operators_routes_is_403_and_no_token_401(api, dealt):
    """A player's token is valid, so it is told it may not (403), not that its token is bad (401)."""
    ann = api.post("/v1/players", json={"name": "Ann"}).get_json()["token"]
    finished_only = f"{dealt.url}/replay?version=1"  # before the end, only the operator may replay
    for path in ("/v1/games", "/v1/events", f"{dealt.url}/verify", finished_only):
        assert "operator" in problem(api.get(path, token=ann), 403, "forbidden")["detail"]
        problem(api.get(path), 401, "unauthenticated")
    problem(api.post(f"{dealt.url}/void", json={"reason": "misdeal"}, token=ann), 403, "forbidden")


def test_only_the_operator_fixes_the_deck_and_only_the_dealer_deals(api):
    game = api.create(first_dealer=1)
    problem(api.deal(game, ORDERED_DECK, token=game.tokens[1]), 403, "forbidden")
    assert problem(api.deal(game, token=game.tokens[0]), 422, "rule_violation")["rule"] == "not_dealer"
    assert api.deal(game, token=game.tokens[1]).status_code == 200


def test_a_stale_if_match_is_412_and_a_current_one_passes(api, operator, dealt):
    move = {"card": "AS", "action": "trail"}
    now = api.view(dealt)["version"]
    stale = api.post(f"{dealt.url}/play", json=move, token=dealt.tokens[0], headers={"If-Match": f'"{now - 1}"'})
    body = problem(stale, 412, "precondition_failed")
    assert body["version"] == now and stale.headers["ETag"] == f'"{now}"'
    ok = api.post(f"{dealt.url}/play", json=move, token=dealt.tokens[0], headers={"If-Match": f'"{now}"'})
    assert ok.status_code == 200 and ok.get_json()["version"] == now + 1


def test_options_are_checked_at_creation_naming_the_option(api):
    response = api.post("/v1/games", json={"seats": 2, "options": {"sweeps": 7}})
    body = problem(response, 400, "malformed")
    assert body["errors"][0]["field"] == "options.sweeps"
    body = problem(api.post("/v1/games", json={"seats": 2, "options": {"nonsense": True}}), 400, "malformed")
    assert "nonsense" in body["detail"]
    # Parts the spec allows, which the rules cannot make a game of: refused for what they ask.
    problem(api.post("/v1/games", json={"seats": 2, "variant": "partnership"}), 422, "invalid_options")
    body = problem(api.post("/v1/games", json={"seats": 2, "first_dealer": 5}), 422, "invalid_options")
    assert body["errors"][0]["field"] == "first_dealer"
    body = problem(api.post("/v1/games", json={"seats": 2, "options": {"deals_each": 1}}), 422, "invalid_options")
    assert body["errors"][0]["field"] == "options.deals_each"


def test_unknown_paths_and_methods_are_problems(api):
    problem(api.get("/v1/nothing"), 404, "not_found")
    problem(api.request("DELETE", "/v1/games"), 405, "method_not_allowed")

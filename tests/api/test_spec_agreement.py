"""What the spec allows, the service accepts, and what it refuses, the
service refuses: the places where the two used to disagree."""

import json

import pytest

from .conftest import ORDERED_DECK
from .test_errors import problem


@pytest.fixture
def dealt(api):
    game = api.create(first_dealer=1)
    api.deal(game, ORDERED_DECK)
    return game


@pytest.mark.parametrize("form", ['"{}"', 'W/"{}"', "{}", " {} ", "*"])
def test_every_if_match_form_the_spec_allows_is_read(api, dealt, form):
    version = api.view(dealt)["version"]
    response = api.post(f"{dealt.url}/play", json={"card": "AS", "action": "trail"}, token=dealt.tokens[0],
                        headers={"If-Match": form.format(version)})
    assert response.status_code == 200, response.get_json()


def test_moves_without_a_token_is_401_like_everything_else(api, dealt, operator):
    response = api.get(f"{dealt.url}/moves")
    problem(response, 401, "unauthenticated")
    assert response.headers["WWW-Authenticate"].startswith("Bearer")
    problem(api.get(f"{dealt.url}/moves", token=operator), 403, "forbidden")


@pytest.mark.parametrize("scheme", ["bearer", "BEARER", "Bearer"])
def test_the_authorization_scheme_is_read_in_any_case(client, dealt, scheme):
    response = client.get(f"{dealt.url}/moves", headers={"Authorization": f"{scheme} {dealt.tokens[0]}"})
    assert response.status_code == 200


def test_a_cursor_of_the_documented_form_is_a_place_in_the_listing(api, operator):
    api.create()
    api.create()  # a page of one has a next page
    assert api.get("/v1/games?cursor=" + "9" * 16 + "." + "f" * 32, token=operator).status_code == 200
    page = api.get("/v1/games?limit=1", token=operator).get_json()
    following = api.get(f"/v1/games?limit=1&cursor={page['next']}", token=operator).get_json()
    assert following["games"] and following["games"][0]["id"] != page["games"][0]["id"]
    for bad in ("", "abc", "12.xyz"):
        problem(api.get(f"/v1/games?cursor={bad}", token=operator), 400, "malformed")


def test_a_build_value_past_64_bits_is_malformed_and_within_them_a_rule_question(api, dealt):
    move = {"card": "AS", "action": "build", "targets": ["3S"]}
    too_big = api.post(f"{dealt.url}/play", data=json.dumps({**move, "value": 2**64}), token=dealt.tokens[0],
                       headers={"Content-Type": "application/json"})
    problem(too_big, 400, "malformed")
    within = api.post(f"{dealt.url}/play", json={**move, "value": 2**64 - 1}, token=dealt.tokens[0])
    problem(within, 422, "rule_violation")


@pytest.mark.parametrize("query,name", [
    ("after=0&after=3", "after"),
    ("limit=5&limit=1", "limit"),
])
def test_a_query_parameter_given_twice_is_refused_naming_it(api, dealt, operator, query, name):
    answer = problem(api.get(f"{dealt.url}/events?{query}", token=operator), 400, "malformed")
    assert answer["errors"] == [{"field": name, "message": "Given more than once."}]


@pytest.mark.parametrize("method", ["TRACE", "DELETE"])
def test_a_method_the_route_lacks_is_405_whatever_its_query(api, dealt, method):
    # found by the fuzzer: a parameter given twice was answered 400 before the method was looked at
    answer = api.client.open(f"{dealt.url}/moves?card=AS&card=2S&limit=1&limit=2", method=method)
    problem(answer, 405, "method_not_allowed")


def test_the_listing_reads_every_value_of_its_repeatable_filters(api, operator):
    response = api.get("/v1/games?status=waiting&status=finished&limit=1", token=operator)
    assert response.status_code == 200
    problem(api.get("/v1/games?limit=1&limit=2", token=operator), 400, "malformed")


def test_after_is_checked_when_last_event_id_is_sent(api, dealt):
    response = api.get(f"{dealt.url}/events/stream?after=1000000001", token=dealt.tokens[0],
                       headers={"Last-Event-ID": "0"})
    answer = problem(response, 400, "malformed")
    assert answer["errors"][0]["field"] == "after"


@pytest.mark.parametrize("path", ["/docs/swagger-ui.css", "/play/", "/play/style.css"])
def test_a_range_of_a_served_file_is_a_documented_answer(api, path):
    past_the_end = api.get(path, headers={"Range": "bytes=100000000-"})
    problem(past_the_end, 416, "range_not_satisfiable")
    assert past_the_end.headers["Content-Range"].startswith("bytes */")
    part = api.get(path, headers={"Range": "bytes=0-9"})
    assert part.status_code == 206 and len(part.get_data()) == 10

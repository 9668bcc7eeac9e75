"""Schemathesis against the live app: generated requests from openapi.yaml,
valid and invalid, with every kind of caller. No answer may be a server
error, and every answer must conform to the spec.

Bounded by default; ``CASINO_LONG_TESTS=1`` runs many more examples.
"""

import itertools
import os

import pytest
import schemathesis
from hypothesis import HealthCheck, settings
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import (content_type_conformance, response_headers_conformance,
                                               response_schema_conformance, status_code_conformance)

from service.app import create_app
from service.database import close_pool
from tests.conftest import TEST_SETTINGS
from tests.service.spec_check import SPEC_PATH

from .conftest import ORDERED_DECK

EXAMPLES = 300 if os.environ.get("CASINO_LONG_TESTS") else 20
CHECKS = [not_a_server_error, status_code_conformance, content_type_conformance,
          response_schema_conformance, response_headers_conformance]


@pytest.fixture
def app(own_database_url):
    """The app over a database of its own: the fuzzer reads every game and
    the whole global log, which other tests fill with made-up events."""
    app = create_app({**TEST_SETTINGS, "DATABASE_URL": own_database_url})
    yield app
    close_pool(app)


@pytest.fixture
def fuzz_game(api):
    game = api.create(first_dealer=1)
    api.deal(game, ORDERED_DECK)
    return game


schema = schemathesis.openapi.from_path(SPEC_PATH)
_turns = itertools.count()


@schema.parametrize()
@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=list(HealthCheck))
def test_no_server_errors_and_every_answer_conforms(case, app, fuzz_game, operator):
    case.operation.schema.app = app  # call the app in-process, through WSGI
    turn = next(_turns)
    if case.path_parameters and "game_id" in case.path_parameters and turn % 3:
        case.path_parameters["game_id"] = fuzz_game.id  # a real game most of the time
    tokens = [None, operator, *fuzz_game.tokens]
    token = tokens[turn % len(tokens)]
    headers = dict(case.headers or {})
    if token is not None and "Authorization" not in headers:
        headers["Authorization"] = f"Bearer {token}"
    case.headers = headers
    response = case.call(app=app)
    case.validate_response(response, checks=CHECKS)

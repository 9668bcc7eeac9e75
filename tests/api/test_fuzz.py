"""Schemathesis against the live app: generated requests from openapi.yaml,
valid and invalid, with every kind of caller, and every check schemathesis
has (``--checks all``). No answer may be a server error, every answer must
conform to the spec, and a request that fits the spec is refused only as
``schemathesis.toml`` declares (for what the game is in, or who asks), the
settings ``st run`` reads too.

Bounded by default; ``CASINO_LONG_TESTS=1`` runs many more examples.
"""

import itertools
from pathlib import Path

import pytest
import schemathesis
from hypothesis import HealthCheck, settings
from schemathesis.checks import CHECKS, load_all_checks
from schemathesis.config import SchemathesisConfig
from schemathesis.core.parameters import ParameterLocation

from service.web.app import close_app, create_app
from tests.conftest import TEST_SETTINGS
from tests.service.spec_check import SPEC_PATH

from .conftest import ORDERED_DECK
from tests.scale import scaled

EXAMPLES = scaled(20, long=300, quick=5)
load_all_checks()
#: Every check schemathesis has (``--checks all``).
ALL_CHECKS = CHECKS.get_all()
SETTINGS = Path(__file__).resolve().parents[2] / "schemathesis.toml"


@pytest.fixture
def app(own_database_url):
    """The app over a database of its own: the fuzzer reads every game and
    the whole global log, which other tests fill with made-up events."""
    app = create_app({**TEST_SETTINGS, "DATABASE_URL": own_database_url})
    yield app
    close_app(app)


@pytest.fixture
def fuzz_games(api):
    """A dealt game of each game type: Cassino, and Mass Cool Casino."""
    cassino = api.create(first_dealer=1)
    api.deal(cassino, ORDERED_DECK)
    mass_cool = api.create(players=3, variant="mass-cool-casino", first_dealer=0)
    api.deal(mass_cool, ORDERED_DECK)
    return cassino, mass_cool


@pytest.fixture
def fuzz_player(api):
    """A player's token, the player seated in a game that waits for a player more (listed in the lobby)."""
    ann = api.post("/v1/players", json={"name": "Ann"}).get_json()
    game = api.post("/v1/games", json={"seats": [{"name": "Host"}, {"open": True}, {"open": True}]}).get_json()
    assert api.post(f"/v1/games/{game['id']}/join", token=ann["token"]).status_code == 200
    return ann["token"]


# The web client's pages are files served as they are (tests/web checks
# them); a redirect from /play to /play/ is no refusal.
schema = schemathesis.openapi.from_path(SPEC_PATH, config=SchemathesisConfig.from_path(SETTINGS)).exclude(tag="web")
_turns = itertools.count()


@schema.parametrize()
@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=list(HealthCheck))
def test_no_server_errors_and_every_answer_conforms(case, app, fuzz_games, fuzz_player, operator):
    case.operation.schema.app = app  # call the app in-process, through WSGI
    turn = next(_turns)
    game = fuzz_games[turn % 2]
    # A real game most of the time, unless the path was made wrong on purpose.
    wrong_path = case.meta is not None and case.meta.is_negative_at(ParameterLocation.PATH)
    if case.path_parameters and "game_id" in case.path_parameters and turn % 3 and not wrong_path:
        case.path_parameters["game_id"] = game.id
    tokens = [None, operator, fuzz_player, *game.tokens]
    token = tokens[turn // 2 % len(tokens)]
    # A real token is the test's own, not generated: passed as such, the
    # authentication checks probe without it and with a wrong one.
    # A case whose headers were made wrong on purpose (auth left out among
    # them) goes as generated.
    own_headers = case.meta is not None and case.meta.is_negative_at(ParameterLocation.HEADER)
    headers = ({"Authorization": f"Bearer {token}"}
               if token and not own_headers and "Authorization" not in (case.headers or {}) else None)
    response = case.call(app=app, headers=headers)
    case.validate_response(response, checks=ALL_CHECKS, headers=headers,
                           transport_kwargs={"app": app, "headers": headers})


def test_a_valid_request_may_be_refused_only_as_the_spec_declares():
    """No schema-valid request is malformed: 412 and 422 are the refusals the settings must accept."""
    accepted = schema.config.checks.positive_data_acceptance.expected_statuses
    assert "400" not in accepted and {"412", "422"} <= set(accepted)

"""The spec check that every API test's answers go through refuses what
openapi.yaml does not allow; were it to accept anything, every test that
relies on it would hold the spec to nothing."""

import pytest

from tests.service.spec_check import _validate

MOVE = {"$ref": "#/components/schemas/Move"}
EVENT = {"$ref": "#/components/schemas/Event"}
TRAILED = {"version": 4, "type": "CardTrailed", "schema_version": 1, "data": {"seat": 0, "card": "5C"},
           "recorded_at": "2026-11-24T10:00:00+00:00"}


@pytest.mark.parametrize("schema,value", [
    (MOVE, {"card": "5C", "action": "trail"}),
    (MOVE, {"action": "bet", "cards": ["KS", "7H"]}),
    (EVENT, TRAILED),
])
def test_what_the_spec_allows_passes(schema, value):
    _validate("allowed", schema, value)


@pytest.mark.parametrize("schema,value", [
    (MOVE, {"card": "5C", "action": "trail", "targets": []}),  # a field the branch does not have
    (MOVE, {"card": "5C", "action": "fly"}),  # no branch of that name
    (MOVE, {"action": "bet", "cards": "KS"}),  # the branch's field of the wrong type
    (EVENT, {**TRAILED, "type": "CardsCaptured"}),  # another type's data
    (EVENT, {**TRAILED, "data": {"seat": 0}}),  # a required field missing
])
def test_what_the_spec_does_not_allow_is_refused(schema, value):
    with pytest.raises(AssertionError):
        _validate("refused", schema, value)

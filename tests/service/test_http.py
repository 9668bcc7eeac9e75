"""The app's infrastructure over HTTP: probes, metrics, problems, request ids, logs."""

from __future__ import annotations

import json
import logging

import pytest
from flask import g, request

from service import metrics
from service.web.app import close_app, create_app
from service.ops.logs import JsonFormatter
from service.web.problems import ApiProblem

PROBLEM = "application/problem+json"


def assert_problem(response, status: int, code: str) -> dict:
    assert response.status_code == status
    assert response.mimetype == PROBLEM
    body = response.get_json(force=True)
    assert body["status"] == status and body["code"] == code
    assert body["type"].endswith(code) and body["title"] and body["detail"]
    return body


def test_healthz_answers(client):
    response = client.get("/healthz")
    assert response.status_code == 200 and response.get_json() == {"status": "ok"}


@pytest.mark.postgres
def test_readyz_answers_when_the_database_does(client):
    response = client.get("/readyz")
    assert response.status_code == 200 and response.get_json() == {"status": "ready"}


def test_readyz_answers_503_when_the_database_is_unreachable():
    app = create_app(
        {
            "DATABASE_URL": "postgresql://casino@127.0.0.1:1/casino?connect_timeout=1",
            "READY_TIMEOUT": 0.3,
        }
    )
    try:
        body = assert_problem(app.test_client().get("/readyz"), 503, "unavailable")
    finally:
        close_app(app)
    assert "database" in body["detail"]


def test_metrics_count_requests_by_route_template(client):
    client.get("/healthz")
    metrics.COMMANDS_APPENDED.inc()

    text = client.get("/metrics").get_data(as_text=True)

    assert 'casino_http_requests_total{method="GET",route="/healthz",status="200"}' in text
    assert (
        'casino_http_request_duration_seconds_bucket{le="0.005",method="GET",route="/healthz"}'
        in text
    )
    assert "casino_commands_appended_total" in text
    assert "casino_version_conflicts_total" in text


def test_an_unknown_route_is_a_404_problem_counted_as_unmatched(client):
    assert_problem(client.get("/no/such/thing"), 404, "not_found")
    text = client.get("/metrics").get_data(as_text=True)
    assert 'route="<unmatched>",status="404"' in text


def test_methods_outside_http_are_counted_as_one_series(client):
    for method in ("BREW", "WHEN"):
        client.open("/healthz", method=method)
    text = client.get("/metrics").get_data(as_text=True)
    assert 'method="OTHER",route="<unmatched>",status="405"' in text
    assert "BREW" not in text and "WHEN" not in text


def test_a_wrong_method_is_a_405_problem_that_names_the_allowed_ones(client):
    response = client.post("/healthz")
    assert_problem(response, 405, "method_not_allowed")
    assert "GET" in response.headers["Allow"]


@pytest.fixture
def echo_app(app):
    """The test app with a JSON echo endpoint and an endpoint that fails."""

    @app.post("/echo")
    def echo():
        return {"got": request.get_json()}

    @app.get("/rule")
    def rule():
        raise ApiProblem(422, "rule_violation", "You cannot trail now.", rule="must_act_on_build")

    @app.get("/boom")
    def boom():
        raise RuntimeError("bug")

    return app


def test_bad_json_is_a_400_malformed_problem(echo_app):
    response = echo_app.test_client().post(
        "/echo", data="{not json", content_type="application/json"
    )
    assert_problem(response, 400, "malformed")


def test_a_body_over_the_limit_is_a_413_problem(echo_app):
    response = echo_app.test_client().post(
        "/echo", data=json.dumps({"x": "y" * 70_000}), content_type="application/json"
    )
    assert_problem(response, 413, "payload_too_large")


def test_a_view_raises_api_problem_with_extension_members(echo_app):
    body = assert_problem(echo_app.test_client().get("/rule"), 422, "rule_violation")
    assert body["rule"] == "must_act_on_build"
    assert body["detail"] == "You cannot trail now."


def test_an_unexpected_error_is_a_500_problem_naming_the_request_id(echo_app):
    echo_app.config["PROPAGATE_EXCEPTIONS"] = False
    response = echo_app.test_client().get("/boom")
    body = assert_problem(response, 500, "internal_error")
    assert response.headers["X-Request-Id"] in body["detail"]
    assert "bug" not in body["detail"]


def test_a_sane_incoming_request_id_is_kept(app, client):
    seen = []

    @app.get("/whoami")
    def whoami():
        seen.append(g.request_id)
        return {}

    response = client.get("/whoami", headers={"X-Request-Id": "edge-7f3a.1"})

    assert response.headers["X-Request-Id"] == "edge-7f3a.1" == seen[0]


@pytest.mark.parametrize("incoming", [None, "", "has spaces", "x" * 200, "<script>", "caf\u00e9"])
def test_a_request_id_is_made_when_none_usable_is_sent(client, incoming):
    headers = {} if incoming is None else {"X-Request-Id": incoming}
    response = client.get("/healthz", headers=headers)
    made = response.headers["X-Request-Id"]
    assert made and made != incoming and len(made) <= 128


def test_each_request_logs_one_json_line(client, caplog):
    caplog.set_level(logging.INFO, logger="casino.access")

    client.get("/healthz", headers={"X-Request-Id": "req-42"})

    (record,) = [r for r in caplog.records if r.name == "casino.access"]
    line = json.loads(JsonFormatter().format(record))
    assert line["method"] == "GET" and line["path"] == "/healthz"
    assert line["route"] == "/healthz" and line["status"] == 200
    assert line["request_id"] == "req-42"
    assert isinstance(line["duration_ms"], float)


def test_the_app_refuses_multiprocess_metrics_set_up_too_late(monkeypatch, tmp_path):
    # prometheus_client is imported already, so it counts in-process only.
    monkeypatch.setenv("PROMETHEUS_MULTIPROC_DIR", str(tmp_path))
    with pytest.raises(RuntimeError, match="PROMETHEUS_MULTIPROC_DIR"):
        create_app({})  # refused before it opens anything

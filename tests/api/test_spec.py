"""openapi.yaml is a valid OpenAPI 3.1 document and describes every route."""

from openapi_spec_validator import validate

from tests.service.spec_check import openapi_path, spec


def test_the_spec_is_valid_openapi_3_1():
    validate(spec())
    assert spec()["openapi"].startswith("3.1")


def test_every_route_the_app_serves_is_in_the_spec(app):
    documented = spec()["paths"]
    for rule in app.url_map.iter_rules():
        if rule.endpoint == "static":
            continue
        path = openapi_path(rule.rule)
        assert path in documented, f"{rule.rule} is not in openapi.yaml"
        for method in rule.methods - {"HEAD", "OPTIONS"}:
            assert method.lower() in documented[path], f"{method} {path} is not in openapi.yaml"


def test_every_path_in_the_spec_is_served(app):
    served = {openapi_path(r.rule) for r in app.url_map.iter_rules()}
    assert set(spec()["paths"]) <= served


def test_the_spec_and_docs_are_served(api):
    assert api.get("/openapi.yaml").get_data(as_text=True).startswith("openapi: 3.1")
    page = api.get("/docs").get_data(as_text=True)
    assert "/openapi.yaml" in page
    asset = api.get("/docs/swagger-ui-bundle.js")
    assert asset.status_code == 200 and len(asset.get_data()) > 100_000

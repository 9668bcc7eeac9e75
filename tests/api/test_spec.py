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


def test_the_docs_load_nothing_from_elsewhere_and_are_never_framed(api):
    for path in ("/docs", "/docs/swagger-ui-bundle.js", "/docs/swagger-ui.css"):
        response = api.get(path)
        policy = response.headers["Content-Security-Policy"]
        assert policy.startswith("default-src 'self'") and "frame-ancestors 'none'" in policy, path
        assert "'unsafe-inline'" not in policy and "http" not in policy, path
        assert response.headers["X-Content-Type-Options"] == "nosniff", path


def test_every_answer_is_to_be_read_as_the_type_it_says(api, operator):
    game = api.create()
    answers = [api.get("/v1/variants"), api.get(game.url), api.get(f"{game.url}/moves", token=operator),
               api.get("/v1/games/not-a-game"), api.get("/metrics"), api.get("/openapi.yaml"),
               api.get(f"{game.url}/events/stream?timeout=0.01"), api.post(game.url)]
    assert {r.status_code for r in answers} >= {200, 403, 404, 405}
    for response in answers:
        assert response.headers["X-Content-Type-Options"] == "nosniff", response.status_code


def test_the_spec_is_also_served_as_json(api):
    response = api.get("/openapi.json")
    assert response.status_code == 200 and response.mimetype == "application/json"
    assert response.get_json() == spec()


def _inline_objects(node, where: str):
    """Places under ``node`` where an object schema is written out rather than named."""
    if isinstance(node, dict):
        if "$ref" not in node and ("properties" in node or "discriminator" in node):
            yield where
        for key, value in node.items():
            yield from _inline_objects(value, f"{where}/{key}")
    elif isinstance(node, list):
        for i, value in enumerate(node):
            yield from _inline_objects(value, f"{where}/{i}")


def test_every_body_and_answer_is_a_named_schema():
    """Generators name an inline object after where they found it
    (``CreateGameSeatsType1Item``): every one is in components/schemas."""
    assert list(_inline_objects(spec()["paths"], "paths")) == []
    for name, schema in spec()["components"]["schemas"].items():
        # An allOf part extending a named schema is merged into that name.
        parts = {k: v for k, v in schema.items() if k != "allOf"}
        nested = [p for v in parts.get("properties", {}).values() for p in _inline_objects(v, name)]
        nested += [p for key in ("oneOf", "anyOf", "items") for p in _inline_objects(parts.get(key), name)]
        assert nested == [], nested


def test_problem_codes_are_the_ones_the_service_sends():
    from service.web.problems import TITLES

    assert set(spec()["components"]["schemas"]["Problem"]["properties"]["code"]["enum"]) == set(TITLES)


#: Every key a schema object may hold (JSON Schema 2020-12 and OpenAPI's own); ``x-`` keys are extensions.
SCHEMA_KEYWORDS = frozenset("""
    $ref $id $schema $comment $defs $anchor $dynamicRef $dynamicAnchor $vocabulary
    type enum const title description default examples example deprecated readOnly writeOnly
    format pattern minLength maxLength minimum maximum exclusiveMinimum exclusiveMaximum multipleOf
    items prefixItems minItems maxItems uniqueItems contains minContains maxContains unevaluatedItems
    properties patternProperties additionalProperties propertyNames required minProperties maxProperties
    unevaluatedProperties dependentRequired dependentSchemas allOf anyOf oneOf not if then else
    discriminator xml externalDocs contentMediaType contentEncoding contentSchema""".split())

#: Keywords whose value is a schema, a map of names to schemas, or a list of schemas.
ONE_SCHEMA = ("items", "additionalProperties", "not", "if", "then", "else", "contains", "propertyNames",
              "unevaluatedItems", "unevaluatedProperties", "contentSchema")
NAMED_SCHEMAS = ("properties", "patternProperties", "$defs", "dependentSchemas")
LISTED_SCHEMAS = ("allOf", "anyOf", "oneOf", "prefixItems")


def _schemas_within(schema: dict, where: str):
    """``schema`` and every schema nested in it, each with where it is."""
    yield where, schema
    for key in ONE_SCHEMA:
        if isinstance(schema.get(key), dict):
            yield from _schemas_within(schema[key], f"{where}/{key}")
    for key in NAMED_SCHEMAS:
        for name, sub in schema.get(key, {}).items():
            yield from _schemas_within(sub, f"{where}/{key}/{name}")
    for key in LISTED_SCHEMAS:
        for i, sub in enumerate(schema.get(key, [])):
            yield from _schemas_within(sub, f"{where}/{key}/{i}")


def _schemas(node, where: str = "#"):
    """Every schema object of the spec: the components' and each ``schema`` of a parameter, header or body."""
    if isinstance(node, dict):
        for key, value in node.items():
            if (key == "schema" or where == "#/components/schemas") and isinstance(value, dict):
                yield from _schemas_within(value, f"{where}/{key}")
            else:
                yield from _schemas(value, f"{where}/{key}")
    elif isinstance(node, list):
        for i, value in enumerate(node):
            yield from _schemas(value, f"{where}/{i}")


def test_every_schema_key_is_a_keyword():
    """A description written unquoted in a one-line mapping is cut at its
    first ", " into a key of its own (``{description: Who deals next,
    between hands.}``): no schema holds a key that is not a keyword."""
    found = list(_schemas(spec()))
    assert len(found) > 1000
    strays = [f"{where}: {key!r}" for where, schema in found for key in schema
              if key not in SCHEMA_KEYWORDS and not key.startswith("x-")]
    assert strays == []


def test_every_operation_that_takes_a_query_declares_the_servers_414():
    """A long enough query meets the HTTP server's request-line limit before the app (uri_too_long)."""
    document = spec()
    shared = document["components"]["parameters"]

    def in_query(parameter: dict) -> bool:
        return (shared[parameter["$ref"].rsplit("/", 1)[1]] if "$ref" in parameter else parameter)["in"] == "query"

    queried = [(path, method) for path, item in document["paths"].items() for method, operation in item.items()
               if method != "parameters"
               and any(map(in_query, item.get("parameters", []) + operation.get("parameters", [])))]
    assert len(queried) >= 10
    assert [(path, method) for path, method in queried
            if "414" not in document["paths"][path][method]["responses"]] == []

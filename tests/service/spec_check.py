"""Checks HTTP responses against ``openapi.yaml``.

Every response an API test receives goes through :func:`check`: its status
must be documented for the operation, its JSON body must validate against
the documented schema, and documented headers must be there. The tests thus
hold the spec to what the service really does.
"""

from __future__ import annotations

import json
import re
from functools import cache
from pathlib import Path

import jsonschema_rs
import yaml

SPEC_PATH = Path(__file__).resolve().parents[2] / "openapi.yaml"


@cache
def spec() -> dict:
    return yaml.safe_load(SPEC_PATH.read_text())


@cache
def _components() -> dict:
    return _picked_by_discriminators(spec()["components"])


def _picked_by_discriminators(node):
    """The spec as it is validated here: a ``oneOf`` with a discriminator
    becomes the plain JSON Schema that says the same, without trying every
    branch: the discriminating property must be one of the mapping's values,
    and the value names the one branch to check. Each branch fixes the
    property to its own value (``tests/api/test_spec_games.py``), so no
    value can fit two branches and the answer is ``oneOf``'s."""
    if isinstance(node, list):
        return [_picked_by_discriminators(x) for x in node]
    if not isinstance(node, dict):
        return node
    picked = {key: _picked_by_discriminators(value) for key, value in node.items()
              if not (key in ("oneOf", "discriminator") and "discriminator" in node)}
    if "discriminator" in node:
        name, mapping = node["discriminator"]["propertyName"], node["discriminator"]["mapping"]
        picked["required"] = sorted({*picked.get("required", ()), name})
        picked["properties"] = {**picked.get("properties", {}), name: {"enum": sorted(mapping)}}
        picked["allOf"] = [*picked.get("allOf", ()), *(
            {"if": {"properties": {name: {"const": value}}}, "then": {"$ref": target}}
            for value, target in sorted(mapping.items()))]
    return picked


@cache
def _validator(schema_json: str):
    """A compiled validator for one schema of the spec (its refs resolved in the spec's components)."""
    schema = {**_picked_by_discriminators(json.loads(schema_json)), "components": _components()}
    return jsonschema_rs.Draft202012Validator(schema, validate_formats=False)


def openapi_path(flask_rule: str) -> str:
    """``/v1/games/<uuid:game_id>`` -> ``/v1/games/{game_id}``."""
    return re.sub(r"<(?:[^:<>]+:)?([^<>]+)>", r"{\1}", flask_rule)


def _resolve(node: dict) -> dict:
    while "$ref" in node:
        ref = node["$ref"]
        assert ref.startswith("#/"), ref
        node = spec()
        for part in ref[2:].split("/"):
            node = node[part]
    return node


def check(method: str, rule: str, status: int, headers, body: bytes) -> None:
    path = openapi_path(rule)
    paths = spec()["paths"]
    assert path in paths, f"{path} is served but not in openapi.yaml"
    operation = paths[path].get(method.lower())
    assert operation is not None, f"{method} {path} is not in openapi.yaml"
    responses = operation["responses"]
    documented = responses.get(str(status)) or responses.get("default")
    assert documented is not None, f"{method} {path} answered {status}, which openapi.yaml does not list"
    documented = _resolve(documented)
    for name, header in documented.get("headers", {}).items():
        if name in ("WWW-Authenticate", "Retry-After") or _resolve(header).get("required") is False:
            continue
        assert name in headers, f"{method} {path} {status} lacks header {name}"
    content = documented.get("content")
    if not content:
        return
    ctype = headers.get("Content-Type", "").split(";")[0].strip()
    assert ctype in content, f"{method} {path} {status} answered {ctype}, documented {list(content)}"
    schema = content[ctype].get("schema")
    if schema is None:
        return
    if ctype == "text/event-stream":
        for message in sse_messages(body.decode()):
            _validate(f"{method} {path} {status} message", schema, message)
            _validate(f"{method} {path} {status} message data",
                      _resolve(schema)["properties"]["data"]["contentSchema"], json.loads(message["data"]))
    elif ctype.endswith("json"):
        _validate(f"{method} {path} {status}", schema, json.loads(body))


def _validate(where: str, schema: dict, value) -> None:
    errors = list(_validator(json.dumps(schema, sort_keys=True)).iter_errors(value))
    assert not errors, f"{where}: " + "; ".join(
        f"{'/'.join(map(str, e.instance_path))}: {e.message}" for e in errors[:5])


def sse_messages(text: str) -> list[dict[str, str]]:
    """The messages of a Server-Sent Events stream, each as its fields;
    comment lines (``: ...``) are skipped, as EventSource skips them."""
    messages = []
    for block in text.split("\n\n"):
        fields: dict[str, str] = {}
        for line in block.splitlines():
            if line and not line.startswith(":"):
                name, _, value = line.partition(":")
                fields[name] = value.removeprefix(" ")
        if fields:
            messages.append(fields)
    return messages

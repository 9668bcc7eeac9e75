#!/usr/bin/env python3
"""Generate a Kotlin client for the casino API with openapi-generator.

Usage:
    python3 docs/kotlin_client.py OUTPUT_DIR [--spec openapi.yaml]
    make kotlin-client                      # the same, into build/kotlin-client

It needs PyYAML, Java 11 or later and ``openapi-generator-cli`` (the
PyPI package, pinned in pyproject.toml's test extra; ``make test`` or
``make kotlin-client`` installs it into .venv).

Why not the generator's defaults: the Kotlin generator makes a schema
whose ``oneOf`` has a discriminator (``Move``, ``TableItem``, ``Game``,
``GameSummary``, ``Event``) into an interface holding every variant's
fields at once, which the variants do not implement; and its default
serialization library (Moshi) registers no polymorphic adapter, so no
shape of the spec lets the default client decode a union. What the
generator does understand is inheritance: a base schema that holds the
discriminator, and variants that are ``allOf`` the base and their own
fields. With Jackson (``serializationLibrary=jackson``) it makes the base
an interface annotated with the discriminator's mapping
(``@JsonTypeInfo``, ``@JsonSubTypes``), and every variant a data class
that implements it.

So this script hands the generator openapi.yaml with each discriminated
union written in that form (``derive``) and nothing else changed: every
variant keeps its fields, their types, ``required`` and nullability, and
the discriminator's value picks the class. openapi.yaml itself stays as it
is: there a union is a ``oneOf`` that validates each answer exactly,
which other generators and the spec tests rely on.

Decode with the generated ``Serializer.jacksonObjectMapper`` (it needs
``com.fasterxml.jackson.module:jackson-module-kotlin`` and, for the
date-times, ``jackson-datatype-jsr310``), e.g.
``Serializer.jacksonObjectMapper.readValue(json, Game::class.java)``,
then ``when (game) { is CassinoGame -> ...; is MassCoolGame -> ... }``.
"""

from __future__ import annotations

import argparse
import copy
import json
import shutil
import subprocess
import sys
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[1]

#: The generator and what it is asked for: Kotlin models whose unions
#: Jackson decodes by their discriminator, and enum constants in capitals
#: (as written, the constant for `capture_by`'s value "value" would clash
#: with the property every generated enum has by that name).
GENERATOR = "kotlin"
PROPERTIES = {"serializationLibrary": "jackson", "enumPropertyNaming": "UPPERCASE"}


def _schema_name(ref: str) -> str:
    return ref.rsplit("/", 1)[-1]


def _without(schema: dict, field: str) -> dict:
    """``schema`` without the property ``field`` (the base declares it)."""
    schema = copy.deepcopy(schema)
    schema.get("properties", {}).pop(field, None)
    if field in schema.get("required", []):
        schema["required"] = [name for name in schema["required"] if name != field]
        if not schema["required"]:
            del schema["required"]
    return schema


def derive(spec: dict) -> dict:
    """``spec`` with each discriminated ``oneOf`` union made a base schema
    (the discriminator, its property and its mapping) and each variant
    ``allOf`` that base and the variant's own schema, less the discriminator
    property. Every other schema is left as it is."""
    spec = copy.deepcopy(spec)
    schemas = spec["components"]["schemas"]
    for name, union in list(schemas.items()):
        discriminator = union.get("discriminator")
        if discriminator is None:
            continue
        field = discriminator["propertyName"]
        base = {"type": "object", "required": [field], "properties": {field: {"type": "string"}},
                "discriminator": discriminator}
        if "description" in union:
            base["description"] = union["description"]
        schemas[name] = base
        for target in discriminator["mapping"].values():
            variant = schemas[_schema_name(target)]
            parts = variant.get("allOf", [variant])
            derived = {"allOf": [{"$ref": f"#/components/schemas/{name}"}] + [_without(p, field) for p in parts]}
            if "description" in variant:
                derived["description"] = variant["description"]
            schemas[_schema_name(target)] = derived
    return spec


def generator_command() -> list[str]:
    """openapi-generator-cli: the one beside this Python (a virtualenv's), else on PATH."""
    beside = Path(sys.executable).with_name("openapi-generator-cli")
    found = str(beside) if beside.exists() else shutil.which("openapi-generator-cli")
    if found is None:
        raise SystemExit("openapi-generator-cli not found: pip install openapi-generator-cli==7.26.0")
    return [found]


def generate(output: Path, spec_path: Path = ROOT / "openapi.yaml") -> subprocess.CompletedProcess[str]:
    """Write the derived spec to ``output``/openapi-kotlin.json and generate the client beside it."""
    output.mkdir(parents=True, exist_ok=True)
    derived = output / "openapi-kotlin.json"
    derived.write_text(json.dumps(derive(yaml.safe_load(spec_path.read_text())), indent=1))
    properties = ",".join(f"{k}={v}" for k, v in PROPERTIES.items())
    return subprocess.run([*generator_command(), "generate", "-i", str(derived), "-g", GENERATOR,
                           "-o", str(output), "--additional-properties", properties],
                          capture_output=True, text=True, timeout=600)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("output", type=Path, help="directory for the generated Gradle project")
    parser.add_argument("--spec", type=Path, default=ROOT / "openapi.yaml", help="the casino API's openapi.yaml")
    args = parser.parse_args(argv)
    done = generate(args.output, args.spec)
    sys.stdout.write(done.stdout)
    sys.stderr.write(done.stderr)
    return done.returncode


if __name__ == "__main__":
    sys.exit(main())

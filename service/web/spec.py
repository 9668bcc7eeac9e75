"""The contract itself: ``/openapi.yaml`` (and as JSON, ``/openapi.json``, for
tools that read no YAML), and interactive docs at ``/docs``.

The docs are Swagger UI, served from the ``swagger-ui-bundle-v2`` wheel so
that they work with no internet access. The page and its files forbid
loading anything from elsewhere, running any script but the bundle and the
page's one line, and being framed (``DOCS_HEADERS``).
"""

from __future__ import annotations

import base64
import hashlib
from functools import cache
from pathlib import Path

import yaml
from flask import Blueprint, Response, send_from_directory

from service import jsonio

bp = Blueprint("spec", __name__)

#: The contract, packaged with the service: a link to the repository's
#: openapi.yaml, which setuptools copies into the wheel as a file.
SPEC_PATH = Path(__file__).resolve().parents[1] / "openapi.yaml"  # service/openapi.yaml

_START = 'SwaggerUIBundle({url: "/openapi.yaml", dom_id: "#docs"});'
_PAGE = """<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <title>casino API</title>
  <link rel="stylesheet" href="/docs/swagger-ui.css">
</head>
<body>
  <div id="docs"></div>
  <script src="/docs/swagger-ui-bundle.js"></script>
  <script>""" + _START + """</script>
</body>
</html>
"""

DOCS_HEADERS = {
    # The one inline script is allowed by its hash; Swagger UI's own styles
    # are set by script, which a policy on inline style does not touch.
    "Content-Security-Policy": (
        "default-src 'self'; script-src 'self' 'sha256-"
        + base64.b64encode(hashlib.sha256(_START.encode()).digest()).decode()
        + "'; img-src 'self' data:; object-src 'none'; base-uri 'none'; form-action 'self'; "
        "frame-ancestors 'none'"),
    "Referrer-Policy": "no-referrer",
}


@cache
def spec_text() -> str:
    return SPEC_PATH.read_text(encoding="utf-8")


@bp.get("/openapi.yaml")
def openapi():
    return Response(spec_text(), mimetype="application/yaml")


@cache
def spec_json() -> bytes:
    return jsonio.dumps(yaml.safe_load(spec_text()))


@bp.get("/openapi.json")
def openapi_json():
    return Response(spec_json(), mimetype="application/json")


@bp.get("/docs")
def docs():
    return Response(_PAGE, mimetype="text/html", headers=DOCS_HEADERS)


@bp.get("/docs/<any('swagger-ui.css', 'swagger-ui-bundle.js'):asset>")
def docs_asset(asset):
    from swagger_ui_bundle import swagger_ui_path

    response = send_from_directory(str(swagger_ui_path), asset, max_age=86400)
    response.headers.update(DOCS_HEADERS)
    return response

"""A web app on another site calls the API from its visitors' browsers
(CORS): Chromium, on a page of another origin, creates a game, plays it
with a seat's token, reads the headers clients need and follows the live
stream; preflights are answered; a list of origins narrows who may."""

from __future__ import annotations

import threading
import uuid

import pytest
from werkzeug.serving import make_server

from service.web.cors import ALLOWED_HEADERS, EXPOSED_HEADERS, PREFIXES, allowed_origin
from tests.service.spec_check import spec
from tests.web.conftest import _Quiet

#: An origin the service does not serve, for the tests without a browser.
ELSEWHERE = "http://app.example"


@pytest.fixture
def another_site():
    """Another web app's origin: a server of its own on this machine (another
    port is another origin; on loopback, as Chromium wants of a page that
    calls a loopback address), serving one empty page."""
    def app(environ, start_response):
        start_response("200 OK", [("Content-Type", "text/html")])
        return [b"<!doctype html><title>another app</title>"]

    server = make_server("127.0.0.1", 0, app, request_handler=_Quiet)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_port}"
    server.shutdown()

CALLS = """async ([api, key, again]) => {
  const json = { "Content-Type": "application/json" };
  const created = await fetch(`${api}/v1/games`, { method: "POST", headers: { ...json, "Idempotency-Key": key },
    body: JSON.stringify({ variant: "cassino", seats: [{ name: "Ann" }, { name: "Bob" }], first_dealer: 1 }) });
  const game = await created.json();
  const bob = { Authorization: `Bearer ${game.seats[1].token}` };
  const dealt = await fetch(`${api}/v1/games/${game.id}/deal`, { method: "POST",
    headers: { ...bob, "If-Match": created.headers.get("ETag"), "Idempotency-Key": again } });
  const ann = { Authorization: `Bearer ${game.seats[0].token}` };
  const seen = await fetch(`${api}/v1/games/${game.id}`, { headers: ann });
  const refused = await fetch(`${api}/v1/games/${game.id}/moves`);
  const asked = await fetch(`${api}/v1/games/${game.id}/stream-tickets`, { method: "POST", headers: bob });
  const ticket = await asked.json();
  const streamed = await new Promise((resolve, reject) => {
    const source = new EventSource(`${api}${ticket.stream}&after=0`);
    const types = [];
    for (const type of ["GameCreated", "ShuffleCommitted", "HandDealt"]) {
      source.addEventListener(type, () => {
        types.push(type);
        if (types.length === 3) { source.close(); resolve(types); }
      });
    }
    source.onerror = () => { source.close(); reject(new Error("the stream failed")); };
  });
  return {
    created: [created.status, created.headers.get("Location"), created.headers.get("ETag"),
              created.headers.get("X-Request-Id") !== null],
    dealt: [dealt.status, dealt.headers.get("ETag")],
    seen: [seen.status, (await seen.json()).you],
    refused: [refused.status, refused.headers.get("WWW-Authenticate"), (await refused.json()).code],
    streamed,
    origin: location.origin,
  };
}"""


def test_a_page_on_another_site_plays_through_the_api(browser, base_url, another_site):
    context = browser.new_context()
    page = context.new_page()
    page.goto(f"{another_site}/")
    got = page.evaluate(CALLS, [base_url, str(uuid.uuid4()), str(uuid.uuid4())])
    assert got["origin"] == another_site != base_url
    status, location, etag, request_id = got["created"]
    assert status == 201 and location.startswith("/v1/games/") and etag == '"2"' and request_id
    assert got["dealt"] == [200, '"3"']
    assert got["seen"] == [200, 0]
    status, challenge, code = got["refused"]
    assert status == 401 and challenge.startswith("Bearer") and code == "unauthenticated"
    assert got["streamed"] == ["GameCreated", "ShuffleCommitted", "HandDealt"]
    context.close()


def test_a_preflight_is_answered_with_what_may_be_sent(client):
    asked = client.options("/v1/games/00000000-0000-4000-8000-000000000000/play", headers={
        "Origin": ELSEWHERE, "Access-Control-Request-Method": "POST",
        "Access-Control-Request-Headers": "authorization, content-type, idempotency-key, if-match"})
    assert asked.status_code == 204 and asked.get_data() == b""
    assert asked.headers["Access-Control-Allow-Origin"] == "*"
    assert "POST" in asked.headers["Access-Control-Allow-Methods"]
    allowed = {h.strip().lower() for h in asked.headers["Access-Control-Allow-Headers"].split(",")}
    assert {"authorization", "content-type", "idempotency-key", "if-match"} <= allowed
    assert int(asked.headers["Access-Control-Max-Age"]) > 0
    answer = client.get("/v1/variants", headers={"Origin": ELSEWHERE})
    assert answer.headers["Access-Control-Allow-Origin"] == "*"
    assert set(EXPOSED_HEADERS.split(", ")) >= {"ETag", "Location", "Retry-After"}
    assert answer.headers["Access-Control-Expose-Headers"] == EXPOSED_HEADERS
    # The web client's own pages are not for other sites; a path nobody serves is still a 404.
    assert "Access-Control-Allow-Origin" not in client.get("/play/", headers={"Origin": ELSEWHERE}).headers
    nowhere = client.options("/v1/nothing", headers={"Origin": ELSEWHERE, "Access-Control-Request-Method": "GET"})
    assert nowhere.status_code == 404


@pytest.mark.parametrize(("setting", "origin", "answer"), [
    ("*", ELSEWHERE, "*"), ("*", None, None),
    (f"{ELSEWHERE}, https://other.example/", ELSEWHERE, ELSEWHERE),
    (f"{ELSEWHERE}, https://other.example/", "https://other.example", "https://other.example"),
    (ELSEWHERE, "http://evil.example", None), ("none", ELSEWHERE, None), ("", ELSEWHERE, None),
])
def test_the_setting_says_which_origins_are_answered(setting, origin, answer):
    assert allowed_origin(setting, origin) == answer


def test_a_list_of_origins_answers_those_alone_and_says_the_answer_varies(app_for):
    client = app_for(CORS_ORIGINS=ELSEWHERE).test_client()
    mine = client.get("/v1/variants", headers={"Origin": ELSEWHERE})
    assert mine.headers["Access-Control-Allow-Origin"] == ELSEWHERE and "Origin" in mine.headers["Vary"]
    other = client.get("/v1/variants", headers={"Origin": "http://evil.example"})
    assert other.status_code == 200 and "Access-Control-Allow-Origin" not in other.headers
    assert "Origin" in other.headers["Vary"]
    preflight = client.options("/v1/games", headers={"Origin": "http://evil.example",
                                                     "Access-Control-Request-Method": "POST"})
    assert "Access-Control-Allow-Origin" not in preflight.headers
    assert "Access-Control-Allow-Methods" not in preflight.headers


#: Answer headers every browser lets a page read (the Fetch standard's CORS-safelisted ones).
SAFELISTED = {"cache-control", "content-language", "content-length", "content-type", "expires", "last-modified",
              "pragma"}


def _named(listing: str) -> set[str]:
    return {name.strip().lower() for name in listing.split(",")}


def test_a_page_elsewhere_may_send_and_read_every_header_the_api_declares():
    """Every request header openapi.yaml names for the API is allowed in a
    preflight, and every answer header it names is exposed (a browser hides
    the rest from a page, but the few the Fetch standard lets it read)."""
    document = spec()
    operations = [op for path, item in document["paths"].items() if path.startswith(PREFIXES)
                  for op in item.values() if isinstance(op, dict)]
    parameters = [p for op in operations for p in op.get("parameters", [])]
    parameters = [document["components"]["parameters"][p["$ref"].rsplit("/", 1)[1]] if "$ref" in p else p
                  for p in parameters]
    sent = {p["name"].lower() for p in parameters if p.get("in") == "header"}
    responses = [r for op in operations for r in op.get("responses", {}).values()]
    responses = [document["components"]["responses"][r["$ref"].rsplit("/", 1)[1]] if "$ref" in r else r
                 for r in responses]
    answered = {name.lower() for r in responses for name in r.get("headers", {})} - SAFELISTED
    assert {"if-none-match", "consistency-token"} <= sent and {"etag", "consistency-token"} <= answered
    assert sent - _named(ALLOWED_HEADERS) == set()
    assert answered - _named(EXPOSED_HEADERS) == set()

"""Browser tests of the web client: Debian's Chromium, driven by Playwright,
against the service served over real HTTP in a thread of the test process.

They need the ``playwright`` package (in the test extras) and
``/usr/bin/chromium`` (``make test`` installs it when it can); without
either they are left out, with one line at the end that says which is missing.
Screenshots go to ``test-output/screenshots/`` for a person to look at.
"""

from __future__ import annotations

import importlib.util
import json
import re
import threading
import time
from datetime import UTC, datetime
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import pytest
from werkzeug.serving import WSGIRequestHandler, make_server

from service.web.app import close_app, create_app
from service.web.current import services
from tests.api.conftest import Api, Game
from tests.conftest import OPERATOR_TOKEN, TEST_SETTINGS

CHROMIUM = Path("/usr/bin/chromium")
SCREENSHOTS = Path(__file__).resolve().parents[2] / "test-output" / "screenshots"
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 900}
LAUNCH_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
               "--disable-background-networking", "--disable-component-update", "--disable-sync"]
STREAM_SECONDS = 4.0
#: A card code as the API writes it, alone.
CARD_CODE = re.compile(r"^(?:10|[2-9AJQK])[SHDC]$")


def _missing() -> str | None:
    if importlib.util.find_spec("playwright") is None:
        return "browser tests skipped: the playwright package is not installed (pip install -e '.[test]')"
    if not CHROMIUM.exists():
        return f"browser tests skipped: no Chromium at {CHROMIUM} (apt-get install chromium)"
    return None


def pytest_collection_modifyitems(config, items):
    """Without a browser, leave out the tests that need one, and say so once
    at the end (see ``pytest_terminal_summary``) rather than once per test."""
    reason = _missing()
    needing = [item for item in items if "browser" in getattr(item, "fixturenames", ())]
    if reason is None or not needing:
        return
    config.hook.pytest_deselected(items=needing)
    items[:] = [item for item in items if item not in needing]
    config.stash[_LEFT_OUT] = f"{reason} ({len(needing)} tests left out)"


def pytest_terminal_summary(terminalreporter, config):
    if _LEFT_OUT in config.stash:
        terminalreporter.write_line(config.stash[_LEFT_OUT])


_LEFT_OUT = pytest.StashKey[str]()


@pytest.fixture(scope="session")
def browser():
    reason = _missing()
    if reason:
        pytest.skip(reason)
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=str(CHROMIUM), args=LAUNCH_ARGS)
        yield chromium
        chromium.close()


@pytest.fixture(autouse=True)
def _pages_closed(request):
    """Every page a test opened is closed after it, even when the test fails
    half-way: no stream is left open on a service about to stop."""
    yield
    if "browser" in request.fixturenames:
        for context in request.getfixturevalue("browser").contexts:
            context.close()


@pytest.fixture(scope="session")
def web_app(database_url):
    """The service as ``casino serve`` runs it, but in a thread. Streams end
    every few seconds, so that a page playing a hand reconnects several times,
    and a handful may be open at once."""
    app = create_app({**TEST_SETTINGS, "DATABASE_URL": database_url,
                      "STREAM_MAX_SECONDS": STREAM_SECONDS, "STREAM_MAX_OPEN": 64})
    yield app
    close_app(app)


class _Quiet(WSGIRequestHandler):
    def log_request(self, *args, **kwargs):
        pass


@pytest.fixture(scope="session")
def base_url(web_app, browser):
    server = make_server("127.0.0.1", 0, web_app, threaded=True, request_handler=_Quiet)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_port}"
    server.shutdown()


@pytest.fixture
def time_keeper(web_app):
    """The service's time keeper at work while the test runs, as every ``casino
    serve`` worker runs it: it looks for due deadlines every 0.2 s and appends
    their time-outs. (The web app starts none of its own, which would claim
    the deadlines of other tests' games on the same database.)"""
    keeper = services(web_app).keeper
    stop = threading.Event()

    def keep() -> None:
        while not stop.wait(0.2):
            keeper.tick()

    thread = threading.Thread(target=keep, name="test-time-keeper", daemon=True)
    thread.start()
    yield keeper
    stop.set()
    thread.join()


@pytest.fixture
def web_api(web_app) -> Api:
    """The API of the app the browser talks to (its test client, spec-checked)."""
    return Api(web_app, web_app.test_client())


class Seen:
    """Everything one page fetched from the API, to look for leaks in: the JSON
    bodies, and every message of its event streams.

    Each body is read as soon as its response arrives: the browser may let go
    of a body later, and a body not read would be a leak not looked for. An
    event stream's body never reaches Playwright (no ``requestfinished`` for
    an EventSource), so its messages are taken from Chromium's own network
    events over a DevTools session: every message the stream carried, whether
    or not the page listens for its type."""

    def __init__(self, page):
        self.bodies: list[str] = []
        self.unread: list[str] = []  # responses whose body could not be had: none is expected
        self.errors: list[str] = []  # uncaught script errors: none is expected
        self.streams: list[str] = []  # the URLs of the event streams the page opened
        self.stream_messages: list[str] = []  # the data of every message those streams carried
        self.plays: list[dict] = []  # the bodies the page posted to /play
        self._bodies_read = self._messages_read = 0
        self._found: set[str] = set()
        page.on("response", self._keep)
        page.on("request", self._sent)
        page.on("pageerror", lambda error: self.errors.append(str(error)))
        devtools = page.context.new_cdp_session(page)
        devtools.send("Network.enable")
        devtools.on("Network.eventSourceMessageReceived", lambda message: self.stream_messages.append(message["data"]))

    def _sent(self, request):
        if "/events/stream" in request.url:
            self.streams.append(request.url)
        elif request.method == "POST" and request.url.endswith("/play"):
            self.plays.append(request.post_data_json)

    def _keep(self, response):
        if "/v1/" not in response.url or "/events/stream" in response.url:
            return  # a stream's messages are kept as they arrive (see above)
        if not response.headers.get("content-type", "").endswith("json"):
            return
        try:
            self.bodies.append(response.text())
        except Exception:  # noqa: BLE001 - counted, and the test fails on it
            self.unread.append(response.url)

    def card_codes(self) -> set[str]:
        """Every card code in a JSON answer or a stream message the page has had so far."""
        assert not self.unread, f"bodies not read: {self.unread}"
        for body in self.bodies[self._bodies_read:]:
            if body:
                _codes_in(json.loads(body), self._found)
        for data in self.stream_messages[self._messages_read:]:
            _codes_in(json.loads(data), self._found)
        self._bodies_read, self._messages_read = len(self.bodies), len(self.stream_messages)
        return self._found

    def stream_versions(self) -> list[int]:
        """The versions of the events the streams carried, in the order they came."""
        return [json.loads(data)["version"] for data in self.stream_messages]


def _codes_in(value, found: set[str]) -> None:
    if isinstance(value, str):
        if CARD_CODE.match(value):
            found.add(value)
    elif isinstance(value, list):
        for item in value:
            _codes_in(item, found)
    elif isinstance(value, dict):
        for item in value.values():
            _codes_in(item, found)


def open_page(browser, url: str, viewport=DESKTOP):
    context = browser.new_context(viewport=viewport, accept_downloads=True)
    page = context.new_page()
    seen = Seen(page)
    page.goto(url)
    return page, seen


def dom_cards(page) -> set[str]:
    """Every card the page's DOM names: drawn cards' ``data-card`` and card
    codes anywhere in its text or attributes."""
    return set(page.evaluate("""() => {
        const found = new Set();
        const code = /(?:^|[^A-Za-z0-9])((?:10|[2-9AJQK])[SHDC])(?![A-Za-z0-9])/g;
        for (const node of document.querySelectorAll('*')) {
            for (const attr of node.attributes) {
                for (const m of attr.value.matchAll(code)) found.add(m[1]);
            }
        }
        for (const m of document.body.innerText.matchAll(code)) found.add(m[1]);
        const named = /\b(ace|[2-9]|10|jack|queen|king) of (spades|hearts|diamonds|clubs)\b/gi;
        const ranks = {ace: "A", jack: "J", queen: "Q", king: "K"};
        const html = document.documentElement.outerHTML;
        for (const m of html.matchAll(named)) {
            found.add((ranks[m[1].toLowerCase()] || m[1]) + m[2][0].toUpperCase());
        }
        return [...found];
    }"""))


def shoot(page, name: str, viewport) -> Path:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.set_viewport_size(viewport)
    path = SCREENSHOTS / f"{name}-{'phone' if viewport == PHONE else 'desktop'}.png"
    page.screenshot(path=str(path), full_page=True)
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= viewport["width"], f"{name} is {width}px wide: wider than the screen"
    return path


def play_alone(page) -> tuple[Game, str]:
    """Press the lobby's "Play alone against the computer", which opens the
    person's table: the game (with the person's token) and the token, taken
    from the tab's storage (the link's fragment has left the address bar)."""
    page.get_by_role("button", name="Play alone against the computer").click()
    page.wait_for_url("**/play/table.html?game=*")
    page.wait_for_selector("body[data-version]")
    game_id = parse_qs(urlsplit(page.url).query)["game"][0]
    token = page.evaluate("id => sessionStorage.getItem(`casino.token.${id}`)", game_id)
    return Game(game_id, [token], {}), token


def wait_version(page, version: int, timeout: float = 10_000) -> None:
    """Until the page shows the game at ``version`` (its body's data-version)."""
    page.wait_for_function("v => Number(document.body.dataset.version) >= v", arg=version, timeout=timeout)


def wait_result(page, said: str, timeout: float = 10_000) -> str:
    """Until the page's result (``#result``) begins with ``said``, which it
    returns whole. A game ended early is told by who ended it ("Bob
    resigned") once the page's log holds the ending event: the view that says
    the game is over may come a moment before the stream brings the event."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    page.wait_for_selector("#result", timeout=timeout)
    try:
        page.wait_for_function("s => document.getElementById('result')?.innerText.startsWith(s)", arg=said,
                               timeout=timeout)
    except PlaywrightTimeout:
        raise AssertionError(f"the result says {page.inner_text('#result')!r}, not {said!r}...") from None
    return page.inner_text("#result")


def countdown_seconds(text: str) -> int:
    """A countdown's time as the pages show it ("4:05"), in seconds."""
    minutes, seconds = text.split(":")
    return int(minutes) * 60 + int(seconds)


def seconds_left(deadline: str) -> float:
    """Seconds from now to ``deadline`` (RFC 3339), by this machine's clock, which is the service's."""
    return (datetime.fromisoformat(deadline) - datetime.now(UTC)).total_seconds()


def assert_counts_down_to(text: str, deadline: str) -> None:
    """A countdown shows the time left to ``deadline``: whole seconds, rounded up, as
    the page estimates the service's time from its answers' Date (to the second)."""
    shown, left = countdown_seconds(text), seconds_left(deadline)
    assert left - 1 <= shown <= left + 1.5, (shown, left)


def hold_streams(page, timeout: float = 15.0) -> list:
    """Keep the page from hearing of the game from now on: its next live
    stream is held unanswered (streams end every few seconds here, and the
    page opens a new one). Returns once a stream is held, so the page's view
    is what it was; the held requests are returned."""
    held: list = []
    page.route("**/events/stream?*", lambda route: held.append(route))
    deadline = time.monotonic() + timeout
    while not held:
        assert time.monotonic() < deadline, "the page opened no new stream"
        page.wait_for_timeout(100)
    return held


def wait_streamed(page, version: int, timeout: float = 10_000) -> None:
    """Until the table page has had event ``version`` over its stream (its log shows it)."""
    page.wait_for_selector(f'#log li[data-version="{version}"]', state="attached", timeout=timeout)


# -- moves, as the table page offers them --------------------------------------


def _pile_seat(target: str) -> int | None:
    return int(target[5:]) if target.startswith("seat:") else None


def _listed(items: list[str]) -> str:
    if len(items) < 2:
        return "".join(items)
    return f"{', '.join(items[:-1])} and {items[-1]}"


_RANKS = {"A": "ace", "J": "jack", "Q": "queen", "K": "king"}
_SUITS = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}
_CODE = re.compile(r"\b(10|[2-9AJQK])([SHDC])\b")

# An element's words as a screen reader says them: each card face drawn in
# the line (cards.js, withFaces) read as its name, "6 of spades".
SPOKEN = ("n => { const c = n.cloneNode(true);"
          " c.querySelectorAll('.card').forEach(k => k.replaceWith(k.getAttribute('aria-label')));"
          " return c.textContent; }")


def spoken(text: str) -> str:
    """Words naming cards by code ("Take 6S with 8S") as the page says them
    with the cards' faces: "Take 6 of spades with 8 of spades"."""
    return _CODE.sub(lambda m: f"{_RANKS.get(m[1], m[1])} of {_SUITS[m[2]]}", text)


def move_label(move: dict, names=None) -> str:
    """The move's button, as the page words it (``names``: the seats' names,
    needed for a move that names a seat's pile), each card said by its name."""
    return spoken(_move_words(move, names))


def _move_words(move: dict, names=None) -> str:
    targets = move.get("targets", [])
    piles: dict[int, int] = {}
    for seat in filter(lambda s: s is not None, map(_pile_seat, targets)):
        piles[seat] = piles.get(seat, 0) + 1
    loose = [t for t in targets if _pile_seat(t) is None]
    words = ([" ".join(loose)] if loose else []) + [
        f"the top card of {names[seat]}'s pile" if n == 1 else f"the top {n} cards of {names[seat]}'s pile"
        for seat, n in piles.items()]
    things = _listed(words)
    card = move.get("card")
    match move["action"]:
        case "trail":
            return f"Trail {card}"
        case "pluck":
            return f"Pluck {card}"
        case "capture":
            return f"Take {things} with {card}" + (f" as {move['value']}" if move.get("value") is not None else "")
        case "steal":
            victims = [f"{names[_pile_seat(t)]}'s bundle" for t in targets]
            return f"Steal {_listed(victims)} with {card}"
        case "build":
            groups = " in groups " + " ".join(f"({' '.join(g)})" for g in move["groups"]) if move.get("groups") else ""
            return f"Build {move['value']} with {card}" + (f" on {things}" if things else "") + groups
    raise AssertionError(f"no label for {move}")


def piece_control(piece: str) -> str:
    """The page's control for one piece of a move: a card of the hand or the
    table (a pluck's card is on the table), a build, or a seat's pile."""
    if piece.startswith("seat:"):
        return f'[data-key="pile-{piece}"]'
    return f'[data-key="hand-{piece}"], [data-key="table-{piece}"]'


def choose_pieces(page, move: dict) -> None:
    """Click the move's card, then each thing it names once (a pile named
    three times is chosen once: the move's button says how many cards)."""
    for piece in dict.fromkeys([move["card"], *move.get("targets", [])]):
        page.click(piece_control(piece))


def click_move(page, move: dict, names=None) -> None:
    """Choose the move's card, then the table items and piles, then the move, as a player would."""
    choose_pieces(page, move)
    page.get_by_role("button", name=move_label(move, names), exact=True).click()


OFFERED = f"() => [...document.querySelectorAll('#actions button.primary')].map({SPOKEN})"


def assert_every_move_is_offered(page, moves: list[dict], names) -> None:
    """Each listed move can be chosen by clicking, and only listed moves are offered."""
    labels = {move_label(m, names) for m in moves}
    for move in moves:
        choose_pieces(page, move)
        offered = page.evaluate(OFFERED)
        assert move_label(move, names) in offered and set(offered) <= labels, (move, offered)
        page.click('[data-key="clear"]')


def hidden_from(everything: dict, seat: int | None) -> set[str]:
    """The cards ``seat`` (None: the public) cannot see: the others' hands and the stock."""
    hands = [h for i, h in enumerate(everything["hands"]) if i != seat]
    return {c for h in hands for c in h} | set(everything["stock"])


def assert_holds_none_of(page, seen: Seen, hidden: set[str], visible: set[str], seat: int | None) -> None:
    """Neither the page's DOM nor anything it fetched (JSON bodies and stream
    messages) holds a card of ``hidden``; and the looking works: it finds
    the ``visible`` cards, which are there for this caller to see. Any game's."""
    shown, fetched = dom_cards(page), seen.card_codes()
    assert visible <= shown and visible <= fetched, (visible - shown, visible - fetched)
    assert not shown & hidden, f"seat {seat}'s page shows a hidden card: {shown & hidden}"
    assert not fetched & hidden, f"seat {seat}'s page fetched a hidden card: {fetched & hidden}"
    assert not seen.errors


def assert_holds_nothing_hidden(page, seen: Seen, view: dict, everything: dict, seat: int | None) -> None:
    """A Cassino table's page holds no card hidden from ``seat`` (see ``assert_holds_none_of``)."""
    visible = ({i["card"] for i in view["table"] if i["kind"] == "card"} | set(view.get("hand", []))
               | {s["pile_top"] for s in view["seats"] if s["pile_top"]})
    assert_holds_none_of(page, seen, hidden_from(everything, seat), visible, seat)


# -- the table pages agree with the API and hold nothing hidden -----------------

SUMMARY = """() => ({
  facts: Object.fromEntries([...document.querySelectorAll('#facts dd')].map(d => [d.dataset.fact, d.textContent])),
  seats: [...document.querySelectorAll('#seats li.seat')].map(li =>
    Object.fromEntries([...li.querySelectorAll('dd[data-stat]')].map(d => [d.dataset.stat, Number(d.textContent)]))),
  table: [...document.getElementById('table-items').children]
    .map(n => n.dataset.card || n.dataset.build).filter(Boolean),
  hand: [...document.querySelectorAll('#hand .hand-cards > [data-card]')].map(n => n.dataset.card),
  piles: [...document.querySelectorAll('#seats li.seat')]
    .map(li => li.querySelector('.pile [data-card]')?.dataset.card ?? null),
})"""


def table_ids(view: dict) -> list[str]:
    return [item["card"] if item["kind"] == "card" else item["id"] for item in view["table"]]


def assert_agrees(page, view: dict) -> None:
    shown = page.evaluate(SUMMARY)
    dealt = view["status"] != "waiting"  # before the first deal: no hand number, turn or stock, nor a 0 for them
    assert shown["facts"].get("stock") == (str(view["deck_count"]) if dealt else None)
    assert ("hand" in shown["facts"]) == dealt and ("turn" in shown["facts"]) == dealt
    assert shown["facts"]["version"] == str(view["version"])
    assert shown["seats"] == [{"hand": s["hand_count"], "captured": s["captured_count"], "sweeps": s["sweeps"],
                               "score": s["score"]} for s in view["seats"]]
    assert shown["table"] == table_ids(view)
    assert shown["hand"] == view.get("hand", [])
    assert shown["piles"] == [s["pile_top"] for s in view["seats"]]


def settle(web_api, game, pages) -> dict:
    """Every page (``(page, seen, seat)``, seat None for a spectator) at the
    game's version, and at the event stream's: each agrees with the API and
    holds nothing hidden from its caller. Returns the operator's view."""
    everything = web_api.view(game, token=OPERATOR_TOKEN)
    for page, seen, seat in pages:
        wait_version(page, everything["version"])
        wait_streamed(page, everything["version"])
        view = web_api.view(game, token=game.tokens[seat] if seat is not None else None)
        assert_agrees(page, view)
        assert_holds_nothing_hidden(page, seen, view, everything, seat)
        # The streams' messages were looked in too: every event came over them, once.
        assert seen.stream_versions() == list(range(1, everything["version"] + 1))
    return everything


# -- Mass Cool Casino's table ---------------------------------------------------

MCC = "mass-cool-casino"

MCC_SUMMARY = """() => ({
  facts: Object.fromEntries([...document.querySelectorAll('#facts dd')].map(d => [d.dataset.fact, d.textContent])),
  seats: [...document.querySelectorAll('#seats li.seat')].map(li => ({
    money: [...li.querySelectorAll('.money [data-card]')].map(n => n.dataset.card),
    hand: li.querySelector('[data-hand]')?.dataset.hand ?? null,
    out: li.dataset.out === 'true',
    stats: Object.fromEntries([...li.querySelectorAll('dd[data-stat]')]
      .map(d => [d.dataset.stat, Number(d.textContent)])),
  })),
  bets: Object.fromEntries([...document.querySelectorAll('#pot [data-bet]')]
    .map(n => [n.dataset.bet, [...n.querySelectorAll('[data-card]')].map(c => c.dataset.card)])),
  shown: Object.fromEntries([...document.querySelectorAll('#showdown [data-shown]')]
    .map(n => [n.dataset.shown, n.querySelector('[data-card]').dataset.card])),
  mine: [...document.querySelectorAll('#my-money [data-card]')].map(n => n.dataset.card),
  hand: document.querySelector('#own-hand [data-card]')?.dataset.card ?? null,
})"""


def mcc_assert_agrees(page, view: dict) -> None:
    """The Mass Cool Casino table shows what the API's view shows this caller."""
    shown = page.evaluate(MCC_SUMMARY)
    you = view.get("you")
    facts = shown["facts"]
    dealt = view["status"] != "waiting"  # before the deal: no round, turn or pot, nor a 0 for them
    assert (facts["stock"], facts.get("pot"), facts["version"], facts.get("round")) == (
        str(view["deck_count"]), str(view["pot_count"]) if dealt else None, str(view["version"]),
        str(view["round"]) if dealt else None)
    turn = view["seats"][view["turn"]]["name"] if view["status"] == "betting" else "—"
    assert facts.get("turn") == (turn if dealt else None)
    for s, on_page in zip(view["seats"], shown["seats"], strict=True):
        assert on_page["money"] == ([] if s["seat"] == you else s["money"])
        assert on_page["out"] == s["out"]
        assert on_page["stats"] == {"money": len(s["money"]), "worth": s["money_value"], "bet": len(s["bet"])}
        own = s["seat"] == you and view["hand"] is not None
        assert on_page["hand"] == (view["hand"] if own else "hidden" if s["has_hand"] else None)
    assert shown["bets"] == {str(s["seat"]): s["bet"] for s in view["seats"] if s["bet"]}
    last = view["last_showdown"]
    assert shown["shown"] == ({str(i): h for i, h in enumerate(last["hands"]) if h} if last else {})
    assert shown["mine"] == (view["seats"][you]["money"] if you is not None else [])
    assert shown["hand"] == view.get("hand")


def mcc_public_cards(events: list[dict]) -> set[str]:
    """Every card whose face the table has shown everyone so far (from the
    operator's log): the money dealt, every bet, every hand at a showdown.
    Such a card may lie in the stock again after a tie, but its face is no secret."""
    seen: set[str] = set()
    for e in events:
        d = e["data"]
        if e["type"] == "MoneyDealt":
            seen.update(c for money in d["money"] for c in money)
        elif e["type"] == "BetPlaced":
            seen.update(d["cards"])
        elif e["type"] in ("PotWon", "PotTied"):
            seen.update(h for h in d["hands"] if h)
    return seen


def mcc_hidden_from(everything: dict, events: list[dict], seat: int | None) -> set[str]:
    """The cards ``seat`` (None: the public) cannot see: the others' hands and
    the stock, but for cards already shown to everyone."""
    hands = {h for i, h in enumerate(everything["hands"]) if h and i != seat}
    public = mcc_public_cards(events)
    assert not hands & public, "the fixed deck should give hands never seen, for the check to mean something"
    return (hands | set(everything["stock"])) - public


def mcc_visible(view: dict) -> set[str]:
    last = view["last_showdown"]
    return ({c for s in view["seats"] for c in s["money"] + s["bet"]} | ({view["hand"]} if view.get("hand") else set())
            | ({h for h in last["hands"] if h} if last else set()))


def mcc_settle(web_api, game, pages) -> dict:
    """Like ``settle``, for Mass Cool Casino: every page (``(page, seen,
    seat)``) at the game's version and the stream's, agreeing with the API
    and holding nothing hidden from its caller. Returns the operator's view."""
    everything = web_api.view(game, token=OPERATOR_TOKEN)
    events = web_api.events(game)
    for page, seen, seat in pages:
        wait_version(page, everything["version"])
        wait_streamed(page, everything["version"])
        view = web_api.view(game, token=game.tokens[seat] if seat is not None else None)
        mcc_assert_agrees(page, view)
        assert_holds_none_of(page, seen, mcc_hidden_from(everything, events, seat), mcc_visible(view), seat)
        assert seen.stream_versions() == list(range(1, everything["version"] + 1))
    return everything


def bet_by_clicking(page, cards: list[str]) -> None:
    """Choose the money cards, then the bet they make, as a player would."""
    for card in cards:
        page.click(f'[data-key="money-{card}"]')
    page.click('[data-key="bet"]')

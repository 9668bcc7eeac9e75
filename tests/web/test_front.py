"""The front door (``/``), the rules pages, the icon, and what the table page
says when its link names no game or the tab holds no seat."""

from __future__ import annotations

import re
import uuid

from domain.game_types import GAME_TYPES
from service.web.rulebook import sections
from tests.web.conftest import DESKTOP, PHONE, open_page, shoot, wait_version


def test_the_front_door_is_a_page_for_players_and_developers(api):
    page = api.get("/", headers={"Host": "casino.example"})
    assert page.status_code == 200 and page.mimetype == "text/html"
    assert page.headers["Content-Security-Policy"].startswith("default-src 'self'")
    text = page.get_data(as_text=True)
    links = set(re.findall(r'href="([^"]+)"', text))
    assert {"/play/", "/docs", "/openapi.yaml", "/openapi.json", "/healthz"} <= links
    assert {f"/rules/{name}" for name in GAME_TYPES} <= links
    assert 'action="/play/table.html"' in text  # watching a game by its id
    assert "curl -s -X POST http://casino.example/v1/games" in text  # a first request, at this service's address


def test_the_icon_is_an_icon(api):
    icon = api.get("/favicon.ico")
    assert icon.status_code == 200 and icon.mimetype == "image/vnd.microsoft.icon"
    assert icon.get_data()[:4] == b"\x00\x00\x01\x00"  # the ICO format's header


def test_every_game_type_has_its_rules_page(api):
    assert set(sections()) == set(GAME_TYPES)
    for name in GAME_TYPES:
        page = api.get(f"/rules/{name}")
        assert page.status_code == 200 and page.mimetype == "text/html"
        assert f"<h1>{sections()[name].title}</h1>" in page.get_data(as_text=True)
    cassino = api.get("/rules/cassino").get_data(as_text=True)
    assert '<h3 id="counting-out">Counting out</h3>' in cassino  # the README's link to the rule finds it here
    assert "<table>" in cassino and "<td><code>stealing-bundles</code></td>" in cassino
    assert 'id="a-round"' not in cassino and 'id="a-round"' in api.get("/rules/mass-cool-casino").get_data(
        as_text=True)  # each game's own rules: Mass Cool Casino's round is on its page alone
    missing = api.get("/rules/poker")
    assert missing.status_code == 404 and missing.mimetype == "application/problem+json"


def test_a_rules_page_points_to_the_variant_being_played(api):
    royal = api.get("/rules/cassino?variant=royal").get_data(as_text=True)
    assert re.search(r'id="playing">This game is played as <code>royal</code>:\s*its own rules are under '
                     r'<a href="#royal-and-buckeye">Royal and Buckeye</a>', royal)
    assert 'id="royal-and-buckeye"' in royal
    plain = api.get("/rules/cassino?variant=cassino").get_data(as_text=True)
    assert "This game is played as <code>cassino</code>." in plain
    odd = api.get("/rules/cassino?variant=<script>").get_data(as_text=True)
    assert 'id="playing"' not in odd and "<script>" not in odd


def test_an_unknown_address_is_answered_in_the_services_own_words(api):
    response = api.get("/v1/nothing/here")
    assert response.status_code == 404
    detail = response.get_json()["detail"]
    assert detail == "Nothing is served at /v1/nothing/here: the API's paths are listed at /docs."


def test_a_person_finds_the_lobby_the_rules_and_a_game_to_watch_from_the_front_door(browser, base_url, web_api):
    game = web_api.create(variant="royal")
    page, seen = open_page(browser, f"{base_url}/", PHONE)
    shoot(page, "front", PHONE)
    shoot(page, "front", DESKTOP)
    page.fill("#watch-game", game.id)
    page.get_by_role("button", name="Watch").click()
    page.wait_for_selector("#watching")
    assert page.inner_text("#role") == "Watching"
    rules = page.get_by_role("link", name="Rules of this game")
    assert rules.get_attribute("href") == "/rules/cassino/royal/play"  # how to play the variant, for players
    rules.click()
    page.wait_for_selector("#variant-summary")
    assert page.inner_text("h1") == "How to play Royal" and "Courts count J 11" in page.inner_text("#variant-summary")
    shoot(page, "how-to-play", PHONE)
    page.get_by_role("link", name="the rulebook").click()  # every rule, for developers
    page.wait_for_selector("h1")
    assert page.url.endswith("/rules/cassino?variant=royal")
    page.goto(f"{base_url}/")
    page.get_by_role("region", name="Play", exact=True).get_by_role("link").click()
    page.wait_for_selector("#variant option[value=cassino]", state="attached")
    assert not seen.errors


def test_a_link_to_no_game_says_so_and_leads_back(browser, base_url):
    for query, words in ((f"?game={uuid.uuid4()}", "No game has the id"), ("?game=not-an-id", "No game has the id"),
                         ("", "This link names no game")):
        page, seen = open_page(browser, f"{base_url}/play/table.html{query}")
        page.wait_for_selector("#missing")
        assert "There is no game at this link" in page.inner_text("#missing")
        assert words in page.inner_text("#missing")
        assert "URL" not in page.inner_text("body") and not seen.errors
        assert page.get_by_role("link", name="Start a new game").get_attribute("href") == "/play/"
    shoot(page, "no-game", DESKTOP)


def test_a_seat_opened_again_without_its_token_says_why_and_how_to_get_the_seat_back(browser, base_url, web_api):
    game = web_api.create(first_dealer=1)
    seat, _ = open_page(browser, f"{base_url}/play/table.html?game={game.id}#token={game.tokens[0]}")
    wait_version(seat, 2)
    assert seat.inner_text("#role").startswith("Seat 0")
    seat.click("#seat-link-box summary")
    link = seat.input_value("#seat-link")
    assert link.endswith(f"/play/table.html?game={game.id}#token={game.tokens[0]}")

    # The same page in a new tab of the same browser: the token stayed in the first tab.
    again = seat.context.new_page()
    again.goto(seat.url)
    wait_version(again, 2)
    assert again.inner_text("#role") == "Watching"
    note = again.inner_text("#watching")
    assert "This tab holds no seat's token" in note and "open your seat's own link again" in note
    assert again.locator("#seat-link-box").is_hidden()
    # ... and the seat's own link, opened there, takes the seat.
    again.goto(link)
    again.wait_for_selector("#hand")
    assert again.inner_text("#role").startswith("Seat 0")

    # A token that is not this game's is dropped, and the page says so.
    other = web_api.create()
    stranger, seen = open_page(browser, f"{base_url}/play/table.html?game={game.id}#token={other.tokens[0]}")
    stranger.wait_for_selector("#watching")
    assert "is not one of this game's" in stranger.inner_text("#watching") and not seen.errors

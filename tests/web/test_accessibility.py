"""Accessibility: axe-core (from npm, at a pinned version, injected into
the page by the test: nothing is loaded from elsewhere at runtime) finds no
violation on the front page, the lobby, a table, a replay, a player's page and
the leaderboard, and each of
them has a heading."""

from __future__ import annotations

import pytest

from tests.api.conftest import ONE_HAND
from tests.service.npm_tools import NpmMissing, npm_tools
from tests.web.conftest import DESKTOP, Seen

#: axe-core, the accessibility engine, pinned.
AXE = {"axe-core": "4.10.2"}


@pytest.fixture(scope="module")
def axe_source() -> str:
    try:
        where = npm_tools(AXE)
    except NpmMissing as missing:
        pytest.skip(f"{missing}: axe-core cannot be installed")
    return (where / "node_modules" / "axe-core" / "axe.min.js").read_text(encoding="utf-8")


def violations(browser, url: str, ready: str, axe_source: str) -> list[str]:
    """What axe-core finds wrong with the page at ``url`` once ``ready`` shows, as lines for a person."""
    # The pages forbid every script not their own (Content-Security-Policy): the test's context lets it in.
    context = browser.new_context(viewport=DESKTOP, bypass_csp=True)
    page = context.new_page()
    seen = Seen(page)
    page.goto(url)
    page.wait_for_selector(ready, state="attached")
    assert page.locator("h1").count() == 1, f"{url} has no heading of its own"
    page.add_script_tag(content=axe_source)
    found = page.evaluate("async () => { const r = await axe.run(document); return {passes: r.passes.length,"
                          " violations: r.violations.map(v =>"
                          " `${v.id}: ${v.help} (${v.nodes.map(n => n.target.join(' ')).join('; ')})`)}; }")
    assert found["passes"] > 10  # the rules ran: a page they pass is checked, not skipped
    assert not seen.errors
    context.close()
    return found["violations"]


def test_the_front_page_and_the_lobby_have_no_violations(browser, base_url, axe_source):
    assert violations(browser, f"{base_url}/", "h1", axe_source) == []
    assert violations(browser, f"{base_url}/play/", "#variant option[value=cassino]", axe_source) == []


def test_a_variants_page_on_how_to_play_it_has_no_violations(browser, base_url, axe_source):
    assert violations(browser, f"{base_url}/rules/cassino/royal/play", "h1", axe_source) == []


def test_a_table_and_a_replay_have_no_violations(browser, base_url, web_api, axe_source):
    game = web_api.create(options=ONE_HAND, first_dealer=1)
    web_api.deal(game, token=game.tokens[1])
    table = f"{base_url}/play/table.html?game={game.id}#token={game.tokens[0]}"
    assert violations(browser, table, "#hand", axe_source) == []
    web_api.play(game)
    assert violations(browser, f"{base_url}/play/replay.html?game={game.id}", "#events li", axe_source) == []


def test_a_players_page_and_the_leaderboard_have_no_violations(browser, base_url, web_api, axe_source):
    player = web_api.post("/v1/players", json={"name": "Ann"}).get_json()
    assert violations(browser, f"{base_url}/play/player.html?id={player['id']}", "#no-ratings", axe_source) == []
    assert violations(browser, f"{base_url}/play/leaderboard.html?variant=cassino", "#leaderboard-variant",
                      axe_source) == []

"""Replay and audit in the browser: the timeline shows the table as the API
replays it at each version, the operator's list leads to it, verify's
result is shown for a sound game and a tampered one, and the transcript
downloads."""

from __future__ import annotations

from pathlib import Path

from service.ops.transcripts import parse
from tests.api.conftest import ONE_HAND
from tests.conftest import OPERATOR_TOKEN
from tests.web.conftest import DESKTOP, PHONE, open_page, shoot, wait_version

SHOWN = """() => ({
  hands: [...document.querySelectorAll('#seats li.seat')].map(li =>
    [...li.querySelectorAll('.hand-cards [data-card]')].map(n => n.dataset.card)),
  table: [...document.getElementById('table-items').children]
    .map(n => n.dataset.card || n.dataset.build).filter(Boolean),
  stock: [...document.querySelectorAll('#stock-area [data-card]')].map(n => n.dataset.card),
  current: document.querySelector('#events li.current')?.dataset.version,
})"""


def finished_game(web_api, name: str):
    game = web_api.create(options=ONE_HAND, first_dealer=1, first_name=name)
    web_api.deal(game, token=game.tokens[1])
    web_api.play(game)
    return game


def assert_shows_version(page, web_api, game, version: int) -> None:
    wait_version(page, version)
    page.wait_for_function("v => Number(document.body.dataset.version) === v", arg=version)
    then = web_api.get(f"{game.url}/replay?version={version}").get_json()
    shown = page.evaluate(SHOWN)
    assert shown["hands"] == then["hands"]
    assert shown["table"] == [i["card"] if i["kind"] == "card" else i["id"] for i in then["table"]]
    assert shown["stock"] == then["stock"]
    assert shown["current"] == str(version)


def test_the_timeline_shows_the_table_at_every_version_asked(browser, base_url, web_api):
    game = finished_game(web_api, "Replayed")
    last = web_api.view(game)["version"]
    page, seen = open_page(browser, f"{base_url}/play/replay.html?game={game.id}&version=3", PHONE)  # no token
    assert_shows_version(page, web_api, game, 3)
    assert any(3 <= len(hand) for hand in page.evaluate(SHOWN)["hands"])  # every hand face up
    page.focus("#next")
    page.keyboard.press("Enter")
    assert_shows_version(page, web_api, game, 4)
    page.click("#last")
    assert_shows_version(page, web_api, game, last)
    page.locator(f'#events li[data-version="{last // 2}"] button').click()
    assert_shows_version(page, web_api, game, last // 2)
    rounds = [e["version"] for e in web_api.events(game) if e["type"] == "RoundDealt"]
    mid = rounds[len(rounds) // 2] + 3  # a round dealt, and three plays: cards left in every hand
    page.locator(f'#events li[data-version="{mid}"] button').click()
    assert_shows_version(page, web_api, game, mid)
    assert all(page.evaluate(SHOWN)["hands"])  # each hand face up
    shoot(page, "replay-midhand", PHONE)
    shoot(page, "replay-midhand", DESKTOP)
    page.click("#first")
    assert_shows_version(page, web_api, game, 1)
    shoot(page, "replay", PHONE)
    assert page.inner_text("#verify") == "Only the operator can verify a game."
    assert "the seed matches" in page.inner_text("#shuffles")
    assert not seen.errors
    page.context.close()


def test_the_operator_lists_games_verifies_one_and_sees_tampering(browser, base_url, web_api, tamper, tmp_path):
    game = finished_game(web_api, "Audited")
    page, seen = open_page(browser, f"{base_url}/play/operator.html")
    page.fill("#token", OPERATOR_TOKEN)
    page.get_by_role("button", name="Use this token").click()
    page.fill("input[name=player]", "Audited")
    page.check("input[name=status][value=finished]")
    page.get_by_role("button", name="List games").click()
    row = page.locator(f'tr[data-game="{game.id}"]')
    row.wait_for()
    assert page.locator("#games tbody tr").count() >= 1
    row.locator("a").click()  # to the replay, with the operator's token kept by the tab

    page.wait_for_selector("#verify-result")
    assert page.get_attribute("#verify-result", "data-ok") == "true"
    wait_version(page, web_api.view(game)["version"])
    shoot(page, "replay", DESKTOP)
    with page.expect_download() as download:
        page.click("#transcript-link")
    saved = Path(tmp_path) / "transcript.json"
    download.value.save_as(saved)
    transcript = parse(saved.read_text())
    assert str(transcript.game_id) == game.id and len(transcript.events) == web_api.view(game)["version"]

    tamper("UPDATE events SET data = data || '{\"forged\": true}' WHERE game_id = %s AND version = %s", (game.id, 5))
    page.reload()
    page.wait_for_selector("#verify-result")
    assert page.get_attribute("#verify-result", "data-ok") == "false"
    assert "FAILED" in page.inner_text("#verify") and "version 5" in page.inner_text("#verify")
    assert not seen.errors
    page.context.close()

"""The lobby, and a person playing a whole game against the computer: the
table opens at once, shows what the computer just played, offers only what
the service would accept, and writes the log to the person."""

from __future__ import annotations

import time

from tests.conftest import OPERATOR_TOKEN
from tests.web.conftest import (DESKTOP, PHONE, click_move, open_page, play_alone, shoot, wait_streamed,
                                wait_version)

PLAYS = {"CardTrailed", "CardsCaptured", "BuildMade", "BundleStolen", "CardPlucked"}
SHOWN_IS = """want => JSON.stringify([...document.querySelectorAll('#just-played li')]
    .map(n => Number(n.dataset.version))) === JSON.stringify(want)"""


def computers_plays_since_mine(events: list[dict]) -> list[int]:
    """The versions the table should show as just played: the computer's
    latest play since the person's own latest play, within the hand."""
    shown: dict[int, int] = {}
    for e in events:
        if e["type"] == "HandDealt":
            shown.clear()
        elif e["type"] in PLAYS:
            if e["data"]["seat"] == 0:
                shown.clear()
            else:
                shown[e["data"]["seat"]] = e["version"]
    return sorted(shown.values())


def test_the_lobby_makes_a_game_against_the_computer_and_the_person_finishes_it(browser, base_url, web_api):
    page, seen = open_page(browser, f"{base_url}/play/", PHONE)
    page.wait_for_selector("#variant option[value=cassino]", state="attached")
    shoot(page, "lobby", PHONE)
    shoot(page, "lobby", DESKTOP)
    page.fill("#seat-0", "Ann")
    page.fill("#target", "1")  # a short game: over once a side has a point after a hand
    page.fill("#more-options", '{"count_out": false}')  # ... and only then, so that the person plays it out
    page.select_option("#first-dealer", "0")
    game, token = play_alone(page)  # the table opens at once, Ann's
    assert page.inner_text("#role") == "Seat 0: Ann"
    assert [s["name"] for s in web_api.view(game)["seats"]] == ["Ann", "Computer"]
    # Before the first deal: Ann deals; there is nothing to take back.
    page.get_by_role("button", name="Deal", exact=True).wait_for()
    assert page.locator('[data-key="undo"]').count() == 0

    checked_just_played = 0
    for _ in range(400):
        state = web_api.view(game, token=OPERATOR_TOKEN)
        if state["status"] == "finished":
            break
        human_acts = state["awaiting"] is not None and state["awaiting"]["seats"] == [0]
        if not human_acts:  # the computer is still answering the last command
            time.sleep(0.05)
            continue
        wait_version(page, state["version"])
        if state["status"] == "in_progress":
            events = web_api.events(game)
            expected = computers_plays_since_mine(events)
            # The view may come before the stream has brought the events it follows (the page reads
            # it again after its own command): what was just played shows once they are there.
            wait_streamed(page, state["version"])
            page.wait_for_function(SHOWN_IS, arg=expected)
            shown = [int(v) for v in page.locator("#just-played li").evaluate_all("l => l.map(n => n.dataset.version)")]
            assert shown == expected, (shown, expected)
            if expected:
                checked_just_played += 1
                assert page.inner_text("#just-played li").startswith("Computer ")
            # The latest move is the computer's: Ann has no play of hers to take back.
            assert page.locator('[data-key="undo"]').count() == 0
            move = web_api.get(f"{game.url}/moves", token=token).get_json()["moves"][0]
            click_move(page, move)
        else:
            page.get_by_role("button", name="Deal", exact=True).click()
        deadline = time.monotonic() + 10
        while web_api.view(game, token=OPERATOR_TOKEN)["version"] == state["version"]:
            assert time.monotonic() < deadline, "the click changed nothing"
            time.sleep(0.05)
    assert state["status"] == "finished" and checked_just_played > 10
    wait_version(page, state["version"])
    page.wait_for_selector("#result")
    assert "won" in page.inner_text("#result") or "draw" in page.inner_text("#result")
    actors = {e["metadata"]["actor"] for e in web_api.events(game) if e["type"] in ("CardTrailed", "CardsCaptured")}
    assert actors == {"seat:0", "computer:1"}
    # The log is written to Ann: her own moves are "you", the computer's by its name.
    log = page.text_content("#log")
    assert "You deal" not in log and ("You trail" in log or "You take" in log or "You build" in log)
    assert "Ann trails" not in log and "Ann takes" not in log and "Computer " in log
    assert not seen.errors
    page.context.close()

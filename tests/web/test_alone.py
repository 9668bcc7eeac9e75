"""The lobby, and a person playing a whole game against the computer."""

from __future__ import annotations

import time

from tests.conftest import OPERATOR_TOKEN
from tests.web.conftest import DESKTOP, PHONE, click_move, open_page, play_alone, shoot, wait_version


def test_the_lobby_makes_a_game_against_the_computer_and_the_person_finishes_it(browser, base_url, web_api):
    page, seen = open_page(browser, f"{base_url}/play/", PHONE)
    page.wait_for_selector("#variant option[value=cassino]", state="attached")
    shoot(page, "lobby", PHONE)
    shoot(page, "lobby", DESKTOP)
    page.fill("#target", "1")  # a short game: over once a side has a point after a hand
    page.fill("#more-options", '{"count_out": false}')  # ... and only then, so that the person plays it out
    page.select_option("#first-dealer", "0")
    game, token, links = play_alone(page)
    assert "played by the computer" in links

    for _ in range(400):
        state = web_api.view(game, token=OPERATOR_TOKEN)
        if state["status"] == "finished":
            break
        human_acts = (state["status"] in ("waiting", "hand_over") and state["next_dealer"] == 0
                      or state["status"] == "in_progress" and state["turn"] == 0)
        if not human_acts:  # the computer is still answering the last command
            time.sleep(0.05)
            continue
        wait_version(page, state["version"])
        if state["status"] == "in_progress":
            move = web_api.get(f"{game.url}/moves", token=token).get_json()["moves"][0]
            click_move(page, move)
        else:
            page.get_by_role("button", name="Deal", exact=True).click()
        deadline = time.monotonic() + 10
        while web_api.view(game, token=OPERATOR_TOKEN)["version"] == state["version"]:
            assert time.monotonic() < deadline, "the click changed nothing"
            time.sleep(0.05)
    assert state["status"] == "finished"
    wait_version(page, state["version"])
    page.wait_for_selector("#result")
    assert "won" in page.inner_text("#result") or "draw" in page.inner_text("#result")
    actors = {e["metadata"]["actor"] for e in web_api.events(game) if e["type"] in ("CardTrailed", "CardsCaptured")}
    assert actors == {"seat:0", "computer:1"}
    assert not seen.errors
    page.context.close()

"""Clocks, resigning and calling a game off in the browser: the running
seat's time counts down to the view's deadline (by the service's time, even
in a browser whose own clock is an hour wrong), the service's time-out is
told as it comes, and a seat resigns or calls the game off by clicking,
offered only when the service would accept it."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from tests.api.conftest import Game, first_actions
from tests.web.conftest import (DESKTOP, MCC, PHONE, Seen, assert_counts_down_to, countdown_seconds, open_page, shoot,
                               wait_result, wait_version)

RUNNING = "#clocks li.running .countdown"


def created(web_api, variant="cassino", **extra) -> Game:
    answer = web_api.post("/v1/games", json={"variant": variant, "seats": [{"name": "Ann"}, {"name": "Bob"}],
                                            "first_dealer": 1, **extra})
    assert answer.status_code == 201, answer.get_json()
    body = answer.get_json()
    return Game(body["id"], [s["token"] for s in body["seats"]], body)


def table(base_url, game: Game, seat: int | None) -> str:
    link = f"{base_url}/play/table.html?game={game.id}"
    return link if seat is None else f"{link}#token={game.tokens[seat]}"


def seconds_shown(page) -> int:
    return countdown_seconds(page.inner_text(RUNNING))


def test_the_running_clock_counts_down_to_its_deadline_and_the_time_out_is_told(
        browser, base_url, web_api, time_keeper):
    game = created(web_api, clock={"per_move_seconds": 6})
    first_actions(web_api, game.url, game.tokens, dealer=1)  # Bob deals and Ann plays, each in its own time
    ann, ann_seen = open_page(browser, table(base_url, game, 0), PHONE)
    # A spectator whose computer's clock is an hour fast: its countdown is the service's all the same.
    context = browser.new_context(viewport=DESKTOP)
    watcher = context.new_page()
    watcher_seen = Seen(watcher)
    watcher.clock.install(time=datetime.now(UTC) + timedelta(hours=1))
    watcher.goto(table(base_url, game, None))
    deadline = web_api.view(game)["clock"]["deadline"]
    for page in (ann, watcher):
        page.wait_for_selector(RUNNING)
        assert page.inner_text("#clock-rule") == ("Clock: 6 seconds a move; a seat whose time runs out loses the"
                                                  " game for its side.")
        assert page.inner_text("#clocks li.running .clock-name") == "Bob"  # Bob's clock runs: his 6 seconds
        assert page.locator("#clocks li:not(.running) .clock-time").inner_text() == "0:06"  # Ann's time for a move
        assert_counts_down_to(page.inner_text(RUNNING), deadline)
    shoot(ann, "clock", PHONE)
    before = seconds_shown(ann)
    ann.wait_for_timeout(1100)
    assert seconds_shown(ann) in (before - 1, before - 2)  # it counts down by itself, with no new view

    # Bob does not play: the service calls his time, and both pages say so.
    for page, said in ((ann, "Bob's time ran out: you won."), (watcher, "Bob's time ran out: Ann won.")):
        wait_result(page, said, timeout=15_000)
        assert page.locator(RUNNING).count() == 0  # a finished game's clock runs for nobody
    view = web_api.view(game)
    assert (view["result"], view["winners"]) == ("timed_out", [0])
    assert "Bob's time has run out." in ann.text_content("#log")
    assert not ann_seen.errors and not watcher_seen.errors


def end_controls(page) -> list[str]:
    return page.locator('#actions [data-key="abort"], #actions [data-key="resign"]').all_inner_texts()


def test_a_seat_resigns_by_clicking_and_calls_off_only_before_a_play_stands(browser, base_url, web_api):
    game = created(web_api, options={"undo": "free"})
    ann, ann_seen = open_page(browser, table(base_url, game, 0))
    bob, bob_seen = open_page(browser, table(base_url, game, 1), PHONE)
    for page in (ann, bob):
        wait_version(page, 2)
        page.wait_for_selector('[data-key="abort"]')
        assert end_controls(page) == ["Call the game off…", "Resign…"]
    assert web_api.deal(game, token=game.tokens[1]).status_code == 200
    move = web_api.get(f"{game.url}/moves", token=game.tokens[0]).get_json()["moves"][0]
    assert web_api.post(f"{game.url}/play", json=move, token=game.tokens[0]).status_code == 200
    version = web_api.view(game)["version"]
    for page in (ann, bob):  # a play stands: the game can be resigned, no longer called off
        wait_version(page, version)
        page.wait_for_function("() => !document.querySelector('[data-key=\"abort\"]')")
        assert end_controls(page) == ["Resign…"]
    assert web_api.post(f"{game.url}/undo", token=game.tokens[0]).status_code == 200  # Ann takes it back
    for page in (ann, bob):  # ... and the game is as before any play
        wait_version(page, version + 1)
        page.wait_for_selector('[data-key="abort"]')
        assert end_controls(page) == ["Call the game off…", "Resign…"]

    bob.click('[data-key="resign"]')
    assert bob.inner_text("#actions .note:last-of-type") == "Resigning ends the game now, and your side loses it."
    bob.click('[data-key="resign-no"]')  # he thinks better of it
    assert end_controls(bob) == ["Call the game off…", "Resign…"]
    bob.click('[data-key="resign"]')
    shoot(bob, "resign", PHONE)
    bob.click('[data-key="resign-sure"]')
    for page, said in ((ann, "Bob resigned: you won."), (bob, "You resigned: Ann won.")):
        wait_result(page, said)
        assert end_controls(page) == []
    view = web_api.view(game)
    assert (view["result"], view["winners"]) == ("resigned", [0])
    assert not ann_seen.errors and not bob_seen.errors


def test_a_seat_calls_a_game_of_mass_cool_casino_off_and_the_table_says_nobody_won(browser, base_url, web_api):
    game = created(web_api, MCC)
    assert web_api.deal(game, token=game.tokens[1]).status_code == 200
    ann, ann_seen = open_page(browser, table(base_url, game, 0))
    watcher, watcher_seen = open_page(browser, table(base_url, game, None))
    wait_version(ann, web_api.view(game)["version"])
    assert end_controls(watcher) == []  # a spectator has no seat to resign
    ann.click('[data-key="abort"]')
    ann.click('[data-key="abort-sure"]')
    said_to = {ann: "You called the game off: nobody won.", watcher: "Ann called the game off: nobody won."}
    for page, said in said_to.items():
        assert wait_result(page, said) == said
    view = web_api.view(game)
    assert (view["result"], view["winners"]) == ("aborted", [])
    assert not ann_seen.errors and not watcher_seen.errors

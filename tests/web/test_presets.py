"""The moves some presets add, made in the browser: a steal (Stealing
Bundles), a build that takes the top cards of opponents' face-up piles
(African) and plucks (Pluck). Each deals a fixed deck (the operator's
``deck``), so the same position comes every run; the plays before the one
that matters go through the API, and every page at the table is checked for
hidden cards at each step, its event streams included."""

from __future__ import annotations

import random

from tests.api.conftest import ORDERED_DECK
from tests.web.conftest import (DESKTOP, PHONE, SPOKEN, assert_every_move_is_offered, choose_pieces, click_move,
                                move_label, open_page, settle, shoot, wait_version)


def fixed_deck(seed: int) -> list[str]:
    deck = list(ORDERED_DECK)
    random.Random(seed).shuffle(deck)
    return deck


def moves_of(web_api, game, seat: int) -> list[dict]:
    return web_api.get(f"{game.url}/moves", token=game.tokens[seat]).get_json()["moves"]


def table_url(base_url, game, seat: int | None) -> str:
    url = f"{base_url}/play/table.html?game={game.id}"
    return url if seat is None else f"{url}#token={game.tokens[seat]}"


def names_of(view: dict) -> list[str]:
    return [s["name"] for s in view["seats"]]


def press_until(page, key: str, data_key: str | None = None, text: str | None = None, limit: int = 40) -> None:
    """Press ``key`` (Tab, Shift+Tab) until the focus is on the control with
    that ``data-key`` or text: the keyboard alone, as a player without a mouse."""
    for _ in range(limit):
        focused = page.evaluate(f"() => ({{key: document.activeElement.dataset.key,"
                                f" text: ({SPOKEN})(document.activeElement)}})")
        if (data_key is not None and focused["key"] == data_key) or (text is not None and focused["text"] == text):
            return
        page.keyboard.press(key)
    raise AssertionError(f"{key} never reached {data_key or text}")


def test_stealing_bundles_a_capture_then_a_steal_by_keyboard_alone(browser, base_url, web_api):
    game = web_api.create(variant="stealing-bundles", first_dealer=1)
    assert web_api.deal(game, fixed_deck(21)).status_code == 200
    pages = [(*open_page(browser, table_url(base_url, game, 0)), 0),
             (*open_page(browser, table_url(base_url, game, 1), PHONE), 1),
             (*open_page(browser, table_url(base_url, game, None)), None)]
    (ann, ann_seen, _), (bob, bob_seen, _), (watcher, _, _) = pages
    state = settle(web_api, game, pages)
    names = names_of(state)

    capture = {"card": "9C", "action": "capture", "targets": ["9H"]}
    assert capture in moves_of(web_api, game, 0)
    click_move(ann, capture, names)
    wait_version(ann, state["version"] + 1)
    state = settle(web_api, game, pages)
    assert ann_seen.plays == [capture]
    # Bundles lie face up: every page shows the top of Ann's, and Bob may steal it.
    watcher.wait_for_selector('#seats [data-pile="seat:0"] [data-card="9C"]')
    steal = {"card": "9S", "action": "steal", "targets": ["seat:0"]}
    listed = moves_of(web_api, game, 1)
    assert steal in listed
    assert move_label(steal, names) == "Steal P0's bundle with 9 of spades"
    assert_every_move_is_offered(bob, listed, names)
    choose_pieces(bob, steal)
    button = bob.get_by_role("button", name=move_label(steal, names), exact=True)
    assert button.locator("bdi").all_text_contents() == ["P0"]  # the victim's name kept as words (cards.js, withFaces)
    bob.click('[data-key="clear"]')

    # With the keyboard alone: the card, then the bundle (before the hand on the page), then the move.
    bob.focus('[data-key="hand-9S"]')
    bob.keyboard.press("Enter")
    press_until(bob, "Shift+Tab", data_key="pile-seat:0")
    bob.keyboard.press("Enter")
    assert bob.get_attribute('[data-key="pile-seat:0"]', "aria-pressed") == "true"
    press_until(bob, "Tab", text=move_label(steal, names))
    bob.keyboard.press("Enter")
    wait_version(bob, state["version"] + 1)
    state = settle(web_api, game, pages)
    assert bob_seen.plays == [steal]
    assert [s["captured_count"] for s in state["seats"]] == [0, 3] and state["seats"][1]["pile_top"] == "9S"
    assert "steals P0's bundle with 9 of spades" in watcher.locator("#log").evaluate(SPOKEN)
    for page, _, _ in pages:
        page.context.close()


#: African, three seats, dealer seat 0 (play goes to the right), after
#: ``fixed_deck(149)``: the plays before seat 1's turn.
AFRICAN_PLAYS = [
    {"card": "3D", "action": "capture", "targets": ["3H"]},
    {"card": "10H", "action": "capture", "targets": ["10D"]},
    {"card": "KD", "action": "capture", "targets": ["JS", "2H"]},
    {"card": "QD", "action": "trail"},
    {"card": "AD", "action": "build", "targets": ["QD"], "value": 13},
    {"card": "5H", "action": "trail"},
    {"card": "5C", "action": "capture", "targets": ["5H"]},
]


def test_african_a_build_with_the_top_cards_of_two_opponents_piles(browser, base_url, web_api):
    game = web_api.create(players=3, variant="african", first_dealer=0)
    assert web_api.deal(game, fixed_deck(149)).status_code == 200
    for move in AFRICAN_PLAYS:
        turn = web_api.view(game)["turn"]
        assert web_api.post(f"{game.url}/play", json=move, token=game.tokens[turn]).status_code == 200
    before = web_api.view(game)
    assert before["turn"] == 1 and [s["pile_top"] for s in before["seats"]] == ["KD", "10H", "5C"]
    pages = [(*open_page(browser, table_url(base_url, game, 1)), 1),
             (*open_page(browser, table_url(base_url, game, 0), PHONE), 0),
             (*open_page(browser, table_url(base_url, game, None)), None)]
    settle(web_api, game, pages)
    mine, mine_seen, _ = pages[0]
    names = names_of(before)
    listed = moves_of(web_api, game, 1)
    # A pile named three times: three cards from its top, which the button says.
    build = {"card": "10S", "action": "build", "value": 13,
             "targets": ["B1", "seat:0", "seat:0", "seat:0", "seat:2", "seat:2", "seat:2", "seat:2"]}
    assert build in listed and any(t.startswith("seat:") for m in listed if m != build for t in m.get("targets", []))
    assert move_label(build, names) == ("Build 13 with 10 of spades on B1, the top 3 cards of P0's pile "
                                        "and the top 4 cards of P2's pile")
    assert_every_move_is_offered(mine, listed, names)  # 23 moves: captures, builds, builds with piles

    choose_pieces(mine, build)  # chosen, not yet made: the screenshots show the choice and the moves it fits
    shoot(mine, "table-african", DESKTOP)
    shoot(mine, "table-african", PHONE)
    mine.get_by_role("button", name=move_label(build, names), exact=True).click()
    wait_version(mine, before["version"] + 1)
    after = settle(web_api, game, pages)
    assert mine_seen.plays == [build]
    assert [s["captured_count"] for s in after["seats"]] == [
        before["seats"][0]["captured_count"] - 3, before["seats"][1]["captured_count"],
        before["seats"][2]["captured_count"] - 4]
    build_now = next(i for i in after["table"] if i["kind"] == "build")
    assert "10S" in build_now["cards"] and build_now["owner"] == 1
    for page, _, _ in pages:
        page.context.close()


def test_pluck_before_ones_play_and_just_after_it(browser, base_url, web_api):
    game = web_api.create(variant="pluck", first_dealer=1)
    assert web_api.deal(game, fixed_deck(0)).status_code == 200
    pages = [(*open_page(browser, table_url(base_url, game, 0)), 0),
             (*open_page(browser, table_url(base_url, game, 1), PHONE), 1),
             (*open_page(browser, table_url(base_url, game, None)), None)]
    (ann, ann_seen, _), (bob, bob_seen, _), _ = pages
    state = settle(web_api, game, pages)

    # Ann plucks before her play: a card of the table is the move's card.
    listed = moves_of(web_api, game, 0)
    pluck = next(m for m in listed if m["action"] == "pluck")
    assert_every_move_is_offered(ann, listed, None)
    click_move(ann, pluck)
    wait_version(ann, state["version"] + 1)
    state = settle(web_api, game, pages)
    listed = moves_of(web_api, game, 0)
    assert state["turn"] == 0 and not any(m["action"] == "pluck" for m in listed)  # once a deal
    assert ann.locator("#table-items button").count() == 0  # nothing on the table to choose first now
    trail = next(m for m in listed if m["action"] == "trail")
    click_move(ann, trail)
    wait_version(ann, state["version"] + 1)
    state = settle(web_api, game, pages)

    # Bob plays, then plucks just after his play, while it is Ann's turn.
    trail = next(m for m in moves_of(web_api, game, 1) if m["action"] == "trail")
    click_move(bob, trail)
    wait_version(bob, state["version"] + 1)
    state = settle(web_api, game, pages)
    assert state["turn"] == 0
    listed = moves_of(web_api, game, 1)
    assert listed and all(m["action"] == "pluck" for m in listed)
    assert "you may still choose a card on the table" in bob.inner_text("#actions")
    assert_every_move_is_offered(bob, listed, None)
    click_move(bob, listed[0])
    wait_version(bob, state["version"] + 1)
    state = settle(web_api, game, pages)
    assert ann_seen.plays[0] == pluck and bob_seen.plays == [trail, listed[0]]
    assert [s["captured_count"] for s in state["seats"]] == [1, 1] and not moves_of(web_api, game, 1)
    for page, _, _ in pages:
        page.context.close()

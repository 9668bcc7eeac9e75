"""A crowded table in the browser never dead-ends: on a Cassino table of
20 loose cards (a fixed deck), where the first page of ``/moves`` is cut
and leaves out the small captures, a player makes a small capture (two
cards summing to the hand card), a trail and a build by clicking, each
chosen from the moves of the card picked (``/moves`` narrowed to it); and
in Mass Cool Casino a seat bets more cards than the first page of its bets
reaches."""

from __future__ import annotations

from domain import full_deck
from tests.api.masscool import HttpTable, deck_codes
from tests.web.conftest import DESKTOP, OFFERED, click_move, move_label, open_page, shoot, wait_version

#: The 20 cards the table holds once both seats have trailed two rounds of cards.
TABLE = "AS 2S 3S 4S 5S 6S 7S 8S 9S 10S AD 3D 4D 5D 6D 7D 8D 4C 3C 5C".split()


def crowded_deck() -> list[str]:
    """Seat 1 deals: the first four of TABLE to the table, the next sixteen
    to the hands of the first two rounds (each trailed), and then Ann's
    10H KC 2H 9D and Bob's courts."""
    laid, trailed = TABLE[:4], TABLE[4:]
    ann, bob = trailed[0::2], trailed[1::2]
    top = [*ann[0:2], *laid[0:2], *bob[0:2], *ann[2:4], *laid[2:4], *bob[2:4],
           *ann[4:6], *bob[4:6], *ann[6:8], *bob[6:8],
           "10H", "KC", "JS", "QS", "2H", "9D", "JD", "QD"]
    return top + [c.code for c in full_deck() if c.code not in top]


def trail(web_api, game, seat: int) -> None:
    card = web_api.view(game, token=game.tokens[seat])["hand"][0]
    answer = web_api.post(f"{game.url}/play", json={"card": card, "action": "trail"}, token=game.tokens[seat])
    assert answer.status_code == 200, answer.get_json()


def test_a_small_capture_a_trail_and_a_build_on_twenty_loose_cards(browser, base_url, web_api):
    game = web_api.create(first_dealer=1)
    assert web_api.deal(game, crowded_deck()).status_code == 200
    for _ in range(16):
        trail(web_api, game, web_api.view(game)["turn"])
    view = web_api.view(game, token=game.tokens[0])
    assert len(view["table"]) == 20 and view["hand"] == ["10H", "KC", "2H", "9D"] and view["turn"] == 0
    first = web_api.get(f"{game.url}/moves", token=game.tokens[0]).get_json()
    capture = {"card": "10H", "action": "capture", "targets": ["6D", "4C"]}
    assert first["truncated"] and capture not in first["moves"]  # the first page alone would dead-end

    ann, _ = open_page(browser, f"{base_url}/play/table.html?game={game.id}#token={game.tokens[0]}")
    wait_version(ann, view["version"])
    ann.wait_for_selector("#moves-cut")  # the page says the list is cut, and how to see the rest
    ann.click('[data-key="hand-10H"]')
    ann.wait_for_selector("#narrow-cut")  # even 10H's own moves fill more than a page: said, with a way on
    assert ann.locator('[data-key="show-more"]').count() == 1
    shoot(ann, "crowded-table", DESKTOP)
    ann.click('[data-key="clear"]')
    click_move(ann, capture)
    wait_version(ann, view["version"] + 1)
    assert {"6D", "4C"}.isdisjoint(c.get("card") for c in web_api.view(game)["table"])
    trail(web_api, game, 1)

    trailing = {"card": "KC", "action": "trail"}
    click_move(ann, trailing)
    wait_version(ann, view["version"] + 3)
    trail(web_api, game, 1)

    build = {"card": "2H", "action": "build", "value": 9, "targets": ["7S"]}
    ann.click('[data-key="hand-2H"]')
    ann.click('[data-key="table-7S"]')
    ann.get_by_role("button", name=move_label(build), exact=True).wait_for()
    offered = ann.evaluate(OFFERED)
    assert all(label.startswith(("Build", "Take")) and " with 2 of hearts" in label for label in offered), offered
    ann.get_by_role("button", name=move_label(build), exact=True).click()
    wait_version(ann, view["version"] + 5)
    builds = [it for it in web_api.view(game)["table"] if it["kind"] == "build"]
    assert [(b["value"], b["owner"]) for b in builds] == [(9, 0)]


def test_a_mass_cool_casino_bet_past_the_listed_bound(browser, base_url, web_api):
    table = HttpTable(web_api, 2, deck=deck_codes(2, 0, 10, stock="KD 2D"))
    game = table.game
    listed = web_api.get(f"{game.url}/moves", token=game.tokens[0]).get_json()
    cards = table.money(0)[:6]
    assert listed["truncated"] and max(len(m.get("cards", [])) for m in listed["moves"]) < len(cards)
    ann, _ = open_page(browser, f"{base_url}/play/table.html?game={game.id}#token={game.tokens[0]}")
    version = table.view()["version"]
    wait_version(ann, version)
    for card in cards:
        ann.click(f'[data-key="money-{card}"]')
    ann.click('[data-key="bet"]')
    wait_version(ann, version + 1)
    assert len(table.money(0)) == 4

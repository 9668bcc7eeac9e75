"""Ratings, pairing and rematches in the browser: two people (two browser
contexts) press "Play now" with the same choices and land at one rated
game; one resigns, both see their ratings move; one offers a rematch, the
other accepts, and both are taken to the new game. Each player's page and
the leaderboard show the ratings."""

from __future__ import annotations

from service.web.current import services
from tests.web.test_players import open_lobby, register


def play_now(page) -> None:
    page.select_option("#pair-variant", "cassino")
    page.fill("#pair-seats", "2")
    page.select_option("#pair-clock", "per_move:600")
    page.check("#pair-rated")
    page.click("#pair")
    page.wait_for_selector("#stop-pairing")


def table_game(page, leaving: str = "") -> str:
    """The game whose table the page is taken to (from the table of game ``leaving``, if given)."""
    page.wait_for_url(lambda url: "/play/table.html?game=" in url and not (leaving and leaving in url))
    page.wait_for_selector("body[data-version]")
    return page.url.split("game=")[1]


def test_two_players_are_paired_play_rated_and_rematch(browser, base_url, web_app):
    ann, _, _ = open_lobby(browser, base_url)
    ann_player = register(ann, "Ann")
    ann.wait_for_selector("#my-ratings:has-text('No rating yet')")
    bob, _, _ = open_lobby(browser, base_url)
    bob_player = register(bob, "Bob")
    # Waiting may be stopped, and asked again.
    play_now(ann)
    ann.click("#stop-pairing")
    ann.wait_for_selector("#pairing-status:has-text('You stopped waiting.')")
    play_now(ann)
    play_now(bob)
    assert services(web_app).pairer.tick() == 2
    game = table_game(ann)
    assert table_game(bob) == game

    ann.get_by_role("button", name="Resign…").click()
    ann.get_by_role("button", name="Resign now").click()
    for page, change in ((ann, "−"), (bob, "+")):
        page.wait_for_selector("#rating-changes")
        assert "1500? → " in page.inner_text("#rating-changes") and f"({change}" in page.inner_text("#rating-changes")
    bob_rating = bob.locator("#rating-changes li", has_text="Bob").locator(".rating").inner_text()

    bob.get_by_role("button", name="Offer a rematch").click()
    bob.wait_for_selector("#rematch-note:has-text('You offered a rematch')")
    ann.wait_for_selector("#rematch-note:has-text('Bob would play again.')")
    ann.get_by_role("button", name="Accept the rematch").click()
    rematch = table_game(ann, game)
    assert table_game(bob, game) == rematch
    assert bob.inner_text("#role").endswith(": Bob")

    # Bob's page and the lobby show his rating; the leaderboard leaves a provisional one out.
    bob.goto(f"{base_url}/play/player.html?id={bob_player['id']}")
    bob.wait_for_selector("#finished-games li")
    assert bob.inner_text("h1") == "Bob"
    assert bob.inner_text('tr[data-variant="cassino"] td >> nth=0') == bob_rating
    assert bob.locator(f'#finished-games li[data-game="{game}"]').inner_text().endswith("won (resigned)")
    ann.goto(f"{base_url}/play/")
    ann.wait_for_selector("#my-ratings a")
    assert "Cassino 1" in ann.inner_text("#my-ratings")
    ann.goto(f"{base_url}/play/leaderboard.html?variant=cassino")
    ann.wait_for_selector("#ratings-area p")
    assert ann.locator(f'tr[data-player="{ann_player["id"]}"]').count() == 0

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


def shown(rating: dict) -> str:
    """A rating as the pages write it (ratings.js ``ratingText``)."""
    return f"{rating['rating']}{'?' if rating['provisional'] else ''}"


def test_the_lobby_the_table_and_your_games_show_each_players_rating_beside_the_name(browser, base_url, web_api):
    ann, _, _ = open_lobby(browser, base_url)
    ann_player = register(ann, "Ann")
    bob, seen, _ = open_lobby(browser, base_url)
    bob_player = register(bob, "Bob")
    ann_token, bob_token = ann_player["token"], bob_player["token"]
    # A listed game where Ann waits for a player, and a rated game of Ann and Bob, dealt.
    waiting = web_api.post("/v1/games", json={"seats": [{"me": True}, {"open": True}]}, token=ann_token)
    listed = waiting.get_json()["id"]
    made = web_api.post("/v1/games", json={"seats": [{"open": True}] * 2, "rated": True, "first_dealer": 0})
    rated = made.get_json()["id"]
    for seat, token in enumerate((ann_token, bob_token)):
        assert web_api.post(f"/v1/games/{rated}/join", json={"seat": seat}, token=token).status_code == 200
    assert web_api.post(f"/v1/games/{rated}/deal", json={}, token=ann_token).status_code == 200

    # Before the rated game ends, everyone is where everyone starts.
    bob.click("#look-again")
    bob.wait_for_selector(f'#open-games li[data-game="{listed}"]:has-text("Cassino: Ann (1500?), an open seat.")')
    bob.wait_for_selector(f'#my-games li[data-game="{rated}"]:has-text("Cassino against Ann (1500?)")')
    bob.locator(f'#my-games li[data-game="{rated}"]').get_by_role("link").click()
    bob.wait_for_url(f"**/play/table.html?game={rated}")
    for seat in (0, 1):
        bob.wait_for_selector(f'#seats [data-seat="{seat}"] .seat-rating:has-text("1500?")')
    assert bob.inner_text('#seats [data-seat="0"] .seat-name').startswith("Ann 1500?")
    assert bob.inner_text('#seats [data-seat="1"] .seat-name').startswith("Bob 1500? (you")

    # Ann resigns: Bob's table shows both ratings moved, beside the names; so do his lobby's lists.
    finished = web_api.post(f"/v1/games/{rated}/resign", token=ann_token).get_json()["game"]
    after = {c["seat"]: shown(c["after"]) for c in finished["rating_changes"]}
    assert after[0] != "1500?" != after[1]
    bob.wait_for_selector("#rating-changes")
    for seat in (0, 1):
        bob.wait_for_selector(f'#seats [data-seat="{seat}"] .seat-rating:text-is(" {after[seat]}")')
    bob.goto(f"{base_url}/play/")
    bob.wait_for_selector(f'#my-games li[data-game="{rated}"]:has-text("Cassino against Ann ({after[0]})")')
    bob.wait_for_selector(f'#open-games li[data-game="{listed}"]:has-text("Cassino: Ann ({after[0]}), an open seat.")')
    # A guest has no rating: after a guest takes the open seat, nothing is beside the guest's name.
    guest = web_api.post(f"/v1/games/{listed}/join", json={"name": "Gus"}).get_json()["token"]
    ann.goto(f"{base_url}/play/table.html?game={listed}#token={guest}")
    ann.wait_for_selector(f'#seats [data-seat="0"] .seat-rating:text-is(" {after[0]}")')
    assert ann.locator('#seats [data-seat="1"] .seat-rating').count() == 0
    assert ann.inner_text('#seats [data-seat="1"] .seat-name').startswith("Gus (you")
    assert not seen.errors

"""Players in the browser: two browser contexts are two people. One
registers a name, creates a game with an open seat and takes the other seat
as that player; the other registers, finds the game among the open games,
joins it, and both play; each is told live when the game waits for them,
and a page closed and opened again still knows the player and their games
(whose turn, the deadline). A game not listed is found by its invitation
link alone. No player token is ever in an address the browser asked for."""

from __future__ import annotations

from datetime import datetime

import pytest

from tests.api.conftest import Game
from tests.web.conftest import PHONE, Seen, assert_counts_down_to, click_move, countdown_seconds, shoot, wait_version

LOBBY = "/play/"


def open_lobby(browser, base_url, context=None):
    """A page of the lobby, in a new context (a new person's browser) unless given one."""
    context = context or browser.new_context(viewport=PHONE)
    page = context.new_page()
    seen = Seen(page)
    urls: list[str] = []
    page.on("request", lambda request: urls.append(request.url))
    page.goto(f"{base_url}{LOBBY}")
    page.wait_for_selector("#variant option[value=cassino]", state="attached")
    return page, seen, urls


def register(page, name: str) -> dict:
    """Play as ``name`` on this browser; the player the page keeps (its id, name and token)."""
    page.fill("#player-name", name)
    page.get_by_role("button", name="Play as this name").click()
    page.wait_for_selector("#you")
    assert page.inner_text("#you strong") == name
    return page.evaluate("JSON.parse(localStorage.getItem('casino.player'))")


def create_with_open_seat(page, *, listed: bool = True, clock: str = "") -> str:
    """Seat 0 is this browser's player's, who sits down in it at the creation, seat 1 open; seat 0 deals
    first. The creator is taken to the new game's table, which waits for a player: the game's id."""
    page.select_option("#seat-kind-0", "me")
    page.select_option("#seat-kind-1", "open")
    if not listed:
        page.uncheck("#listed")
    page.select_option("#clock", clock)
    page.select_option("#first-dealer", "0")
    page.click("#create")
    page.wait_for_url("**/play/table.html?game=*")
    page.wait_for_selector("#waiting")
    return page.url.split("game=")[1].split("#")[0]


def my_game(page, game_id: str):
    return page.locator(f'#my-games li[data-game="{game_id}"]')


def assert_token_never_in_an_address(urls: list[str], *tokens: str) -> None:
    assert urls and not [u for u in urls for t in tokens if t in u]


def assert_first_action_has_its_own_time(page, web_api, game, seat: int) -> None:
    """On the seat's own page, its clock runs for its first action with the
    first action's own time (docs/rules.md): the longer of the seat's time and
    ``first_action_seconds``, at least 30 seconds, from the last event on."""
    view = web_api.view(game)
    clock = view["clock"]
    assert clock["seat"] == seat and view["turn"] == seat
    own = max(clock["per_move_seconds"], clock["first_action_seconds"])
    last = datetime.fromisoformat(web_api.events(game)[-1]["recorded_at"])
    assert (datetime.fromisoformat(clock["deadline"]) - last).total_seconds() == pytest.approx(own, abs=0.01)
    wait_version(page, view["version"])
    running = page.locator(f'#clocks li.running[data-seat="{seat}"]')
    assert running.locator(".clock-name").inner_text() == f"{view['seats'][seat]['name']} (you)"
    shown = running.locator(".countdown").inner_text()
    assert_counts_down_to(shown, clock["deadline"])
    # The page knows the service's time to the second (assert_counts_down_to): the first action's time, give or take.
    assert own - 5 <= countdown_seconds(shown) <= own + 2 and countdown_seconds(shown) >= 30


def test_two_players_meet_in_the_lobby_play_and_find_their_games_again(browser, base_url, web_api):
    ann, ann_seen, ann_urls = open_lobby(browser, base_url)
    ann_player = register(ann, "Ann")
    game_id = create_with_open_seat(ann, clock="per_move:600")
    game = Game(game_id, [ann_player["token"]], {})
    view = web_api.view(game)
    assert [(s["name"], s["open"]) for s in view["seats"]] == [("Ann", False), (None, True)]
    assert view["clock"]["per_move_seconds"] == 600 and view["clock"]["first_action_seconds"] == 30
    # Ann's table says what it waits for, and how to invite a player.
    assert ann.inner_text("#waiting h2") == "Waiting for a player to join"
    assert ann.input_value("#invitation").endswith(f"/play/?join={game_id}")
    assert ann.inner_text('#facts [data-fact="status"]') == "Waiting for a player to join"
    assert ann.inner_text("#role") == "Seat 0: Ann"
    shoot(ann, "table-waiting", PHONE)
    ann.goto(f"{base_url}{LOBBY}")
    ann.wait_for_selector(f'#my-games li[data-game="{game_id}"]')
    assert my_game(ann, game_id).get_attribute("data-your-turn") == "false"  # nobody deals while a seat is open
    assert "Waiting for a player to join" in my_game(ann, game_id).inner_text()

    bob, bob_seen, bob_urls = open_lobby(browser, base_url)
    bob.wait_for_selector(f'#open-games li[data-game="{game_id}"]')
    offered = bob.locator(f'#open-games li[data-game="{game_id}"]')
    assert offered.inner_text().startswith("Cassino: Ann (1500?), an open seat.")  # a player's rating beside her name
    assert "Clock: 10 minutes a move" in offered.inner_text()
    assert offered.get_by_role("button", name="Join").is_disabled()  # a name first
    bob_player = register(bob, "Bob")
    shoot(bob, "lobby-open-games", PHONE)
    bob.locator(f'#open-games li[data-game="{game_id}"]').get_by_role("button", name="Join").click()
    bob.wait_for_url(f"**/play/table.html?game={game_id}")
    bob.wait_for_selector("body[data-version]")
    assert bob.inner_text("#role") == "Seat 1: Bob"
    assert bob.locator("#seat-link-box").is_hidden()  # a player's seat opens from the lobby, not by a link

    # Ann's lobby is told at once that the game now waits for her to deal, with her time running.
    ann.wait_for_selector(f'#my-games li[data-game="{game_id}"][data-your-turn="true"]')
    assert "Your turn" in my_game(ann, game_id).inner_text()
    deadline = web_api.view(game)["clock"]["deadline"]
    assert_counts_down_to(my_game(ann, game_id).locator(".countdown").inner_text(), deadline)
    shoot(ann, "lobby-your-turn", PHONE)
    my_game(ann, game_id).get_by_role("link").click()
    ann.wait_for_url(f"**/play/table.html?game={game_id}")
    ann.wait_for_selector("body[data-version]")
    assert ann.inner_text("#role") == "Seat 0: Ann"
    before = web_api.view(game)["version"]
    ann.get_by_role("button", name="Deal", exact=True).click()
    wait_version(ann, before + 1)
    assert_first_action_has_its_own_time(bob, web_api, game, 1)

    tokens = {0: ann_player["token"], 1: bob_player["token"]}
    pages = {0: ann, 1: bob}
    for _ in range(2):  # Bob plays first, then Ann: each by clicking
        view = web_api.view(game)
        seat = view["turn"]
        wait_version(pages[seat], view["version"])
        move = web_api.get(f"{game.url}/moves", token=tokens[seat]).get_json()["moves"][0]
        click_move(pages[seat], move, ["Ann", "Bob"])
        wait_version(pages[seat], view["version"] + 1)
    view = web_api.view(game)
    assert [e["data"]["seat"] for e in web_api.events(game)[-2:]] == [1, 0]

    # Bob closes his page; his browser opened again knows him, and his game, which waits for him.
    context = bob.context
    bob.close()
    bob, bob_seen, more_urls = open_lobby(browser, base_url, context)
    bob.wait_for_selector(f'#my-games li[data-game="{game_id}"][data-your-turn="true"]')
    assert bob.inner_text("#you strong") == "Bob"
    assert bob.locator(f'#open-games li[data-game="{game_id}"]').count() == 0  # no open seat: no longer offered
    assert my_game(bob, game_id).locator(".countdown").count() == 1
    my_game(bob, game_id).get_by_role("link").click()
    wait_version(bob, view["version"])
    assert bob.inner_text("#role") == "Seat 1: Bob" and bob.locator("#hand").count() == 1

    # Bob back in the lobby, Ann resigns (from another client of hers): his list is told at once how
    # the game ended for him, and hers says it for her.
    bob.goto(f"{base_url}{LOBBY}")
    bob.wait_for_selector(f'#my-games li[data-game="{game_id}"]')
    assert web_api.post(f"{game.url}/resign", token=ann_player["token"]).status_code == 200
    bob.wait_for_selector(f'#my-games li[data-game="{game_id}"] .outcome')  # his player stream told his page
    assert my_game(bob, game_id).locator(".outcome").inner_text() == "You won (by resignation)"
    ann.goto(f"{base_url}{LOBBY}")
    ann.wait_for_selector(f'#my-games li[data-game="{game_id}"] .outcome')
    assert my_game(ann, game_id).locator(".outcome").inner_text() == "You lost (by resignation)"
    assert_token_never_in_an_address(ann_urls, ann_player["token"], bob_player["token"])
    assert_token_never_in_an_address(bob_urls + more_urls, ann_player["token"], bob_player["token"])

    # Ann moves who she is to a third browser with a one-time code, and finds her games there.
    ann.locator("#devices summary").click()
    ann.click("#transfer")
    code = ann.inner_text("#code")
    third, third_seen, third_urls = open_lobby(browser, base_url)
    third.fill("#claim-code", code)
    third.get_by_role("button", name="Play as me here").click()
    third.wait_for_selector("#you")
    assert third.inner_text("#you strong") == "Ann"
    third.wait_for_selector(f'#my-games li[data-game="{game_id}"] .outcome')
    finished = my_game(third, game_id)
    assert finished.locator("a").get_attribute("href").endswith(f"/play/replay.html?game={game_id}")
    assert finished.locator("a").inner_text() == "Cassino against Bob (1500?)"  # unrated: his rating unmoved
    shoot(third, "lobby-moved-here", PHONE)
    assert web_api.get("/v1/players/me", token=ann_player["token"]).status_code == 401  # moved, not copied
    assert code.replace("-", "") not in "".join(third_urls)
    assert not ann_seen.errors and not bob_seen.errors and not third_seen.errors


def test_a_player_with_sixty_games_pages_through_them(browser, base_url, web_api):
    ann = web_api.post("/v1/players", json={"name": "Ann"}).get_json()
    made = []
    for n in range(60):
        seats = [{"me": True}, {"name": f"Rival {n}", "computer": True}] if n % 2 else [{"me": True}, {"open": True}]
        answer = web_api.post("/v1/games", json={"seats": seats}, token=ann["token"])
        assert answer.status_code == 201, answer.get_json()
        made.append(answer.get_json()["id"])
    page, seen, _ = open_lobby(browser, base_url)
    page.evaluate("player => localStorage.setItem('casino.player', JSON.stringify(player))", ann)
    page.reload()
    shown: list[str] = []
    for number in (1, 2, 3):
        page.wait_for_selector(f'#my-games[data-page="{number}"]')
        rows = page.locator("#my-games li")
        shown += [rows.nth(i).get_attribute("data-game") for i in range(rows.count())]
        if number == 1:
            assert "Cassino against Rival 59" in rows.first.inner_text()
            assert "Waiting for a player to join" in rows.nth(1).inner_text()
        if number < 3:
            page.click("#older-games")
    assert page.locator("#older-games").count() == 0 and shown == made[::-1]
    page.click("#newer-games")
    page.wait_for_selector('#my-games[data-page="2"]')
    assert not seen.errors


def test_a_game_not_listed_is_joined_by_its_invitation_link(browser, base_url, web_api):
    ann, ann_seen, _ = open_lobby(browser, base_url)
    register(ann, "Ann")
    game_id = create_with_open_seat(ann, listed=False)
    invitation = ann.input_value("#invitation")
    assert invitation.endswith(f"/play/?join={game_id}")
    lobby = web_api.get("/v1/lobby?limit=200").get_json()["games"]
    assert game_id not in [g["id"] for g in lobby]

    cy, cy_seen, _ = open_lobby(browser, base_url)
    assert cy.locator(f'#open-games li[data-game="{game_id}"]').count() == 0
    cy.goto(invitation)
    register(cy, "Cy")
    cy.locator(f'#open-games li[data-game="{game_id}"]').get_by_role("button", name="Join").click()
    cy.wait_for_url(f"**/play/table.html?game={game_id}")
    cy.wait_for_selector("body[data-version]")
    assert cy.inner_text("#role") == "Seat 1: Cy"
    assert [s["name"] for s in web_api.view(Game(game_id, [], {}))["seats"]] == ["Ann", "Cy"]
    assert not ann_seen.errors and not cy_seen.errors

"""Playing in the browser: two seats in two browser contexts play a whole
hand by clicking, a spectator watches, and at every step each page shows
what the API shows that caller and holds no card hidden from it."""

from __future__ import annotations

from urllib.parse import parse_qs, urlsplit

from tests.api.conftest import ACE_MADE_SURE_OF, ONE_HAND, ORDERED_DECK
from tests.web.conftest import (DESKTOP, PHONE, SPOKEN, click_move, hold_streams, move_label, open_page, settle, shoot,
                               spoken, wait_result, wait_streamed, wait_version)


def test_two_seats_play_a_whole_hand_by_clicking_and_nobody_sees_a_hidden_card(browser, base_url, web_api):
    game = web_api.create(options=ONE_HAND, first_dealer=1)
    ann, ann_seen = open_page(browser, f"{base_url}/play/table.html?game={game.id}#token={game.tokens[0]}")
    bob, bob_seen = open_page(browser, f"{base_url}/play/table.html?game={game.id}#token={game.tokens[1]}", PHONE)
    watcher, watcher_seen = open_page(browser, f"{base_url}/play/table.html?game={game.id}")
    pages = [(ann, ann_seen, 0), (bob, bob_seen, 1), (watcher, watcher_seen, None)]
    assert "#token" not in ann.url  # the token left the address bar for the tab's storage

    settle(web_api, game, pages)
    bob.get_by_role("button", name="Deal", exact=True).click()
    wait_version(bob, 3)
    state = settle(web_api, game, pages)
    shoot(ann, "table", DESKTOP)
    shoot(bob, "table", PHONE)
    plays = 0
    while state["status"] == "in_progress":
        seat = state["turn"]
        page = pages[seat][0]
        move = web_api.get(f"{game.url}/moves", token=game.tokens[seat]).get_json()["moves"][-1]
        click_move(page, move)
        wait_version(page, state["version"] + 1)
        state = settle(web_api, game, pages)
        plays += 1
    assert plays == 48 and state["status"] == "finished"
    for page, _, _ in pages:
        page.wait_for_selector("#result")
        assert page.locator(".score table tbody tr").count() >= 2  # the count, category by category
    assert ann.locator("#log li").count() == state["version"]  # each event once, across reconnections
    for _, seen, _ in pages:  # a fresh ticket for every connection, resuming after the last event seen
        queries = [parse_qs(urlsplit(url).query) for url in seen.streams]
        tickets = [q["ticket"][0] for q in queries]
        assert len(tickets) >= 3 and len(set(tickets)) == len(tickets)
        assert queries[0]["after"] == ["0"] and all(int(q["after"][0]) > 0 for q in queries[1:])
    for page, _, _ in pages:
        page.context.close()


def test_a_refused_command_shows_the_services_sentence_and_keyboard_alone_plays(browser, base_url, web_api):
    game = web_api.create(first_dealer=1)
    web_api.deal(game)
    ann, _ = open_page(browser, f"{base_url}/play/table.html?game={game.id}#token={game.tokens[0]}")
    wait_version(ann, 3)
    assert ann.locator('[data-key="undo"]').count() == 0  # no play of Ann's to take back yet
    # With the keyboard alone: Tab to a card of the hand, Enter, Tab to the move, Enter.
    move = next(m for m in web_api.get(f"{game.url}/moves", token=game.tokens[0]).get_json()["moves"]
                if m["action"] == "trail")
    ann.focus(f'[data-key="hand-{move["card"]}"]')
    ann.keyboard.press("Enter")
    assert ann.evaluate("document.activeElement.dataset.key") == f"hand-{move['card']}"  # kept across the redraw
    button = ann.get_by_role("button", name=move_label(move), exact=True)
    # The move reads in words with the card's face, as the hand shows it, not its code.
    card = move["card"]
    assert button.locator(f'.card[data-card="{card}"] svg.suit').count() == 1
    assert card not in button.inner_text() and button.inner_text().startswith("Trail")
    for _ in range(20):
        if ann.evaluate(f"({SPOKEN})(document.activeElement)") == move_label(move):
            break
        ann.keyboard.press("Tab")
    ann.keyboard.press("Enter")
    wait_version(ann, 4)
    assert button.count() == 0 and move["card"] not in web_api.view(game, token=game.tokens[0])["hand"]
    wait_streamed(ann, 4)
    trailed = ann.locator('#log li[data-version="4"]')  # the log says it the same way
    assert trailed.locator(f'.card[data-card="{card}"]').count() == 1 and card not in trailed.inner_text()
    assert trailed.evaluate(SPOKEN) == f"4. {spoken(f'You trail {card}.')}"
    ann.keyboard.press("Tab")
    focused = ann.evaluate("""() => ({tag: document.activeElement.tagName,
                                       outline: getComputedStyle(document.activeElement).outlineStyle})""")
    assert focused["tag"] in ("BUTTON", "A") and focused["outline"] == "solid"  # focus is visible

    # Ann's play is the latest: she may ask to take it back. The page stops hearing of the game, Bob
    # plays, and the offer Ann still sees is refused with the service's own sentence.
    wait_streamed(ann, 4)
    ask = ann.get_by_role("button", name="Ask to take back my last play")
    ask.wait_for()
    hold_streams(ann)
    bob_move = web_api.get(f"{game.url}/moves", token=game.tokens[1]).get_json()["moves"][0]
    assert web_api.post(f"{game.url}/play", json=bob_move, token=game.tokens[1]).status_code == 200
    ask.click()
    error = ann.locator("#error")
    error.wait_for(state="visible")
    assert error.inner_text() == "You can take back only your own play, and only the latest one."
    ann.context.close()


def test_a_play_is_taken_back_by_leave_and_both_tables_show_a_claim_as_it_counted(browser, base_url, web_api):
    game = web_api.create(first_dealer=1)
    web_api.deal(game)
    ann, ann_seen = open_page(browser, f"{base_url}/play/table.html?game={game.id}#token={game.tokens[0]}")
    bob, bob_seen = open_page(browser, f"{base_url}/play/table.html?game={game.id}#token={game.tokens[1]}")
    wait_version(ann, 3)
    move = next(m for m in web_api.get(f"{game.url}/moves", token=game.tokens[0]).get_json()["moves"]
                if m["action"] == "trail")
    click_move(ann, move)
    wait_version(ann, 4)
    ann.get_by_role("button", name="Ask to take back my last play").click()
    wait_version(bob, 5)
    assert "asks to take their last play back" in bob.inner_text("#actions")
    bob.get_by_role("button", name="Agree", exact=True).click()
    wait_version(ann, 7)  # UndoAnswered, PlayUndone
    ann.wait_for_selector(f'#hand [data-card="{move["card"]}"]')
    assert web_api.view(game)["turn"] == 0 and "agrees" in ann.text_content("#log")

    # Bob's side has made sure of nothing: his table offers no claim, which would lose. He makes one
    # through the API all the same, and both tables say what it counted.
    assert "too few to count out" in bob.inner_text('[data-key="count-out-note"]')
    assert bob.locator('[data-key="count-out"]').count() == 0
    assert web_api.post(f"{game.url}/count-out", token=game.tokens[1]).status_code == 200
    [claim] = [e["data"] for e in web_api.events(game) if e["type"] == "CountedOut"]
    target = web_api.view(game)["options"]["target"]
    counted = (f"counted out with {claim['total']}, 0 before this hand and {claim['total']} made sure of in it,"
               f" short of the target of {target}.")
    for page, who in ((ann, "You won: P1"), (bob, "P0 won: You")):
        # Bob had not reached the target; both tables say what his claim counted, as its event does.
        wait_result(page, f"{who} {counted}")
    replay, _ = open_page(browser, f"{base_url}/play/replay.html?game={game.id}")
    wait_result(replay, f"P0 won: P1 {counted}")
    assert web_api.view(game)["status"] == "finished"
    assert not ann_seen.errors and not bob_seen.errors
    ann.context.close()
    bob.context.close()


def test_count_out_is_offered_only_while_the_claim_would_win_and_says_what_it_counts(browser, base_url, web_api):
    """A count-out short of the target loses the game, so the table offers
    one only once the seat's side has made sure of enough, and says how
    far the side is either way; the other side's table shows its own."""
    game = web_api.create(first_dealer=1, options={"target": 1})
    web_api.deal(game, ORDERED_DECK)
    ann, _ = open_page(browser, f"{base_url}/play/table.html?game={game.id}#token={game.tokens[0]}")
    bob, _ = open_page(browser, f"{base_url}/play/table.html?game={game.id}#token={game.tokens[1]}")
    for page in (ann, bob):
        wait_version(page, 3)
        assert page.locator('[data-key="count-out-note"]').inner_text() == (
            "Your side has 0 of the 1 points to win, counting the 0 made sure of in this hand: too few to count out.")
        assert page.locator('[data-key="count-out"]').count() == 0
    for seat, move in ACE_MADE_SURE_OF:
        assert web_api.post(f"{game.url}/play", json=move, token=game.tokens[seat]).status_code == 200
    for page in (ann, bob):
        wait_version(page, 6)
    assert ann.locator('[data-key="count-out-note"]').inner_text() == (
        "Your side has 1 of the 1 points to win, counting the 1 made sure of in this hand: "
        "counting out now wins the game.")
    assert "too few" in bob.locator('[data-key="count-out-note"]').inner_text()
    assert bob.locator('[data-key="count-out"]').count() == 0
    shoot(ann, "table-count-out", DESKTOP)
    ann.get_by_role("button", name="Count out and win", exact=True).click()
    wait_result(ann, "You won: You counted out with 1, 0 before this hand and 1 made sure of in it, reaching the"
                     " target of 1.")
    assert web_api.view(game)["result"] == "count_out" and web_api.view(game)["winners"] == [0]
    assert ann.locator('[data-key="count-out"]').count() == 0


def test_a_player_whose_name_reads_as_a_card_is_named_and_the_cards_drawn(browser, base_url, web_api):
    """The log and "just played" draw the cards a line names as faces; a
    player's name stays the player's words, though "KS" is a card's code."""
    game = web_api.create(first_name="KS", first_dealer=1)
    assert web_api.deal(game).status_code == 200
    bob, bob_seen = open_page(browser, f"{base_url}/play/table.html?game={game.id}#token={game.tokens[1]}")
    wait_version(bob, 3)
    move = next(m for m in web_api.get(f"{game.url}/moves", token=game.tokens[0]).get_json()["moves"]
                if m["action"] == "trail" and m["card"] != "KS")
    assert web_api.post(f"{game.url}/play", json=move, token=game.tokens[0]).status_code == 200
    wait_streamed(bob, 4)
    card = move["card"]
    for line in (bob.locator('#log li[data-version="4"]'), bob.locator('#just-played li[data-version="4"]')):
        line.wait_for(state="attached")  # the log may be folded away
        assert [name.text_content() for name in line.locator("bdi").all()] == ["KS"]
        assert line.locator('.card[data-card="KS"]').count() == 0
        assert line.locator(f'.card[data-card="{card}"]').count() == 1
        assert line.evaluate(SPOKEN).endswith(f"KS trails {spoken(card)}.")
    assert not bob_seen.errors

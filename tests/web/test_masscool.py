"""Mass Cool Casino in the browser: seats play whole games by clicking
(two players, then three with a computer seat), a spectator watches, and
at every step each page shows what the API shows its caller and holds no
card hidden from it, its event streams included. The operator deals fixed
decks, the deal and the tie's reshuffle, so the same tie and the same
knockout come every run."""

from __future__ import annotations

import time

from service.ops.transcripts import parse
from tests.api.conftest import ORDERED_DECK, Game
from tests.web.conftest import (DESKTOP, MCC, PHONE, bet_by_clicking, mcc_settle, open_page, play_alone, shoot,
                                wait_version)
from tests.conftest import OPERATOR_TOKEN
from tests.web.test_presets import press_until


def arranged(*parts: list[str]) -> list[str]:
    """A deck: the cards named, in order, then every other card of ``among``
    (the last part), in new-deck order."""
    *named, among = parts
    first = [c for part in named for c in part]
    return first + [c for c in among if c not in first]


def dealt(money: list[list[str]], dealer: int) -> list[str]:
    """The top of a deck that deals ``money[seat]`` to each seat: one card at
    a time, clockwise from the dealer's left, the dealer last."""
    n = len(money)
    order = [(dealer + 1 + i) % n for i in range(n)]
    return [money[seat][k] for k in range(len(money[0])) for seat in order]


def create(web_api, names: list[str], computer: set[int] = frozenset(), options=None) -> Game:
    seats = [{"name": n, "computer": True} if i in computer else {"name": n} for i, n in enumerate(names)]
    answer = web_api.post("/v1/games", json={"variant": MCC, "seats": seats, "first_dealer": 0,
                                            "options": options or {}})
    assert answer.status_code == 201, answer.get_json()
    created = answer.get_json()
    return Game(created["id"], [s["token"] for s in created["seats"]], created)


def url(base_url, game, seat: int | None) -> str:
    link = f"{base_url}/play/table.html?game={game.id}"
    return link if seat is None else f"{link}#token={game.tokens[seat]}"


def moves_of(web_api, game, seat: int) -> dict:
    return web_api.get(f"{game.url}/moves", token=game.tokens[seat]).get_json()


ANN_MONEY = ["2S", "3S", "4S", "5S", "6S", "7S", "8S", "10S", "JS", "QS"]
BOB_MONEY = ["2H", "3H", "4H", "5H", "6H", "7H", "8H", "10H", "JH", "QH"]


def test_two_players_bet_tie_and_one_is_knocked_out_by_clicking(browser, base_url, web_api):
    game = create(web_api, ["Ann", "Bob"])
    # Round 1's hands tie (9S, 9H); the replayed round's are KD for Ann, 3C for Bob.
    deck = arranged(dealt([ANN_MONEY, BOB_MONEY], dealer=0), ["9S", "9H"], ORDERED_DECK)
    pages = [(*open_page(browser, url(base_url, game, 0)), 0),
             (*open_page(browser, url(base_url, game, 1), PHONE), 1),
             (*open_page(browser, url(base_url, game, None)), None)]
    (ann, ann_seen, _), (bob, bob_seen, _), (watcher, _, _) = pages
    state = mcc_settle(web_api, game, pages)
    assert "Waiting for Ann to deal" in bob.inner_text("#actions")
    assert web_api.deal(game, deck).status_code == 200  # the operator deals a fixed deck
    state = mcc_settle(web_api, game, pages)
    assert state["status"] == "betting" and state["turn"] == 0
    shoot(ann, "table-mcc", DESKTOP)

    def step(page, act):
        nonlocal state
        act(page)
        wait_version(page, state["version"] + 1)
        state = mcc_settle(web_api, game, pages)

    # Ten money cards: /moves is cut (bets of up to four cards are listed, and
    # not all of those); the page asks /moves for the bets holding the cards chosen.
    listed = moves_of(web_api, game, 0)
    assert listed["truncated"] and {len(m["cards"]) for m in listed["moves"]} == {1, 2, 3, 4}
    assert "Choose 1 to 4 cards of your money to bet" in ann.inner_text("#bet-sizes")
    assert "choose more cards and the page asks for the bets that hold them" in ann.inner_text("#bet-sizes")
    assert ann.locator('[data-key="stop"]').count() == 0  # no stop before one's first bet
    step(ann, lambda p: bet_by_clicking(p, ["2S"]))
    big = ["8H", "10H", "JH", "QH"]  # not among the bets /moves lists, but of a size it lists
    assert {"action": "bet", "cards": big} not in moves_of(web_api, game, 1)["moves"]
    for card in big:
        bob.click(f'[data-key="money-{card}"]')
    assert bob.locator('#my-money button:not([aria-pressed="true"]):not(:disabled)').count() == 6  # more may be chosen
    shoot(bob, "table-mcc-choosing", PHONE)
    step(bob, lambda p: p.click('[data-key="bet"]'))
    assert bob_seen.plays[-1] == {"action": "bet", "cards": big}
    step(ann, lambda p: p.click('[data-key="stop"]'))
    assert ann.inner_text("[data-fact=stopped]") == "Ann" and state["stopped_by"] == 0
    # After the stop only the cards Ann owes can be bet: exactly three.
    assert "bet 3 cards to even out" in ann.inner_text("#bet-sizes")
    for card in ["3S", "4S"]:
        ann.click(f'[data-key="money-{card}"]')
    assert ann.locator('[data-key="bet"]').count() == 0  # two are not a bet she can make
    step(ann, lambda p: bet_by_clicking(p, ["5S"]))

    # The tie: the hands are shown, everything goes back into the deck, and
    # the game waits for the operator, who fixes the reshuffled deck too.
    assert state["status"] == "reshuffle" and state["last_showdown"] == {"hands": ["9S", "9H"], "winner": None}
    for page, _, _ in pages:
        assert "tie for the highest card" in page.inner_text("#showdown-result")
    assert "Waiting for the operator to reshuffle" in ann.inner_text("#actions")
    shoot(watcher, "table-mcc-tie", DESKTOP)
    gathered = state["stock"] + ["2S", "3S", "4S", "5S"] + big + ["9S", "9H"]
    assert web_api.deal(game, arranged(["KD", "3C"], gathered)).status_code == 200
    state = mcc_settle(web_api, game, pages)
    assert state["round"] == 1 and state["turn"] == 0 and state["hands"] == ["KD", "3C"]

    # The round again: Ann bets, Bob bets and takes it back (Ann agrees), then bets all he has.
    step(ann, lambda p: bet_by_clicking(p, ["6S"]))
    step(bob, lambda p: bet_by_clicking(p, ["2H"]))
    step(bob, lambda p: p.get_by_role("button", name="Ask to take back my last move").click())
    assert "Bob asks to take their last move back" in ann.inner_text("#actions")
    ann.get_by_role("button", name="Agree", exact=True).click()
    wait_version(ann, state["version"] + 2)  # UndoAnswered, PlayUndone
    state = mcc_settle(web_api, game, pages)
    assert state["turn"] == 1 and len(state["seats"][1]["money"]) == 6
    everything = ["2H", "3H", "4H", "5H", "6H", "7H"]
    assert not moves_of(web_api, game, 1)["truncated"]
    step(bob, lambda p: bet_by_clicking(p, everything))
    assert "no money left" in bob.inner_text("#actions")
    step(ann, lambda p: p.click('[data-key="stop"]'))
    step(ann, lambda p: bet_by_clicking(p, ["7S", "8S", "10S", "JS", "QS"]))

    # Ann's king takes the pot; Bob, without money, is out, and the game is over.
    assert state["status"] == "finished" and state["result"] == "last_player" and state["winners"] == [0]
    assert [s["out"] for s in state["seats"]] == [False, True]
    for page, _, seat in pages:  # each told in words for its reader: Ann's own seat is "you"
        page.wait_for_selector("#result")
        assert page.inner_text("#result") == f"{'You' if seat == 0 else 'Ann'} won (one player is left)."
        out = "You have no money left and are" if seat == 1 else "Bob has no money left and is"
        assert f"{out} out of the game" in page.inner_text("#showdown-result")
        assert page.inner_text("#results th:nth-child(3)") == "Outcome"  # a header for each column of the count
        assert page.locator('#seats li[data-out="true"]').count() == 1
        assert [page.inner_text(f'tr[data-total="{s}"] td') for s in (0, 1)] == [str(t) for t in state["totals"]]
    shoot(ann, "table-mcc-over", DESKTOP)
    shoot(bob, "table-mcc-over", PHONE)
    assert ann.locator("#log li").count() == state["version"]
    assert not ann_seen.errors and not bob_seen.errors


class Table:
    """The pages at one game, kept settled after every click (see ``mcc_settle``)."""

    def __init__(self, web_api, game, pages):
        self.web_api, self.game, self.pages = web_api, game, pages
        self.state = mcc_settle(web_api, game, pages)

    def step(self, page, act, events: int = 1) -> dict:
        act(page)
        wait_version(page, self.state["version"] + events)
        self.state = mcc_settle(self.web_api, self.game, self.pages)
        return self.state


def test_three_players_with_a_computer_by_clicking_and_by_keyboard_alone(browser, base_url, web_api):
    """Ann and Bob in the browser, seat 2 played by the service: a pot won,
    a tie reshuffled from the operator's deck, then a pot that knocks two out."""
    game = create(web_api, ["Ann", "Bob", "Robot"], computer={2}, options={"money": 4})
    money = [["2S", "3S", "4S", "5S"], ["2H", "3H", "4H", "5H"], ["2D", "3D", "4D", "5D"]]
    # Round 1: Ann's ace wins. Round 2 (Bob leads): Bob's and Ann's kings tie.
    deck = arranged(dealt(money, dealer=0), ["AS", "7H", "7D"], ["KH", "8D", "KS"], ORDERED_DECK)
    assert web_api.deal(game, deck).status_code == 200
    pages = [(*open_page(browser, url(base_url, game, 0)), 0),
             (*open_page(browser, url(base_url, game, 1), PHONE), 1),
             (*open_page(browser, url(base_url, game, None), PHONE), None)]
    (ann, _, _), (bob, _, _), (watcher, watcher_seen, _) = pages
    table = Table(web_api, game, pages)

    # Ann bets with the keyboard alone: Tab to a card of her money, Enter, Tab to the bet, Enter.
    ann.focus('[data-key="money-2S"]')
    ann.keyboard.press("Enter")
    assert ann.evaluate("document.activeElement.dataset.key") == "money-2S"  # kept across the redraw
    press_until(ann, "Tab", data_key="bet")
    table.step(ann, lambda p: p.keyboard.press("Enter"))
    # Bob's bet brings the computer's (its cheapest card) with it.
    table.step(bob, lambda p: bet_by_clicking(p, ["2H"]), events=2)
    assert table.state["seats"][2]["bet"] == ["2D"] and table.state["turn"] == 0
    press_until(ann, "Tab", data_key="stop")
    state = table.step(ann, lambda p: p.keyboard.press("Enter"), events=3)  # StopCalled, PotWon, HandsDrawn
    assert state["last_showdown"] == {"hands": ["AS", "7H", "7D"], "winner": 0}
    assert [len(s["money"]) for s in state["seats"]] == [6, 3, 3] and state["turn"] == 1
    assert "Ann's AS is the highest card and takes the pot of 3 cards" in watcher.inner_text("#showdown-result")

    # A take-back is offered only while the service would take it: not across a showdown.
    assert ann.locator('[data-key="undo"]').count() == 0
    refused = web_api.post(f"{game.url}/undo", token=game.tokens[0]).get_json()
    assert refused["detail"] == "There is no bet or stop to take back since the cards were last drawn or shown."

    # Round 2: a tie between Bob's and Ann's kings.
    table.step(bob, lambda p: bet_by_clicking(p, ["3H"]), events=2)
    table.step(ann, lambda p: bet_by_clicking(p, ["3S"]))
    state = table.step(bob, lambda p: p.click('[data-key="stop"]'), events=2)
    assert state["status"] == "reshuffle" and state["last_showdown"]["hands"] == ["KS", "KH", "8D"]
    gathered = state["stock"] + ["3H", "3D", "3S", "KH", "8D", "KS"]
    assert web_api.deal(game, arranged(["6C", "9D", "QC"], gathered)).status_code == 200
    table.state = mcc_settle(web_api, game, pages)

    # Round 2 again: Bob bets all he has, the computer calls stop, Ann and the computer even out.
    table.step(bob, lambda p: bet_by_clicking(p, ["4H", "5H"]), events=2)
    state = table.step(ann, lambda p: bet_by_clicking(p, ["4S"]), events=2)  # and the computer's stop
    assert state["stopped_by"] == 2 and state["turn"] == 0
    assert "Robot called stop: bet 1 card to even out" in ann.inner_text("#bet-sizes")
    shoot(ann, "table-mcc-3", DESKTOP)
    shoot(watcher, "table-mcc-3-watching", PHONE)
    state = table.step(ann, lambda p: bet_by_clicking(p, ["5S"]), events=4)  # Robot's bet, PotWon, MoneyCounted
    assert state["status"] == "finished" and state["result"] == "last_player" and state["winners"] == [0]
    assert [s["out"] for s in state["seats"]] == [False, True, True]
    for page, _, seat in pages:
        page.wait_for_selector("#result")
        out = "You and Robot" if seat == 1 else "Bob and Robot"  # Bob's own page speaks to him
        assert f"{out} have no money left and are out of the game" in page.inner_text("#showdown-result")
        assert page.locator('#seats li[data-out="true"]').count() == 2
    actors = {e["metadata"]["actor"] for e in web_api.events(game) if e["type"] in ("BetPlaced", "StopCalled")}
    assert actors == {"seat:0", "seat:1", "computer:2"}
    assert not watcher_seen.errors


def test_the_lobby_makes_a_game_against_two_computers_and_the_person_finishes_it(browser, base_url, web_api):
    page, seen = open_page(browser, f"{base_url}/play/", PHONE)
    page.wait_for_selector(f"#variant option[value={MCC}]", state="attached")
    page.select_option("#variant", MCC)
    assert page.is_hidden("#target") and "Seats: 2, 3, 4, 5, 6, 7, 8." in page.inner_text("#variant-about")
    page.click("#add-seat")
    page.fill("#more-options", '{"money": 16}')  # 48 cards of money: the stock holds one round's hands
    page.select_option("#first-dealer", "0")
    shoot(page, "lobby-mcc", PHONE)
    game, token = play_alone(page)
    assert [s["name"] for s in web_api.view(game)["seats"]] == ["Player 1", "Computer 1", "Computer 2"]

    for _ in range(400):
        state = web_api.view(game, token=OPERATOR_TOKEN)
        if state["status"] == "finished":
            break
        if not (state["status"] == "waiting" or state["turn"] == 0):  # the computers are still answering
            time.sleep(0.05)
            continue
        wait_version(page, state["version"])
        if state["status"] == "waiting":
            page.get_by_role("button", name="Deal", exact=True).click()
        else:
            # The first move listed: the stop when it is allowed, else the smallest bet.
            move = web_api.get(f"{game.url}/moves", token=token).get_json()["moves"][0]
            if move["action"] == "stop":
                page.click('[data-key="stop"]')
            else:
                bet_by_clicking(page, move["cards"])
        deadline = time.monotonic() + 10
        while web_api.view(game, token=OPERATOR_TOKEN)["version"] == state["version"]:
            assert time.monotonic() < deadline, "the click changed nothing"
            time.sleep(0.05)
    assert state["status"] == "finished" and state["result"] == "deck_out"
    wait_version(page, state["version"])
    page.wait_for_selector("#result")
    assert "the stock cannot give everyone a hand" in page.inner_text("#result")
    shoot(page, "table-mcc-alone", PHONE)
    actors = {e["metadata"]["actor"] for e in web_api.events(game) if e["type"] == "BetPlaced"}
    assert actors == {"seat:0", "computer:1", "computer:2"}
    assert not seen.errors


REPLAYED = """() => ({
  hands: [...document.querySelectorAll('#seats li.seat')]
    .map(li => li.querySelector('[data-hand]')?.dataset.hand ?? null),
  money: [...document.querySelectorAll('#seats li.seat')].map(li =>
    [...li.querySelectorAll('.money [data-card]')].map(n => n.dataset.card)),
  bets: Object.fromEntries([...document.querySelectorAll('#pot [data-bet]')]
    .map(n => [n.dataset.bet, [...n.querySelectorAll('[data-card]')].map(c => c.dataset.card)])),
  stock: [...document.querySelectorAll('#stock-area [data-card]')].map(n => n.dataset.card),
  current: document.querySelector('#events li.current')?.dataset.version,
})"""


def play_to_the_end(web_api, game) -> None:
    """Deal (the dealer, from the committed seed) and play until the game is
    over, each seat making the first move /moves lists (the stop when it
    may, else its cheapest card), as the computer player does."""
    for _ in range(500):
        state = web_api.view(game, token=OPERATOR_TOKEN)
        if state["status"] == "finished":
            return
        if state["status"] == "waiting":
            answer = web_api.deal(game, token=game.tokens[state["dealer"]])
        else:
            seat = state["turn"]
            move = web_api.get(f"{game.url}/moves", token=game.tokens[seat]).get_json()["moves"][0]
            answer = web_api.post(f"{game.url}/play", json=move, token=game.tokens[seat])
        assert answer.status_code == 200, answer.get_json()
    raise AssertionError("the game did not end")


def assert_replays(page, web_api, game, version: int) -> None:
    page.wait_for_function("v => Number(document.body.dataset.version) === v", arg=version)
    then = web_api.get(f"{game.url}/replay?version={version}").get_json()
    shown = page.evaluate(REPLAYED)
    assert shown["hands"] == then["hands"] and shown["stock"] == then["stock"]
    assert shown["money"] == [s["money"] for s in then["seats"]]
    assert shown["bets"] == {str(s["seat"]): s["bet"] for s in then["seats"] if s["bet"]}
    assert shown["current"] == str(version)


def test_replay_and_the_operators_list_show_a_finished_game(browser, base_url, web_api, tmp_path):
    game = create(web_api, ["Replayed", "Other"], options={"money": 22})  # a stock of 8: four rounds, or a few more
    play_to_the_end(web_api, game)
    events = web_api.events(game)
    last = events[-1]["version"]

    # Anyone may replay a finished game: every hand face up at every version, and the stock.
    page, seen = open_page(browser, f"{base_url}/play/replay.html?game={game.id}", PHONE)
    assert_replays(page, web_api, game, last)
    betting = next(e["version"] for e in events if e["type"] == "BetPlaced")
    page.locator(f'#events li[data-version="{betting}"] button').click()
    assert_replays(page, web_api, game, betting)
    assert all(page.evaluate(REPLAYED)["hands"])  # each hand face up, though no one showed it yet
    shoot(page, "replay-mcc", PHONE)
    page.focus("#next")
    page.keyboard.press("Enter")
    assert_replays(page, web_api, game, betting + 1)
    page.click("#first")
    assert_replays(page, web_api, game, 1)
    shuffles = [e for e in events if e["type"] == "ShufflePromised"]
    assert page.locator("#shuffles tbody tr").count() == len(shuffles)
    assert page.inner_text("#shuffle-number") == "Shuffle"
    assert page.locator("#shuffles tbody tr", has_text="the seed matches").count() == len(shuffles)
    assert not seen.errors

    # The operator's list finds it, and its replay has verify's report and the transcript.
    page, seen = open_page(browser, f"{base_url}/play/operator.html")
    page.fill("#token", OPERATOR_TOKEN)
    page.get_by_role("button", name="Use this token").click()
    page.fill("input[name=player]", "Replayed")
    page.fill("input[name=variant]", MCC)
    page.check("input[name=status][value=finished]")
    assert page.locator("input[name=status][value=betting]").count() == 1  # this game's statuses are offered too
    page.get_by_role("button", name="List games").click()
    row = page.locator(f'tr[data-game="{game.id}"]')
    row.wait_for()
    assert MCC in row.inner_text()
    row.locator("a").click()
    page.wait_for_selector("#verify-result")
    assert page.get_attribute("#verify-result", "data-ok") == "true"
    assert_replays(page, web_api, game, last)
    shoot(page, "replay-mcc", DESKTOP)
    with page.expect_download() as download:
        page.click("#transcript-link")
    saved = tmp_path / "transcript.json"
    download.value.save_as(saved)
    transcript = parse(saved.read_text())
    assert str(transcript.game_id) == game.id and len(transcript.events) == last
    assert not seen.errors

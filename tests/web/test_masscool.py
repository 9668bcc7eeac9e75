"""Mass Cool Casino in the browser: seats play whole games by clicking
(two players, then three with a computer seat), a spectator watches, and
at every step each page shows what the API shows its caller and holds no
card hidden from it, its event streams included. The operator deals fixed
decks, the deal and the tie's reshuffle, so the same tie and the same
knockout come every run."""

from __future__ import annotations

from tests.api.conftest import ORDERED_DECK, Game
from tests.web.conftest import (DESKTOP, MCC, PHONE, bet_by_clicking, mcc_settle, open_page, shoot, wait_version)


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
    # not all of those); the page offers every bet of the sizes it lists.
    listed = moves_of(web_api, game, 0)
    assert listed["truncated"] and {len(m["cards"]) for m in listed["moves"]} == {1, 2, 3, 4}
    assert "Choose 1 to 4 cards of your money to bet" in ann.inner_text("#bet-sizes")
    assert "a larger bet is not offered" in ann.inner_text("#bet-sizes")
    assert ann.locator('[data-key="stop"]').count() == 0  # no stop before one's first bet
    step(ann, lambda p: bet_by_clicking(p, ["2S"]))
    big = ["8H", "10H", "JH", "QH"]  # not among the bets /moves lists, but of a size it lists
    assert {"action": "bet", "cards": big} not in moves_of(web_api, game, 1)["moves"]
    for card in big:
        bob.click(f'[data-key="money-{card}"]')
    assert bob.locator('#my-money button:not([aria-pressed="true"]):not(:disabled)').count() == 0  # four at most
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
    wait_version(ann, state["version"] + 2)  # BetUndoAnswered, BetTakenBack
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
    for page, _, _ in pages:
        page.wait_for_selector("#result")
        assert page.inner_text("#result") == "Ann won (one player is left)."
        assert "Bob has no money left and is out of the game" in page.inner_text("#showdown-result")
        assert page.locator('#seats li[data-out="true"]').count() == 1
        assert [page.inner_text(f'tr[data-total="{s}"] td') for s in (0, 1)] == [str(t) for t in state["totals"]]
    shoot(ann, "table-mcc-over", DESKTOP)
    shoot(bob, "table-mcc-over", PHONE)
    assert ann.locator("#log li").count() == state["version"]
    assert not ann_seen.errors and not bob_seen.errors

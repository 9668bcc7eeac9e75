"""A Mass Cool Casino table over HTTP: a game created, dealt and played
through the API only, with the operator's fixed decks to order (the decks
are stacked as in ``tests/domain/masscool/table.py``)."""

from __future__ import annotations

from domain.cards import full_deck
from tests.conftest import OPERATOR_TOKEN
from tests.domain.masscool.table import stacked_deck

VARIANT = "mass-cool-casino"
ALL_CODES = [c.code for c in full_deck()]


def deck_codes(players: int, dealer: int, each: int, money: dict[int, str] | None = None,
               stock: str = "") -> list[str]:
    """A stacked deck (``stacked_deck``) as the card codes ``/deal`` takes."""
    return [c.code for c in stacked_deck(players, dealer, each, money, stock)]


class HttpTable:
    """One game of Mass Cool Casino, every step a request: ``bet``, ``stop``
    and ``reshuffle`` return the events the command appended, as the acting
    seat (or the operator) saw them."""

    def __init__(self, api, players: int, deck: list[str] | None = None, dealer: int = 0, options=None,
                 first_name: str = "P0"):
        self.api = api
        self.game = api.create(players=players, variant=VARIANT, options=options, first_dealer=dealer,
                               first_name=first_name)
        self.players = players
        dealer_token = OPERATOR_TOKEN if deck is not None else self.game.tokens[dealer]
        self.dealt = self._ok(api.deal(self.game, deck, token=dealer_token))

    @property
    def url(self) -> str:
        return self.game.url

    def _ok(self, response) -> list[dict]:
        assert response.status_code == 200, response.get_json()
        return response.get_json()["events"]

    def view(self, token=OPERATOR_TOKEN) -> dict:
        return self.api.view(self.game, token)

    def money(self, seat: int) -> list[str]:
        return self.view(None)["seats"][seat]["money"]

    def post(self, seat: int, body: dict, **kwargs):
        return self.api.post(f"{self.url}/play", json=body, token=self.game.tokens[seat], **kwargs)

    def bet(self, seat: int, cards: list[str] | str) -> list[dict]:
        cards = cards.split() if isinstance(cards, str) else cards
        return self._ok(self.post(seat, {"action": "bet", "cards": cards}))

    def stop(self, seat: int) -> list[dict]:
        return self._ok(self.post(seat, {"action": "stop"}))

    def refused(self, response) -> str:
        """The rule a 422 answer names."""
        assert response.status_code == 422, response.get_json()
        body = response.get_json()
        assert body["code"] == "rule_violation" and body["detail"]
        return body["rule"]

    def reshuffle(self, top: str) -> list[dict]:
        """The operator deals the tied pot back into the stock: ``top`` first,
        then every other card not in money or put aside, in new-deck order."""
        first = top.split()
        view = self.view()
        money = {c for s in view["seats"] for c in s["money"]}
        discarded = {h for e in self.api.events(self.game) if e["type"] == "PotWon" for h in e["data"]["hands"] if h}
        rest = [c for c in ALL_CODES if c not in money | discarded | set(first)]
        return self._ok(self.api.deal(self.game, first + rest))

    def step(self):
        """One move of a round played the simple way, as the public sees the
        table: the seat to bet bets the first card of its money, the first to
        have bet stops when the turn comes back, and after the stop each
        seat bets the cards it owes. Returns the answer."""
        view = self.view(None)
        seat = view["turn"]
        bets = [len(s["bet"]) for s in view["seats"]]
        if view["stopped_by"] is None and bets[seat]:
            return self.post(seat, {"action": "stop"})
        owed = max(bets) - bets[seat] if view["stopped_by"] is not None else 1
        return self.post(seat, {"action": "bet", "cards": view["seats"][seat]["money"][:owed]})

    def one_card_each(self) -> list[dict]:
        """A round played with ``step``; the events after its last move (the
        showdown and what follows it)."""
        while len(events := self._ok(self.step())) == 1:
            pass
        return events[1:]

    def finish(self) -> None:
        while self.view(None)["status"] != "finished":
            self.one_card_each()

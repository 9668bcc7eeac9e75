"""No response shows a caller a card it could not see at the table.

At every step of real games of either game type, for each seat and for the
public, every endpoint's answer (body and headers) is searched for the
codes of the cards hidden from that caller: the other players' hands and
the stock.
"""

import json
import random

import pytest

from domain import full_deck
from domain.cassino import resolve
from domain.cassino.dealing import deck_for
from tests.service.spec_check import sse_messages

from .conftest import ACE_MADE_SURE_OF, ORDERED_DECK, first_actions
from .masscool import HttpTable, deck_codes
from .test_join import join, open_game, player

ALL_CODES = [c.code for c in full_deck()]


def hidden_from(everything: dict, seat: int | None) -> set[str]:
    """Cards the caller (a seat, or None for the public) cannot see now."""
    hidden = set(everything["stock"])
    for i, hand in enumerate(everything["hands"]):
        if i != seat:
            hidden |= set(hand)
    return hidden


def shown(response) -> set[str]:
    text = response.get_data(as_text=True) + json.dumps(dict(response.headers))
    return {code for code in ALL_CODES if f'"{code}"' in text}


def claims_shown(response) -> list[tuple[str, object]]:
    """Every count-out claim in an answer's body: ``count_out`` (a side's
    claim or null, not the option of that name) and ``count_outs``."""
    found: list[tuple[str, object]] = []

    def walk(value):
        if isinstance(value, dict):
            for key, item in value.items():
                if key == "count_outs" or (key == "count_out" and not isinstance(item, bool)):
                    found.append((key, item))
                walk(item)
        elif isinstance(value, list):
            for item in value:
                walk(item)

    walk(response.get_json(silent=True))
    return found


def own_claim_only(response, everything: dict, seat: int | None) -> bool:
    """A seat is told its own side's count-out claim and no other; the public none."""
    if seat is None:
        return claims_shown(response) == []
    claims = everything["count_outs"]
    own = None if claims is None else claims[everything["seats"][seat]["team"]]
    return all(shown_claim == ("count_out", own) for shown_claim in claims_shown(response))


def answers(api, game, token):
    paths = [game.url, f"{game.url}/events", f"{game.url}/events?after=1&limit=2"]
    if token is not None:
        paths.append(f"{game.url}/moves")
    return [api.get(p, token=token) for p in paths]


LEAK_CASES = [("cassino", 2), ("cassino", 3), ("cassino", 4), ("partnership", 4)]
LEAK_CASES += [("stealing-bundles", n) for n in (2, 3, 4)]  # bundles' top cards are public, hands are not
LEAK_CASES += [("african", n) for n in (2, 3, 4)]  # pile tops are public; 12-16 cards a hand are not
LEAK_CASES += [(v, n) for v in ("diamond", "callabra", "tablanette") for n in (2, 3, 4)]  # 40 cards; 3 and 5; 6


@pytest.mark.parametrize("variant,players", LEAK_CASES)
def test_no_endpoint_shows_another_hand_or_the_stock(api, operator, variant, players):
    game = api.create(players=players, variant=variant)
    deck = [c.code for c in deck_for(resolve(variant, {}, players))]  # the variant's cards
    random.Random(players).shuffle(deck)
    rng = random.Random(7)
    assert api.deal(game, deck).status_code == 200
    for _ in range(14):
        everything = api.view(game, operator)
        if everything["status"] != "in_progress":
            break
        for seat in [None, *range(players)]:
            token = None if seat is None else game.tokens[seat]
            secret = hidden_from(everything, seat)
            for response in answers(api, game, token):
                assert not shown(response) & secret, f"{response.request.path} shows {shown(response) & secret}"
                assert own_claim_only(response, everything, seat), (seat, claims_shown(response))
        turn = everything["turn"]
        moves = api.get(f"{game.url}/moves", token=game.tokens[turn]).get_json()["moves"]
        answer = api.post(f"{game.url}/play", json=rng.choice(moves), token=game.tokens[turn])
        after = api.view(game, operator)
        assert not shown(answer) & hidden_from(after, turn)
        assert own_claim_only(answer, after, turn), claims_shown(answer)


def test_the_detector_sees_what_the_operator_may_see(api, operator):
    """The search above would catch a leak: the operator's answers do show hidden cards."""
    game = api.create()
    api.deal(game, ORDERED_DECK)
    everything = api.view(game, operator)
    view, log = api.get(game.url, token=operator), api.get(f"{game.url}/events", token=operator)
    assert shown(view) & hidden_from(everything, None)
    assert shown(log) >= hidden_from(everything, None)


def test_the_claim_check_sees_another_sides_claim(api, operator):
    """The check above would catch a leak: once seat 0 has made sure of the
    ace of spades, its side's claim differs from seat 1's, and seat 0's
    answers would not pass as seat 1's, nor the operator's as anyone's."""
    game = api.create(first_dealer=1, options={"target": 1})
    api.deal(game, ORDERED_DECK)
    for seat, move in ACE_MADE_SURE_OF:
        answer = api.post(f"{game.url}/play", json=move, token=game.tokens[seat])
    everything = api.view(game, operator)
    assert everything["count_outs"][0] != everything["count_outs"][1]
    assert own_claim_only(answer, everything, 0) and not own_claim_only(answer, everything, 1)
    seat_view, public = api.get(game.url, token=game.tokens[0]), api.get(game.url)
    assert own_claim_only(seat_view, everything, 0) and not own_claim_only(seat_view, everything, 1)
    assert own_claim_only(public, everything, None) and not own_claim_only(seat_view, everything, None)
    assert not any(own_claim_only(api.get(game.url, token=operator), everything, s) for s in (None, 0, 1))


def test_a_seats_deal_answer_shows_only_its_own_hand(api):
    game = api.create(first_dealer=1)
    answer = api.post(f"{game.url}/deal", json={}, token=game.tokens[1]).get_json()
    [dealt] = answer["events"]
    assert dealt["data"]["deck"] is None and dealt["data"]["deck_count"] == 52
    assert dealt["data"]["hands"][0] is None and len(dealt["data"]["hands"][1]) == 4
    assert dealt["data"]["hand_counts"] == [4, 4]


# -- Mass Cool Casino -------------------------------------------------------------
#
# Money, bets and the hands turned over at a showdown lie face up; a hand is
# its owner's until then, and the stock is face down. A tied pot goes back
# into the stock, so a card once seen may be hidden again: its place in the
# stock then is what must not show (the twin games below), and the code
# search looks for the cards no one but the operator has seen.

#: A fixed game of five through a tie the operator reshuffles, a knockout,
#: and on until the deck runs out.
MASS_COOL_DECK = deck_codes(5, 0, 5, stock="KD KC 2D 3D 4D")
MASS_COOL_RESHUFFLE = "KD 2D 3D 4D 8D  KC 9D 10D JD QD  AC 2C 3C 4C 5C  QC 6C 7C 8C 9C"


def face_up(log: list[dict]) -> set[str]:
    """Every card the table has seen face up, from the operator's log."""
    seen: set[str] = set()
    for event in log:
        data = event["data"]
        if event["type"] == "MoneyDealt":
            seen |= {c for money in data["money"] for c in money}
        elif event["type"] == "BetPlaced":
            seen |= set(data["cards"])
        elif event["type"] in ("PotWon", "PotTied"):
            seen |= {h for h in data["hands"] if h}
    return seen


def never_seen_by(everything: dict, seat: int | None, seen: set[str]) -> set[str]:
    """The cards of the stock and of the other hands that no one but the operator has seen."""
    hidden = set(everything["stock"]) | {h for i, h in enumerate(everything["hands"]) if h and i != seat}
    return hidden - seen


def test_no_endpoint_shows_a_mass_cool_casino_hand_or_the_stock(api, operator):
    """Each step's new events are searched as each caller reads them (an
    event's redaction does not change until the game is over), with the
    view and the legal moves."""
    players = 5
    t = HttpTable(api, players, MASS_COOL_DECK, options={"money": 5})
    seen: set[str] = set()
    read = 0
    while (everything := t.view())["status"] != "finished":
        seen |= face_up(api.get(f"{t.url}/events?after={read}&limit=500", token=operator).get_json()["events"])
        for seat in [None, *range(players)]:
            token = None if seat is None else t.game.tokens[seat]
            secret = never_seen_by(everything, seat, seen)
            paths = [t.url, f"{t.url}/events?after={read}&limit=500"] + ([f"{t.url}/moves"] if token else [])
            for response in (api.get(path, token=token) for path in paths):
                assert not shown(response) & secret, f"{response.request.path} shows {shown(response) & secret}"
        read = everything["version"]
        if everything["status"] == "reshuffle":
            t.reshuffle(MASS_COOL_RESHUFFLE)
            continue
        turn, answer = everything["turn"], t.step()
        assert answer.status_code == 200
        after = t.view()
        if after["status"] != "finished":
            assert not shown(answer) & never_seen_by(after, turn, seen | face_up(answer.get_json()["events"]))
    assert [s["out"] for s in everything["seats"]] == [False] * 4 + [True]


def test_the_detector_sees_a_mass_cool_casino_hand_and_the_stock_in_the_operators_answers(api, operator):
    """The search above would catch a leak: the operator's view and log show what no one else has seen."""
    t = HttpTable(api, 5, MASS_COOL_DECK, options={"money": 5})
    everything = t.view()
    secret = never_seen_by(everything, None, face_up(api.events(t.game)))
    assert everything["hands"] == ["KD", "KC", "2D", "3D", "4D"] and set(everything["hands"]) <= secret
    assert shown(api.get(t.url, token=operator)) >= secret
    assert shown(api.get(f"{t.url}/events", token=operator)) >= secret


def normalised(response) -> object:
    """An answer's body without what differs between two games whatever
    their cards: times, the creation's commitment and revealed seed, and
    the signature of a moves cursor (``next``), made for its own game."""
    if response.mimetype == "text/event-stream":
        body = [json.loads(m["data"]) for m in sse_messages(response.get_data(as_text=True))]
    else:
        body = response.get_json()

    def strip(value):
        if isinstance(value, dict):
            return {k: unsigned(v) if k == "next" else strip(v) for k, v in value.items()
                    if k not in ("recorded_at", "commitment", "seed")}
        if isinstance(value, list):
            return [strip(v) for v in value]
        return value

    def unsigned(cursor):
        return cursor.rpartition(".")[0] if isinstance(cursor, str) else cursor

    return strip(body)


def test_two_stocks_in_another_order_look_the_same_to_everyone_but_the_operator(api, operator):
    """Twin games whose decks differ only in the order of the stock's last
    twelve cards, played alike for four rounds: at every step, every
    endpoint and the stream answer each seat and the public the same in
    both. Only the operator can tell them apart."""
    deck = deck_codes(3, 0, 8, stock="2D 3D 4D")
    twin = deck[:-12] + deck[-12:][::-1]  # the five rounds' hands come before them
    tables = [HttpTable(api, 3, d) for d in (deck, twin)]
    read = 0
    for _ in range(4 * 4):  # four rounds of three bets and a stop
        views = [t.view() for t in tables]
        assert views[0]["stock"][-12:] == views[1]["stock"][-12:][::-1] != views[1]["stock"][-12:]
        for seat in [None, 0, 1, 2]:
            paths = ["", f"/events?after={read}", f"/events/stream?after={read}&timeout=0.01"]
            paths += ["/moves"] if seat is not None else []
            seen = [[normalised(api.get(t.url + path, token=None if seat is None else t.game.tokens[seat]))
                     for path in paths] for t in tables]
            assert seen[0] == seen[1], f"seat {seat} can tell the stocks apart"
        read = views[0]["version"]
        answered = [normalised(t.step()) for t in tables]
        assert answered[0] == answered[1]
    assert tables[0].view(None)["round"] == 5
    operator_sees = [normalised(api.get(f"{t.url}/events", token=operator)) for t in tables]
    assert operator_sees[0] != operator_sees[1]


@pytest.mark.parametrize("variant", ["cassino", "mass-cool-casino"])
def test_a_time_out_and_the_computers_move_for_it_show_no_hidden_card(api, operator, app, variant):
    """A clocked game whose seats let their time run out, the computer moving
    for them: the clock, ``TimedOut`` and the moves made for the seats show
    each caller nothing it could not see (the stand-in plays from the
    seat's own hand, in the open)."""
    import time

    from service.web.current import services

    created = api.post("/v1/games", json={"variant": variant, "seats": [{"name": "Ann"}, {"name": "Bob"}],
                                          "first_dealer": 0, "clock": {"per_move_seconds": 1},
                                          "on_timeout": "computer"}).get_json()
    url, tokens = f"/v1/games/{created['id']}", [s["token"] for s in created["seats"]]
    first_actions(api, url, tokens)  # then each seat has its clock's 1 s
    for _ in range(3):
        time.sleep(1.05)
        assert services(app).keeper.tick() >= 1  # a shared database may hold other tests' due games
        everything = api.get(url, token=operator).get_json()
        for seat, token in ((None, None), (0, tokens[0]), (1, tokens[1])):
            # Cassino's hands are lists of cards, Mass Cool Casino's one card or none
            hands = [h if isinstance(h, list) else [h] if h else [] for h in everything["hands"]]
            secret = hidden_from({**everything, "hands": hands}, seat)
            for response in (api.get(url, token=token), api.get(f"{url}/events", token=token)):
                assert not shown(response) & secret, (seat, response.get_json())
    types = [e["type"] for e in api.get(f"{url}/events").get_json()["events"]]
    assert types.count("TimedOut") == 3  # one public name in every game


def test_a_players_answers_show_only_what_their_seat_sees(api, operator):
    """Two players who met in the lobby: the lobby, each one's list of games,
    and the game read and played with player tokens show neither the other
    hand nor the stock, at every step of the game."""
    game = open_game(api, seats=(None, None))
    players = [player(api, "Ann"), player(api, "Bo")]
    for someone in players:
        assert join(api, game, someone["token"]).status_code == 200
    deck = ALL_CODES[:]
    random.Random(3).shuffle(deck)
    assert api.deal(game, deck).status_code == 200
    rng = random.Random(5)
    for _ in range(14):
        everything = api.view(game, operator)
        if everything["status"] != "in_progress":
            break
        for seat, someone in enumerate(players):
            secret = hidden_from(everything, seat)
            for response in [api.get("/v1/players/me/games", token=someone["token"]), api.get("/v1/lobby"),
                             *answers(api, game, someone["token"])]:
                assert not shown(response) & secret, f"{response.request.path} shows {shown(response) & secret}"
        turn = players[everything["turn"]]["token"]
        moves = api.get(f"{game.url}/moves", token=turn).get_json()["moves"]
        answer = api.post(f"{game.url}/play", json=rng.choice(moves), token=turn)
        assert not shown(answer) & hidden_from(api.view(game, operator), everything["turn"])

"""What the service gives every game, given to Mass Cool Casino: undo under
each policy, idempotency, ETag and If-Match, the games list and its filters,
the event log and the global feed, replay at any version, verify (sound and
tampered), and the metrics."""

from __future__ import annotations

import secrets

import pytest

from .masscool import VARIANT, HttpTable, deck_codes
from .test_stream_fanout import metric
from .conftest import GLOBAL_ORDER_ON_CITUS

MONEY = {0: "KS QS JS", 1: "KH QH", 2: "KC"}


def table(api, **options) -> HttpTable:
    """Three players, seat 0 deals and bets first; hands 2D 3D 4D."""
    return HttpTable(api, 3, deck_codes(3, 0, 8, MONEY, stock="2D 3D 4D"), options=options)


def undo(t: HttpTable, token):
    return t.api.post(f"{t.url}/undo", token=token)


def answer(t: HttpTable, seat: int, accept: bool):
    return t.api.post(f"{t.url}/undo/answer", json={"accept": accept}, token=t.game.tokens[seat])


def kinds(response) -> list[str]:
    assert response.status_code == 200, response.get_json()
    return [e["type"] for e in response.get_json()["events"]]


# -- undo ---------------------------------------------------------------------

def test_consent_the_others_still_in_agree_and_the_bet_goes_back(api, operator):
    """Under ``consent`` every other player still in the game agrees (docs/rules.md, "Taking a move back")."""
    t = table(api)
    before = t.view(None)
    t.bet(0, "KS QS")
    assert refused(t, undo(t, t.game.tokens[1])) == "not_your_play"
    assert refused(t, answer(t, 1, True)) == "no_undo_request"
    asked = undo(t, t.game.tokens[0])
    assert kinds(asked) == ["UndoRequested"]
    assert asked.get_json()["game"]["undo_request"] == {"seat": 0, "accepted": []}
    assert refused(t, undo(t, t.game.tokens[0])) == "undo_pending"
    assert refused(t, answer(t, 0, True)) == "own_undo_request"
    assert kinds(answer(t, 1, True)) == ["UndoAnswered"]
    assert refused(t, answer(t, 1, True)) == "already_answered"
    assert kinds(answer(t, 2, True)) == ["UndoAnswered", "PlayUndone"]
    after = t.view(None)
    assert after["seats"] == before["seats"] and after["turn"] == 0 and after["undo_request"] is None
    assert "BetPlaced" in [e["type"] for e in t.api.events(t.game, operator)]  # the log keeps the bet


def test_consent_one_refusal_drops_the_request(api):
    t = table(api)
    t.bet(0, "KS")
    undo(t, t.game.tokens[0])
    assert kinds(answer(t, 2, False)) == ["UndoAnswered"]
    view = t.view(None)
    assert view["undo_request"] is None and view["seats"][0]["bet"] == ["KS"] and view["turn"] == 1


def test_free_takes_back_at_once_and_the_operator_always_may(api, operator):
    t = table(api, undo="free")
    t.bet(0, "KS")
    assert kinds(undo(t, t.game.tokens[0])) == ["PlayUndone"]
    t.bet(0, "QS")
    forced = undo(t, operator)
    assert kinds(forced) == ["PlayUndone"] and forced.get_json()["events"][0]["data"] == {
        "seat": 0, "forced": True, "restores_clock": True}
    assert t.money(0)[:3] == ["KS", "QS", "JS"] and t.view(None)["seats"][0]["bet"] == []


def test_off_refuses_and_nothing_is_taken_back_across_a_showdown(api, operator):
    t = table(api, undo="off")
    t.bet(0, "KS")
    assert refused(t, undo(t, t.game.tokens[0])) == "undo_not_allowed"
    assert refused(t, undo(t, operator)) == "undo_not_allowed"
    free = table(api, undo="free")
    assert refused(free, undo(free, free.game.tokens[0])) == "nothing_to_undo"  # nothing since the draw
    free.one_card_each()
    assert refused(free, undo(free, operator)) == "nothing_to_undo"


def refused(t: HttpTable, response) -> str:
    before = t.view()["version"]
    rule = t.refused(response)
    assert t.view()["version"] == before
    return rule


# -- idempotency, ETag and If-Match ---------------------------------------------

def test_a_retried_bet_gets_the_first_answer_and_appends_nothing(api, operator):
    t = table(api)
    key = {"Idempotency-Key": "bet-1"}
    first = t.post(0, {"action": "bet", "cards": ["KS"]}, headers=key)
    again = t.post(0, {"action": "bet", "cards": ["ks"]}, headers=key)  # the same move, written otherwise
    assert first.status_code == again.status_code == 200 and first.get_json() == again.get_json()
    assert t.view()["version"] == first.get_json()["version"]
    other = t.post(0, {"action": "bet", "cards": ["QS"]}, headers=key)
    assert other.status_code == 422 and other.get_json()["code"] == "idempotency_key_reused"
    assert t.view()["version"] == first.get_json()["version"]


def test_every_view_carries_its_version_and_a_stale_if_match_is_412(api):
    t = table(api)
    shown = t.api.get(t.url, token=t.game.tokens[1])
    version = shown.get_json()["version"]
    assert shown.headers["ETag"] == f'"{version}"'
    assert t.api.get(f"{t.url}/moves", token=t.game.tokens[0]).headers["ETag"] == f'"{version}"'
    done = t.post(0, {"action": "bet", "cards": ["KS"]}, headers={"If-Match": f'"{version}"'})
    assert done.status_code == 200 and done.headers["ETag"] == f'"{done.get_json()["version"]}"'
    stale = t.post(1, {"action": "bet", "cards": ["KH"]}, headers={"If-Match": f'"{version}"'})
    assert stale.status_code == 412 and stale.get_json()["version"] == done.get_json()["version"]
    assert stale.headers["ETag"] == done.headers["ETag"]


# -- the games list --------------------------------------------------------------

def test_the_list_shows_each_game_with_its_type_status_and_outcome(api, operator):
    name = f"Mo-{secrets.token_hex(4)}"
    waiting = api.create(players=3, variant=VARIANT, first_name=name)
    betting = HttpTable(api, 3, first_name=name)  # dealt from the committed seed
    tied = HttpTable(api, 2, deck_codes(2, 0, 10, stock="KD KC"), first_name=name)
    tied.one_card_each()
    over = HttpTable(api, 2, deck_codes(2, 0, 25, stock="KD QD"), options={"money": 25}, first_name=name)
    over.one_card_each()
    cassino = api.create(first_name=name)

    def listed(query: str) -> list[str]:
        response = api.get(f"/v1/games?player={name}&{query}", token=operator)
        assert response.status_code == 200
        return [g["id"] for g in response.get_json()["games"]]

    assert listed("variant=mass-cool-casino") == [over.game.id, tied.game.id, betting.game.id, waiting.id]
    assert listed("status=betting") == [betting.game.id]
    assert listed("status=reshuffle&status=waiting") == [cassino.id, tied.game.id, waiting.id]
    assert listed("status=finished") == [over.game.id]
    games = {g["id"]: g for g in api.get(f"/v1/games?player={name}", token=operator).get_json()["games"]}
    finished = games[over.game.id]
    assert finished["game_type"] == "mass-cool-casino" and finished["status"] == "finished"
    winners = over.view(None)["winners"]
    assert finished["outcome"] == {"winners": winners, "result": "deck_out", "seats": winners, "reason": "deck_out"}
    assert finished["finished_at"] is not None and finished["players"] == [name, "P1"]
    assert games[tied.game.id]["outcome"] is None and games[cassino.id]["game_type"] == "cassino"


# -- the logs, replay, verify and metrics ------------------------------------------

@pytest.fixture
def played(api) -> HttpTable:
    """A two-player game through a tie and three more pots."""
    t = HttpTable(api, 2, deck_codes(2, 0, 10, stock="KD KC"))
    t.one_card_each()
    t.reshuffle("QD 2D")
    for _ in range(3):
        t.one_card_each()
    return t


def test_the_log_pages_by_version_and_each_seat_sees_its_own_hand_only(api, played, operator):
    full = api.events(played.game, operator)
    assert [e["version"] for e in full] == list(range(1, len(full) + 1))
    page = api.get(f"{played.url}/events?after=2&limit=3", token=played.game.tokens[1]).get_json()
    assert [e["version"] for e in page["events"]] == [3, 4, 5] and page["next"] == 5
    seat = api.events(played.game, played.game.tokens[1])
    assert [e["type"] for e in seat] == [e["type"] for e in full]
    for mine, everything in zip(seat, full):
        if mine["type"] == "HandsDrawn":
            assert mine["data"]["hands"] == [None, everything["data"]["hands"][1]]
            assert mine["data"]["drawn"] == [True, True]
        elif mine["type"] in ("MoneyDealt", "DeckReshuffled"):
            assert mine["data"]["deck"] is None and mine["data"]["deck_count"] == len(everything["data"]["deck"])
        elif mine["type"] == "ShufflePromised":  # the seed shows in its ShuffleRevealed, later
            assert mine["data"]["seed"] is None and everything["data"]["seed"]
        else:
            assert mine == {k: v for k, v in everything.items() if k not in ("position", "metadata", "hash", "chain")}


@pytest.mark.not_on_citus(GLOBAL_ORDER_ON_CITUS)
def test_the_global_feed_carries_the_games_events_as_the_operator_sees_them(api, operator, last_position):
    start = last_position()
    t = table(api)
    t.one_card_each()
    feed = api.get(f"/v1/events?after={start}&limit=500", token=operator).get_json()["events"]
    mine = [e for e in feed if e["game_id"] == t.game.id]
    assert [{k: v for k, v in e.items() if k != "game_id"} for e in mine] == api.events(t.game, operator)


def test_replay_gives_the_operators_view_at_every_version(api, operator):
    t = table(api)
    seen = {t.view()["version"]: t.view()}
    for body in ({"action": "bet", "cards": ["KS"]}, {"action": "bet", "cards": ["KH"]},
                 {"action": "bet", "cards": ["KC"]}, {"action": "stop"}):
        t.post(t.view(None)["turn"], body)
        seen[t.view()["version"]] = t.view()
    assert len(seen) == 5
    for version, view in seen.items():
        replayed = api.get(f"{t.url}/replay?version={version}", token=operator)
        assert replayed.status_code == 200 and replayed.get_json() == view
    earlier = api.get(f"{t.url}/replay?version=2", token=operator).get_json()
    assert earlier["status"] == "waiting" and earlier["seats"][0]["money"] == []
    assert api.get(f"{t.url}/replay?version=2", token=t.game.tokens[0]).status_code == 403  # not over yet


def test_verify_finds_a_sound_game_sound_and_names_a_row_changed_behind_its_back(api, played, operator, tamper):
    report = api.get(f"{played.url}/verify", token=operator).get_json()
    assert report["ok"] is True and {c["name"] for c in report["checks"] if c["ok"]} == {
        "hash_chain", "order", "checkpoint", "projection", "shuffles"}
    [bet] = [e for e in api.events(played.game, operator) if e["type"] == "BetPlaced"][-1:]
    tamper("UPDATE events SET data = jsonb_set(data, '{cards}', '[\"AS\"]') WHERE game_id = %s AND version = %s",
           (played.game.id, bet["version"]))
    report = api.get(f"{played.url}/verify", token=operator).get_json()
    chain = next(c for c in report["checks"] if c["name"] == "hash_chain")
    assert report["ok"] is False and chain["ok"] is False and chain["first_bad_version"] == bet["version"]


def test_a_seeded_games_shuffles_are_checked_against_their_commitments(api, operator, tamper):
    t = HttpTable(api, 3)
    t.one_card_each()
    promised = [e for e in api.events(t.game, operator) if e["type"] == "ShufflePromised"]
    # The deal's and the next shuffle's; a third if the pot happened to tie and was reshuffled.
    assert [e["data"]["shuffle"] for e in promised] == list(range(1, len(promised) + 1)) and len(promised) >= 2
    shuffles = next(c for c in api.get(f"{t.url}/verify", token=operator).get_json()["checks"]
                    if c["name"] == "shuffles")
    assert shuffles["ok"] is True
    dealt = next(e for e in api.events(t.game, operator) if e["type"] == "MoneyDealt")
    deck = dealt["data"]["deck"]
    tamper("UPDATE events SET data = jsonb_set(data, '{deck}', %s::jsonb) WHERE game_id = %s AND version = %s",
           (f'["{deck[1]}", "{deck[0]}", ' + ", ".join(f'"{c}"' for c in deck[2:]) + "]", t.game.id,
            dealt["version"]))
    shuffles = next(c for c in api.get(f"{t.url}/verify", token=operator).get_json()["checks"]
                    if c["name"] == "shuffles")
    assert shuffles["ok"] is False and "shuffle 1:" in shuffles["detail"].lower()


def test_the_metrics_count_its_commands(api):
    commands = metric(api, "casino_commands_appended_total")
    plays = 'casino_http_requests_total{method="POST",route="/v1/games/<uuid:game_id>/play",status="200"}'
    before = metric(api, plays)
    t = table(api)
    t.one_card_each()  # three bets and a stop
    assert metric(api, "casino_commands_appended_total") == commands + 6  # the creation and the deal too
    assert metric(api, plays) == before + 4

"""GET /v1/events: every game's events, in one order, for catch-up readers."""

import itertools

import pytest

from .conftest import GLOBAL_ORDER_ON_CITUS, ORDERED_DECK


def read_from(api, operator, after: int, limit: int) -> tuple[list[dict], int, int]:
    """Page on from ``after`` until a short page; the events, the final cursor and the page count."""
    events, pages = [], 0
    while True:
        response = api.get(f"/v1/events?after={after}&limit={limit}", token=operator)
        assert response.status_code == 200
        page = response.get_json()
        events += page["events"]
        pages += 1
        after = page["next"]
        if len(page["events"]) < limit:
            return events, after, pages


@pytest.mark.not_on_citus(GLOBAL_ORDER_ON_CITUS)
def test_a_reader_pages_through_every_games_events_in_append_order(api, operator, last_position):
    start = last_position()
    one, two = api.create(), api.create()
    api.deal(two, ORDERED_DECK)
    api.deal(one, ORDERED_DECK)
    api.play(two, steps=3)

    events, cursor, pages = read_from(api, operator, start, limit=2)

    assert pages >= 4 and cursor == events[-1]["position"] == last_position()
    # Runs of one game's events, in the order of the commands above.
    assert [game for game, _ in itertools.groupby(e["game_id"] for e in events)] == [one.id, two.id, one.id,
                                                                                     two.id]
    positions = [e["position"] for e in events]
    assert positions == sorted(positions) and len(set(positions)) == len(positions)
    logged = {g.id: api.events(g, operator) for g in (one, two)}
    for event in events:
        game_id = event.pop("game_id")
        assert event == logged[game_id][event["version"] - 1]  # the operator's own log, word for word
    assert len(events) == sum(map(len, logged.values()))


@pytest.mark.not_on_citus(GLOBAL_ORDER_ON_CITUS)
def test_a_reader_paging_by_cursor_reads_what_a_reader_paging_by_after_does(api, operator, last_position):
    start = last_position()
    game = api.create()
    api.deal(game, ORDERED_DECK)
    by_after, after, _ = read_from(api, operator, start, limit=2)
    by_cursor, cursor = [], str(start)
    while page := api.get(f"/v1/events?cursor={cursor}&limit=2", token=operator).get_json():
        by_cursor += page["events"]
        cursor = page["cursor"]
        if len(page["events"]) < 2:
            break
    assert by_cursor == by_after and cursor == str(after) == str(last_position())


@pytest.mark.not_on_citus(GLOBAL_ORDER_ON_CITUS)
def test_at_the_end_next_stays_put_until_more_events_come(api, operator, last_position):
    end = last_position()
    empty = api.get(f"/v1/events?after={end}", token=operator).get_json()
    assert empty == {"events": [], "next": end, "cursor": str(end)}

    game = api.create()
    created = api.get(f"/v1/events?after={end}", token=operator).get_json()["events"]
    assert created[0]["type"] == "GameCreated" and {e["game_id"] for e in created} == {game.id}


def test_only_the_operator_reads_the_global_log(api):
    game = api.create()
    assert api.get("/v1/events").status_code == 401
    refused = api.get("/v1/events", token=game.tokens[0])
    assert refused.status_code == 401 and refused.get_json()["detail"] == (
        "This is not the operator's token, nor a player token (a seat's token works only in its own game):"
        " send the operator's token to read every game's events.")


def test_a_bad_cursor_is_400(api, operator):
    for query in ("after=-1", "after=9007199254740992", "limit=501", "after=%C2%B2", "cursor=", "cursor=1.",
                  "cursor=a", "cursor=12345678901234567"):
        assert api.get(f"/v1/events?{query}", token=operator).status_code == 400

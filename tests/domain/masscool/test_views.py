"""What a seat, a spectator and the operator see: money and bets are
public, a hand is its owner's until the showdown, the stock's order the
operator's alone."""

from domain.masscool import event_view, game_view, to_json

from .table import Table, stacked_deck


def codes_in(value) -> set[str]:
    """Every string in a JSON-like value."""
    if isinstance(value, dict):
        return set().union(*map(codes_in, value.values())) if value else set()
    if isinstance(value, list):
        return set().union(*map(codes_in, value)) if value else set()
    return {value} if isinstance(value, str) else set()


def table() -> Table:
    return Table(3, deck=stacked_deck(3, 0, 8, stock="KD 2D 3D"), seed=bytes(32), next_seed=bytes(range(32)))


def test_money_and_bets_are_public_and_hands_are_their_owners():
    t = table()
    t.bet(0, t.state.money[0][0].code)
    hands = {c.code for c in t.state.hands}
    stock = {c.code for c in t.state.stock}
    for seat in (None, 0, 1):
        view = game_view(t.state, seat)
        assert [s["money"] for s in view["seats"]] == [[c.code for c in m] for m in t.state.money]
        assert view["seats"][0]["bet"] == [t.state.bets[0][0].code]
        own = {t.state.hands[seat].code} if seat is not None else set()
        assert codes_in(view) & hands == own
        assert not codes_in(view) & stock
        assert view["deck_count"] == len(t.state.stock)
    assert "hand" not in game_view(t.state)
    operator = game_view(t.state, operator=True)
    assert operator["stock"] == [c.code for c in t.state.stock] and set(operator["hands"]) == hands


def test_the_showdown_shows_every_hand_to_everyone():
    t = table()
    for seat in (0, 1, 2):
        t.bet(seat, t.state.money[seat][0].code)
    t.stop(0)
    view = game_view(t.state)
    assert view["last_showdown"] == {"hands": ["KD", "2D", "3D"], "winner": 0}
    assert view["round"] == 2 and view["turn"] == 1


def test_events_hide_the_deck_order_the_seeds_and_other_hands():
    t = table()
    secrets = {c.code for c in t.state.stock} | {t.state.next_seed}  # the fixed deal revealed the first seed
    for seat in (None, 1):
        seen = set()
        for event in t.events:
            shown = event_view(to_json(event), seat)
            assert shown["type"] == type(event).__name__
            seen |= codes_in(shown["data"])
        own = {t.state.hands[1].code} if seat is not None else set()
        assert seen & (secrets | {c.code for c in t.state.hands}) == own
    drawn = event_view(to_json(t.events[-1]), seat=1)["data"]
    assert drawn["hands"] == [None, "2D", None] and drawn["drawn"] == [True, True, True]
    dealt = event_view(to_json(t.events[3]))["data"]
    assert dealt["deck"] is None and dealt["deck_count"] == 52
    assert all(event_view(to_json(e), operator=True) == to_json(e) for e in t.events)
    assert all(event_view(to_json(e), reveal=True) == to_json(e) for e in t.events)

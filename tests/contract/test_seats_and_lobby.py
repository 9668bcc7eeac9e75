"""What an append writes of who holds which seat, and of the lobby, kept by
both wirings (see conftest's ``contract``): seat tokens withdrawn, the seats
players take and leave (``player_seats``), and a game's ``lobby`` entry,
kept only for a game created listed."""

from __future__ import annotations

import uuid
from datetime import timedelta

import pytest

from service.auth import hash_token
from service.events import Append, ConcurrencyError, NewEvent, StoredEvent
from domain.rating import INITIAL, Rating
from service.readmodel import SEAT_RATINGS, Cursor
from service.writes import GameRow, RatingChanged, Write, seat_tokens
from service.writes import player_seats as held_seats

META = {"actor": "public", "command_id": "c-1", "request_id": "r-1"}
ENTRY = {"seats": [{"seat": 0, "name": "Ann", "open": False}, {"seat": 1, "name": None, "open": True}],
         "clock": None}


def first(contract, game: uuid.UUID, *, variant: str = "cassino", listed: bool = False, lobby=None,
          **append) -> StoredEvent:
    row = {"variant": variant, "status": "waiting", "player_names": ["Ann", None], "version": 1}
    if listed:
        row |= {"listed": True, "lobby": lobby}
    [stored] = contract.store.append(Append(game, 0, [NewEvent("GameCreated", 1, {})], META,
                                            writes=_writes(game_row=row, **append)))
    return stored


def then(contract, game: uuid.UUID, before: StoredEvent, **append) -> StoredEvent:
    append.setdefault("game_row", {"version": before.version + 1})
    [stored] = contract.store.append(Append(game, before.version, [NewEvent("Next", 1, {})], META,
                                            previous_hash=before.hash, writes=_writes(**append)))
    return stored


def _writes(game_row, seat_token_hashes=None, player_seats=None, ratings=()) -> list[Write]:
    return [GameRow(game_row), *seat_tokens(seat_token_hashes or {}), *held_seats(player_seats or {}), *ratings]


def test_a_seat_token_withdrawn_stops_being_kept_and_its_seat_may_get_another(contract):
    game = uuid.uuid4()
    created = first(contract, game, seat_token_hashes={0: hash_token("a"), 1: hash_token("b")})

    left = then(contract, game, created, seat_token_hashes={1: None})
    assert contract.store.seat_token_hashes(game) == {0: hash_token("a")}
    then(contract, game, left, seat_token_hashes={1: hash_token("c")})
    assert contract.store.seat_token_hashes(game) == {0: hash_token("a"), 1: hash_token("c")}


def test_the_seats_players_take_and_leave_are_kept_and_listed(contract):
    game, ann, bob = uuid.uuid4(), uuid.uuid4(), uuid.uuid4()
    created = first(contract, game)
    created_at = contract.games_row(game)["created_at"]

    joined = then(contract, game, created, player_seats={ann: 1})
    assert contract.players.seat_of(ann, game) == 1
    rows, following = contract.read_model.player_games(ann, (), None, 10)
    assert following is None and [(r["id"], r["seat"], r["status"], r["created_at"]) for r in rows] == [
        (game, 1, "waiting", created_at)]
    with pytest.raises(ConcurrencyError):  # seat 1 is held
        then(contract, game, joined, player_seats={bob: 1})
    with pytest.raises(ConcurrencyError):  # a player holds one seat of a game
        then(contract, game, joined, player_seats={ann: 0})

    then(contract, game, joined, player_seats={ann: None, bob: 0})
    assert (contract.players.seat_of(ann, game), contract.players.seat_of(bob, game)) == (None, 0)
    assert contract.read_model.player_games(ann, (), None, 10) == ([], None)


def test_a_players_games_are_paged_newest_first_and_filtered_by_status(contract):
    ann, due = uuid.uuid4(), contract.store.now() + timedelta(hours=1)
    games = []
    for n in range(3):
        game = uuid.uuid4()
        then(contract, game, first(contract, game), player_seats={ann: n},
             game_row={"version": 2, "status": "finished" if n == 1 else "in_progress",
                       "awaiting": [n], "deadline": due + timedelta(minutes=n)})
        games.append(game)

    page, following = contract.read_model.player_games(ann, (), None, 2)
    rest, end = contract.read_model.player_games(ann, (), following, 2)
    newest_first = sorted(games, key=lambda g: (contract.games_row(g)["created_at"], g), reverse=True)
    assert [r["id"] for r in page + rest] == newest_first and end is None
    assert following == Cursor.of(page[-1])
    assert all(r["seat"] == games.index(r["id"]) and r["awaiting"] == [r["seat"]] for r in page + rest)
    by_seat = {r["seat"]: r["deadline"] for r in page + rest}
    assert by_seat[2] - by_seat[0] == timedelta(minutes=2)
    finished, _ = contract.read_model.player_games(ann, ("finished",), None, 10)
    assert [r["id"] for r in finished] == [games[1]]
    turns = contract.read_model.player_turns(ann)  # each game awaits Ann's seat
    assert [(r["id"], r["version"], r["deadline"]) for r in turns] == [
        (r["id"], 2, r["deadline"]) for r in page + rest]


def test_a_players_turns_are_the_games_that_wait_for_the_players_seat(contract):
    ann, waiting, other = uuid.uuid4(), uuid.uuid4(), uuid.uuid4()
    then(contract, waiting, first(contract, waiting), player_seats={ann: 1},
         game_row={"version": 2, "awaiting": [1], "deadline": None})
    then(contract, other, first(contract, other), player_seats={ann: 0},
         game_row={"version": 2, "awaiting": [1], "deadline": None})

    assert [(r["id"], r["version"], r["deadline"]) for r in contract.read_model.player_turns(ann)] == [
        (waiting, 2, None)]
    assert contract.read_model.player_turns(uuid.uuid4()) == []


def test_the_lobby_lists_listed_games_with_an_entry_newest_first(contract):
    variant = f"v-{uuid.uuid4().hex[:8]}"  # the module's games are many: look at this test's own
    listed, private, other = uuid.uuid4(), uuid.uuid4(), uuid.uuid4()
    first(contract, listed, variant=variant, listed=True, lobby=ENTRY)
    made = first(contract, private, variant=variant)
    first(contract, other, variant="elsewhere-" + variant, listed=True, lobby=ENTRY)

    then(contract, private, made, game_row={"version": 2, "lobby": ENTRY})  # kept only for a listed game

    rows, following = contract.read_model.lobby((variant,), None, 10)
    assert following is None
    assert [(r["id"], r["variant"], r["lobby"]) for r in rows] == [(listed, variant, ENTRY)]
    assert contract.games_row(private)["lobby"] is None
    both, _ = contract.read_model.lobby((variant, "elsewhere-" + variant), None, 10)
    newest_first = sorted([listed, other], key=lambda g: (contract.games_row(g)["created_at"], g), reverse=True)
    assert [r["id"] for r in both] == newest_first
    page, cursor = contract.read_model.lobby((variant, "elsewhere-" + variant), None, 1)
    rest, end = contract.read_model.lobby((variant, "elsewhere-" + variant), cursor, 1)
    assert [r["id"] for r in page + rest] == newest_first and end is None


def test_a_game_leaves_the_lobby_when_its_entry_is_cleared_and_comes_back_with_a_new_one(contract):
    variant, game = f"v-{uuid.uuid4().hex[:8]}", uuid.uuid4()
    full = {**ENTRY, "seats": [{"seat": 0, "name": "Ann", "open": False}]}
    cleared = then(contract, game, first(contract, game, variant=variant, listed=True, lobby=ENTRY),
                   game_row={"version": 2, "lobby": None})
    assert contract.read_model.lobby((variant,), None, 10) == ([], None)

    then(contract, game, cleared, game_row={"version": 3, "lobby": full})
    assert [r["lobby"] for r in contract.read_model.lobby((variant,), None, 10)[0]] == [full]


def test_the_lobby_and_a_players_games_read_each_held_seats_rating_in_the_games_variant(contract):
    variant, ann, bob = f"v-{uuid.uuid4().hex[:8]}", uuid.uuid4(), uuid.uuid4()
    listed, other = uuid.uuid4(), uuid.uuid4()
    # Ann has a rating in the variant (kept by a rated game's append), and another elsewhere; Bob none yet.
    rated = uuid.uuid4()
    first(contract, rated, ratings=[RatingChanged(ann, variant, 0, 1612.5, 480.25, 1),
                                    RatingChanged(ann, "elsewhere-" + variant, 1, 1400.0, 470.0, 2)])
    then(contract, listed, first(contract, listed, variant=variant, listed=True, lobby=ENTRY),
         player_seats={ann: 0, bob: 2}, game_row={"version": 2})
    then(contract, other, first(contract, other, variant="elsewhere-" + variant, listed=True, lobby=ENTRY),
         player_seats={ann: 1})

    [row], _ = contract.read_model.lobby((variant,), None, 10)
    assert row[SEAT_RATINGS] == {0: Rating(1612.5, 480.25, 1), 2: INITIAL}  # seat 1: nobody's (a guest's, open)
    [row], _ = contract.read_model.lobby(("elsewhere-" + variant,), None, 10)
    assert row[SEAT_RATINGS] == {1: Rating(1400.0, 470.0, 2)}
    mine = {r["id"]: r[SEAT_RATINGS] for r in contract.read_model.player_games(ann, (), None, 10)[0]}
    assert mine == {listed: {0: Rating(1612.5, 480.25, 1), 2: INITIAL}, other: {1: Rating(1400.0, 470.0, 2)}}
    [row], _ = contract.read_model.player_games(bob, (), None, 10)
    assert row[SEAT_RATINGS] == {0: Rating(1612.5, 480.25, 1), 2: INITIAL}

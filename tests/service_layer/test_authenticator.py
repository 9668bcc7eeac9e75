"""Who a token names (service.auth.Authenticator) when seats change hands:
what the store says is remembered only once the game's seats are settled."""

from __future__ import annotations

import time
import uuid

import pytest

from service.auth import (OPERATOR, PUBLIC, TOKEN_TRUST_SECONDS, Authenticator, Unauthenticated, hash_token,
                          new_player_token, player, seat)
from service.memory.players import MemoryPlayers
from service.memory.store import MemoryEventStore
from service.memory.tables import HeldSeat, KeptPlayer, Tables
from service.memory.tickets import MemoryTicketUses
from service.players import Player

GAME = uuid.uuid4()


@pytest.fixture
def tables() -> Tables:
    return Tables()


def authenticator(tables: Tables, settled: set[uuid.UUID]) -> Authenticator:
    return Authenticator("operator", MemoryEventStore(tables), players=MemoryPlayers(tables),
                         settled=lambda game_id: game_id in settled)


def bearer(token: str) -> str:
    return f"Bearer {token}"


def test_a_seat_token_of_a_game_whose_seats_may_change_is_asked_of_the_store_every_time(tables):
    tables.tokens[GAME] = {0: hash_token("zero"), 1: hash_token("one")}
    settled: set[uuid.UUID] = set()
    who = authenticator(tables, settled)

    assert who.caller(bearer("one"), GAME) == seat(1)
    del tables.tokens[GAME][1]  # the seat was left
    with pytest.raises(Unauthenticated):
        who.caller(bearer("one"), GAME)

    settled.add(GAME)
    assert who.caller(bearer("zero"), GAME) == seat(0)
    del tables.tokens[GAME][0]  # by hand: a settled game's seats do not change
    assert who.caller(bearer("zero"), GAME) == seat(0)  # remembered, as before this issue


def test_a_player_token_names_the_seat_its_player_holds_and_only_a_settled_game_is_remembered(tables):
    players, token = MemoryPlayers(tables), new_player_token()
    ann = Player(uuid.uuid4(), "Ann")
    players.add(ann, hash_token(token))
    settled: set[uuid.UUID] = set()
    who = authenticator(tables, settled)

    assert who.caller(bearer(token), None) == player(ann.id)
    assert who.caller(bearer(token), GAME) == player(ann.id)  # no seat there
    tables.player_seats[(ann.id, GAME)] = HeldSeat(2, tables.now())
    assert who.caller(bearer(token), GAME) == seat(2, ann.id)
    del tables.player_seats[(ann.id, GAME)]  # left
    assert who.caller(bearer(token), GAME) == player(ann.id)

    settled.add(GAME)
    tables.player_seats[(ann.id, GAME)] = HeldSeat(1, tables.now())
    assert who.caller(bearer(token), GAME) == seat(1, ann.id)
    del tables.player_seats[(ann.id, GAME)]
    assert who.caller(bearer(token), GAME) == seat(1, ann.id)  # remembered once settled


def test_a_player_token_is_neither_a_seat_token_nor_the_operators(tables):
    tables.tokens[GAME] = {0: hash_token("zero")}
    who = authenticator(tables, {GAME})

    for token in ("player.unknown", "player." + "A" * 43):
        with pytest.raises(Unauthenticated):
            who.caller(bearer(token), GAME)
    assert who.caller(bearer("operator"), GAME) == OPERATOR
    assert who.caller(None, GAME) == PUBLIC
    with pytest.raises(Unauthenticated):
        who.caller(bearer("zero"), None)  # a seat token names no one outside its game


def test_a_players_stream_ticket_dies_with_the_players_token(tables):
    players, token = MemoryPlayers(tables), new_player_token()
    ann = Player(uuid.uuid4(), "Ann")
    players.add(ann, hash_token(token))
    who = Authenticator("operator", MemoryEventStore(tables), MemoryTicketUses(tables), players=players)
    now = time.time()

    ticket, _ = who.player_ticket(player(ann.id), now)
    assert who.redeem_player(ticket, now + 1) == player(ann.id)
    with pytest.raises(Unauthenticated):
        who.redeem_player(ticket, now + 2)  # used once
    other, _ = who.player_ticket(player(ann.id), now)
    with pytest.raises(Unauthenticated):
        who.redeem(GAME, other, now + 1)  # a player's stream's ticket opens no game's stream
    bob = Player(uuid.uuid4(), "Bob")
    players.add(bob, hash_token(new_player_token()))
    with pytest.raises(Unauthenticated):  # nor another player's
        who.redeem_player(other.replace(ann.id.hex, bob.id.hex), now + 1)
    game_ticket, _ = who.ticket(GAME, player(ann.id), now)
    with pytest.raises(Unauthenticated):  # and a game's opens no player's
        who.redeem_player(game_ticket, now + 1)
    tables.players[ann.id] = KeptPlayer("Ann", hash_token("replaced"), tables.now())
    with pytest.raises(Unauthenticated):
        who.redeem_player(other, now + 1)  # the token it was issued under is gone


def test_what_the_store_said_of_a_token_is_trusted_for_a_minute_then_asked_again(tables):
    tables.tokens[GAME] = {0: hash_token("zero")}
    now = [1000.0]
    who = Authenticator("operator", MemoryEventStore(tables), clock=lambda: now[0], settled=lambda game_id: True)
    assert who.caller(bearer("zero"), GAME) == seat(0)
    del tables.tokens[GAME][0]  # withdrawn in the database
    now[0] += TOKEN_TRUST_SECONDS - 0.5
    assert who.caller(bearer("zero"), GAME) == seat(0)  # still trusted
    now[0] += 0.5
    with pytest.raises(Unauthenticated):
        who.caller(bearer("zero"), GAME)

"""The interface games share: the registry, fold's contract, and the enums
that stand for the strings clients see. The whole games here are played
through ``domain.game_types`` alone, as a service's loop plays them: create,
deal as the operator when no seat has a move, post a listed move, and
issue whatever ``follow_up`` asks for, until the game is over."""

import hashlib
import json

import pytest

import domain
from domain import GAME_TYPES, OptionError, full_deck, game_of
from domain.cassino import Action, CreateGame, Deal, EndReason, Move, Status, decide, fold, from_json, to_json
from domain.cassino.events import GameFinished
from domain.game_types import GameType, game_of_event


def test_every_variant_and_event_type_belongs_to_one_registered_game():
    assert GAME_TYPES == {"cassino": domain.cassino, "mass-cool-casino": domain.masscool}
    for game in GAME_TYPES.values():
        assert GAME_TYPES[game.GAME_TYPE] is game
        for name in game.VARIANTS:
            assert game_of(name) is game
        for kind in game.EVENT_TYPES:
            assert game_of_event(kind) is game
    assert sum(len(g.VARIANTS) for g in GAME_TYPES.values()) == len(
        set().union(*(g.VARIANTS for g in GAME_TYPES.values())))
    assert sum(len(g.EVENT_TYPES) for g in GAME_TYPES.values()) == len(
        set().union(*(g.EVENT_TYPES for g in GAME_TYPES.values())))
    with pytest.raises(KeyError):
        game_of("poker")
    with pytest.raises(KeyError):
        game_of_event("ChipsStacked")


def test_a_game_module_plays_through_the_interface_alone():
    game = game_of("cassino")
    state = game.fold(game.decide(None, CreateGame("cassino", ("Ann", "Bob"), 1)))
    events = game.decide(state, Deal(full_deck()))
    state = game.fold(events, state)
    assert state.version == 2 and game.legal_moves(state, state.turn).first().moves
    assert [game.from_json(game.to_json(e)) for e in events] == events


def test_each_variant_is_played_by_its_seat_counts_and_no_others():
    for game in GAME_TYPES.values():
        for preset in game.VARIANTS.values():
            assert set(preset.players) <= set(game.PLAYERS) and preset.description
            for players in range(1, 10):
                if players in preset.players:
                    assert isinstance(game.resolve(preset.name, None, players).to_dict(), dict)
                else:
                    with pytest.raises(OptionError):
                        game.resolve(preset.name, None, players)
    assert GAME_TYPES["mass-cool-casino"].PLAYERS == (2, 3, 4, 5, 6, 7, 8)


@pytest.mark.parametrize("variant, overrides", [("mass-cool-casino", {"target": 21}), ("cassino", {"money": 6}),
                                                ("mass-cool-casino", {"money": "many"})])
def test_options_are_checked_by_the_game_of_the_variant(variant, overrides):
    game = game_of(variant)
    with pytest.raises(OptionError):
        game.resolve(variant, overrides, 2)
    with pytest.raises(OptionError):
        game.decide(None, game.create_command(variant, ("Ann", "Bob"), 0, overrides, None))


def test_a_variant_is_created_only_by_its_own_game():
    with pytest.raises(OptionError):
        GAME_TYPES["mass-cool-casino"].decide(None, GAME_TYPES["mass-cool-casino"].create_command(
            "cassino", ("Ann", "Bob"), 0, None, None))


class Service:
    """What a service does with a game through the registry alone, with its
    own secret seeds (here derived from a counter, to be repeatable)."""

    def __init__(self, variant: str, names: tuple[str, ...], options=None):
        self.game: GameType = game_of(variant)
        self.stored: list[dict] = []
        self.state = None
        self.seeds = 0
        self.run(self.game.create_command(variant, names, 0, options, self.seed()))

    def seed(self) -> bytes:
        self.seeds += 1
        return hashlib.sha256(b"seed %d" % self.seeds).digest()

    def run(self, command) -> None:
        """Decide, keep the events in their stored form, and issue the follow-ups."""
        while command is not None:
            events = self.game.decide(self.state, command)
            self.stored += [json.loads(json.dumps(self.game.to_json(e))) for e in events]
            self.state = self.game.fold(events, self.state)
            command = self.game.follow_up(self.state, self.seed())

    def step(self, turn: int) -> None:
        """The first seat that has a move plays one of its listed moves (a
        different one each turn); with none, the operator deals."""
        for seat in range(len(self.game.seats(self.state))):
            listed = self.game.legal_moves(self.state, seat).first()
            if listed.moves:
                body = listed.moves[turn % len(listed.moves)].to_dict()
                self.run(self.game.command_for(seat, self.game.parse_move(body), self.seed()))
                return
        self.run(self.game.deal_command(None, None, self.seed()))


FIVE = ("Ann", "Bob", "Cy", "Di", "Ed")


def play_through(variant: str, names: tuple[str, ...], options=None, limit: int = 2000) -> Service:
    service = Service(variant, names, options)
    for turn in range(limit):
        if service.game.summary(service.state).finished:
            return service
        service.step(turn)
    raise AssertionError(f"{variant} did not end in {limit} commands")


@pytest.mark.parametrize("variant, names, options", [
    ("cassino", ("Ann", "Bob"), {"target": None, "count_out": False}),
    ("mass-cool-casino", ("Ann", "Bob", "Cy"), {"money": 3}),
    ("mass-cool-casino", FIVE, None),
    ("mass-cool-casino", tuple("ABCDEFGH"), None),
])
def test_a_whole_game_plays_to_its_end_through_the_registry_alone(variant, names, options):
    service = play_through(variant, names, options)
    game, state = service.game, service.state
    summary = game.summary(state)
    assert (summary.variant, summary.status, summary.player_names) == (variant, "finished", names)
    assert summary.winner is not None and summary.hand_number >= 1
    assert state.variant == variant and state.version == len(service.stored)
    assert game.fold(game.from_json(s) for s in service.stored) == state
    assert game.audit(game.from_json(s) for s in service.stored) == []
    assert game.log_revealed(state)
    assert [s["seat"] for s in game.seats(state)] == list(range(len(names)))
    assert game.game_view(state)["status"] == "finished"


@pytest.mark.parametrize("variant, names", [("cassino", ("Ann", "Bob")), ("mass-cool-casino", ("Ann", "Bob"))])
def test_no_one_sees_the_deck_or_another_seats_hand_before_the_end(variant, names):
    service = Service(variant, names)
    service.step(0)
    game, state = service.game, service.state
    assert not game.log_revealed(state)
    dealt = next(s for s in service.stored if "deck" in s["data"])
    for seat in (None, 0, 1):
        public = [game.event_view(s, seat) for s in service.stored]
        assert all(e["type"] == s["type"] for e, s in zip(public, service.stored))
        assert next(e for e in public if e["type"] == dealt["type"])["data"]["deck"] is None
        assert "stock" not in game.game_view(state, seat)
    assert game.event_view(dealt, operator=True) == dealt == game.event_view(dealt, reveal=True)
    assert game.game_view(state, operator=True)["stock"]


def test_only_mass_cool_casino_follows_a_tie_up_by_itself():
    """Cassino has nothing to do by itself; a tied pot asks for its reshuffle."""
    cassino = play_through("cassino", ("Ann", "Bob"), {"target": None, "count_out": False})
    assert cassino.game.follow_up(cassino.state, b"x" * 32) is None
    masscool = play_through("mass-cool-casino", FIVE)  # these seeds bring one tie
    kinds = [s["type"] for s in masscool.stored]
    assert kinds.count("PotTied") == kinds.count("DeckReshuffled") == 1
    assert kinds.index("PotTied") < kinds.index("DeckReshuffled")


def test_fold_never_returns_none():
    with pytest.raises(ValueError):
        fold([])
    state = fold(decide(None, CreateGame("cassino", ("Ann", "Bob"), 1)))
    assert fold([], state) is state


def test_enums_compare_and_serialise_as_their_strings():
    state = fold(decide(None, CreateGame("cassino", ("Ann", "Bob"), 1)))
    assert state.status is Status.WAITING and state.status == "waiting"
    assert json.dumps({"status": state.status}) == '{"status": "waiting"}'
    move = Move.parse("5C trail")
    assert move.action is Action.TRAIL and move.to_dict() == {"card": "5C", "action": "trail"}
    assert type(move.to_dict()["action"]) is str


def test_an_end_reason_reads_back_as_the_enum():
    stored = json.loads(json.dumps(to_json(GameFinished(0, EndReason.TARGET, (21, 3)))))
    assert stored["data"]["reason"] == "target"
    assert from_json(stored).reason is EndReason.TARGET
